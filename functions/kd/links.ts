/**
 * The kd flow's one port to a control unit (docs/conventions.md §25, §27): what may stop a request before it leaves,
 * and the request's way to the unit and back. A unit behind an edge bridge is reached over IoT (`bridgeLink`), a
 * cloud control unit over HTTPS (`cloudLink`); `linkOf` is the one place that chooses, from the unit's record.
 */
import type { ControlUnit } from '#shared/domain/records.ts';
import type { Reader, Writer } from '#shared/fiscal/ledger.ts';
import type { PrintType } from '#shared/fiscal/model.ts';
import type { KdRequest } from '#shared/kd/codec.ts';
import type { KdReplyMessage } from '#shared/kd/protocol.ts';
import { bridgeLink } from './bridge-link.ts';
import { cloudLink } from './cloud-link.ts';
import type { KdOrder } from './mapping.ts';
import type { KdResult } from './outcome.ts';

/** A request on its way: which claim, which correlation, until when. */
export interface InFlight {
  receiptNumber: number;
  printType: PrintType;
  correlationId: string;
  deadline: number;
}

/** Everything a link may need to put the request on its wire. */
export interface Sending {
  flight: InFlight;
  command: KdRequest;
  order: KdOrder;
  register: Writer;
  timeZone: string;
}

/** The request never left: nothing reached the unit. */
export const UNSENT = 'unsent';

export interface UnitLink {
  /** Why nothing may be sent now, from what the claim's write read (and the order); undefined when it may. */
  refusal(read: Reader, order: KdOrder): KdResult | undefined;
  /**
   * Hands the request to the unit and waits, until the flight's deadline, for its reply, which is also in the table
   * (`bridgeKeys.reply`) for whoever waits on the same claim; undefined when none came.
   */
  ask(sending: Sending): Promise<KdReplyMessage | undefined | typeof UNSENT>;
}

/** The link of the unit `serial`, as its record (read by the claim's write) says. */
export const linkOf = (serial: string, unit: ControlUnit | undefined): UnitLink =>
  unit?.cloud ? cloudLink(serial, unit.cloud) : bridgeLink(serial);

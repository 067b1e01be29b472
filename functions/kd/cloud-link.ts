/**
 * A cloud control unit (docs/conventions.md §27): the kd is sent as a `TcsRequest` to the stage's signing server over
 * HTTPS, built as Infrasec's public client builds it (shared/kd/infrasec.ts), and the `TcsResponse` becomes the reply
 * a bridge would have sent, written into the table like one so every waiter on the claim reads it.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { config } from '#shared/config.ts';
import { readItem } from '#shared/db/reads.ts';
import { table } from '#shared/db/client.ts';
import { putItem, updateItem } from '#shared/db/documents.ts';
import { activationKeys, type CloudUnit, controlUnitKeys } from '#shared/domain/records.ts';
import { sellerKeys } from '#shared/domain/seller.ts';
import { claimTypeOf } from '#shared/kd/claims.ts';
import { postToCloud } from '#shared/kd/cloud-system.ts';
import {
  answerText,
  InfrasecWireError,
  parseTcsResponse,
  registerAddressOf,
  TCS_VAT_RATES,
  type TcsTransaction,
  type TcsVatGroup,
  tcsRequestXml,
} from '#shared/kd/infrasec.ts';
import { type KdReplyMessage, replyItem } from '#shared/kd/protocol.ts';
import { kdKeys } from '#shared/kd/records.ts';
import type { Sending, UnitLink } from './links.ts';
import { kdDate, type KdOrder } from './mapping.ts';

/** What a reply from the cloud system says it came through, where a bridge names its version. */
const CLOUD_VERSION = 'infrasec-tcs';

/** HTTP statuses after which the system may answer the same request: busy, or a gateway in front of it. */
const BUSY = new Set([429, 500, 502, 503, 504]);

/** Pauses before a request is sent again to a busy system: 100 ms, doubling, at most 1 s, within the deadline. */
const RETRY_FIRST_MS = 100;
const RETRY_MAX_MS = 1000;

export const cloudLink = (serial: string, unit: CloudUnit): UnitLink => ({
  refusal(_read, order) {
    const other = order.vat.find(({ rate }) => !(TCS_VAT_RATES as readonly number[]).includes(rate));
    if (!other) return undefined;
    return {
      outcome: 'REFUSED',
      returnCode: null,
      controlCode: null,
      message: `The cloud control unit registers VAT at 25, 12, 6 and 0 % only, not ${other.key} %`,
    };
  },
  async ask(sending) {
    const reply = await signed(serial, unit, sending);
    if (reply) await putItem({ TableName: table(), Item: replyItem(reply, Date.now()) });
    return reply;
  },
});

/**
 * Sends the request until the system answers it or the deadline passes: a busy system (or a connection that failed)
 * gets the same receipt again under a fresh request id, as the public client retries; undefined when nothing came.
 */
async function signed(serial: string, unit: CloudUnit, sending: Sending): Promise<KdReplyMessage | undefined> {
  const { flight } = sending;
  // A register enrolled before its seller had an address signs with the address the seller has now.
  const address =
    unit.registerAddress || registerAddressOf((await readItem(sellerKeys.profile(sending.register.sellerId))) ?? {});
  const enrolled = { ...unit, registerAddress: address };
  const reply = (fields: Pick<KdReplyMessage, 'outcome' | 'returnCode' | 'controlCode' | 'detail'>): KdReplyMessage => ({
    correlationId: flight.correlationId,
    serial,
    ...fields,
    bridgeVersion: CLOUD_VERSION,
    at: Date.now(),
  });
  for (let pause = RETRY_FIRST_MS; ; pause = Math.min(2 * pause, RETRY_MAX_MS)) {
    const left = flight.deadline - Date.now();
    if (left <= 0) return undefined;
    const document = tcsRequestXml(tcsTransaction(serial, enrolled, sending, randomUUID()));
    const answer = await postToCloud('tcs', document, AbortSignal.timeout(left)).catch((error: unknown) => {
      console.log(JSON.stringify({ level: 'warn', message: 'tcs request failed', serial, error: String(error) }));
      return undefined;
    });
    if (answer === undefined || BUSY.has(answer.status)) {
      await sleep(Math.min(pause, Math.max(0, flight.deadline - Date.now())));
      continue;
    }
    if (answer.status < 200 || answer.status > 299) {
      return reply({ outcome: 'COMMUNICATION', returnCode: null, controlCode: null, detail: `HTTP ${answer.status}` });
    }
    return replyOf(answer.body, { ...sending, serial, unit }, reply);
  }
}

/** The system's answer as a reply: its ResponseCode as the return code, its control code when it signed. */
async function replyOf(
  body: string,
  sending: Sending & { serial: string; unit: CloudUnit },
  reply: (fields: Pick<KdReplyMessage, 'outcome' | 'returnCode' | 'controlCode' | 'detail'>) => KdReplyMessage,
): Promise<KdReplyMessage> {
  let answer;
  try {
    answer = parseTcsResponse(body);
  } catch (error) {
    if (!(error instanceof InfrasecWireError)) throw error;
    return reply({ outcome: 'COMMUNICATION', returnCode: null, controlCode: null, detail: error.message });
  }
  const detail = answerText(answer).slice(0, 200) || null;
  if (answer.responseCode !== 0) return reply({ outcome: 'REPLY', returnCode: answer.responseCode, controlCode: null, detail });
  if (answer.controlServerId !== null) await rememberServer(answer.controlServerId, sending);
  // A pro forma of a receipt not yet signed has no original: it is signed without a code, and prints none.
  const code = answer.controlCode ?? (await originalCode(sending)) ?? (sending.command.type === 'profo' ? '' : null);
  if (code === null) {
    return reply({
      outcome: 'COMMUNICATION',
      returnCode: null,
      controlCode: null,
      detail: 'The system signed without a control code',
    });
  }
  return reply({ outcome: 'REPLY', returnCode: 0, controlCode: code, detail: null });
}

/**
 * The control server a signing names, kept where receipts and exports read the unit's name (the activation) and on the
 * unit, when it is not the one the enrollment named: two writes, once, so the printed name follows the system.
 */
async function rememberServer(
  controlServerId: string,
  { register, serial, unit }: Sending & { serial: string; unit: CloudUnit },
) {
  if (controlServerId === unit.controlServerId) return;
  await Promise.all([
    updateItem({
      TableName: table(),
      Key: activationKeys.activation(register.activationId),
      UpdateExpression: 'SET controlServerId = :id',
      ExpressionAttributeValues: { ':id': controlServerId },
    }),
    updateItem({
      TableName: table(),
      Key: controlUnitKeys.unit(serial),
      UpdateExpression: 'SET #cloud.controlServerId = :id',
      ExpressionAttributeNames: { '#cloud': 'cloud' },
      ExpressionAttributeValues: { ':id': controlServerId },
    }),
  ]);
}

/**
 * A copy or pro forma the system answers without a code carries its original's (the public client's tests say so):
 * the control code the register's Normal receipt of that number was signed with; null when there is none.
 */
async function originalCode({ command, register, order }: Sending): Promise<string | null> {
  if (command.type !== 'kopia' && command.type !== 'profo') return null;
  const normal = await readItem(
    kdKeys.claim(register.sellerId, register.cash, command.receiptNo, claimTypeOf('Normal', order.training)),
  );
  return normal?.state === 'SIGNED' ? normal.controlCode : null;
}

/** The kd as the system's transaction, under `requestId`. */
export function tcsTransaction(
  serial: string,
  unit: CloudUnit,
  { command, order, timeZone }: Sending,
  requestId: string,
): TcsTransaction {
  const dateTime = kdDate(order.date, timeZone, true);
  return {
    applicationId: config().cloudApplicationId,
    requestId,
    dateTime,
    orgNr: command.org,
    registerId: serial,
    registerAddress: unit.registerAddress,
    sequenceNumber: command.receiptNo,
    type: command.type,
    saleAmount: order.refund ? null : order.brutto,
    refundAmount: order.refund ? order.brutto : null,
    vat: vatGroups(order),
    copy: command.type === 'kopia' ? { dateTime, sequenceNumber: command.receiptNo } : null,
  };
}

/**
 * The four VAT groups of an order (25, 12, 6, 0 %), each its VAT and net. A rate the register sent as gross has its net
 * exactly; one sent as a VAT amount beside `brutto` (the srv4pos habit) has the net its VAT comes from, rounded, and
 * what is left of the gross goes to the 0 % group when the register named one, else to the highest rate's net
 * (its rounding); docs/decisions.md "Cloud control units: the VAT groups".
 */
export function vatGroups(order: KdOrder): TcsTransaction['vat'] {
  const group = (rate: number): TcsVatGroup | null => {
    const line = order.vat.find((vat) => vat.rate === rate);
    if (!line) return null;
    if (line.gross !== null) return { amount: line.amount, subtotal: line.gross - line.amount };
    return { amount: line.amount, subtotal: rate === 0 ? 0 : Math.floor((2 * line.amount * 10_000 + rate) / (2 * rate)) };
  };
  const [high, middle, low, zero] = TCS_VAT_RATES;
  const groups = [group(high), group(middle), group(low), group(zero)] as const;
  if (order.vat.every((vat) => vat.gross !== null)) return groups;
  const left = order.brutto - groups.reduce((sum, each) => sum + (each ? each.amount + each.subtotal : 0), 0);
  const absorbing = (left >= 0 ? groups[3] : null) ?? groups.find((each) => each !== null) ?? null;
  if (absorbing) absorbing.subtotal += left;
  return groups;
}

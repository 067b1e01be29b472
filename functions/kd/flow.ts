/**
 * A kd from the register to its control unit and back (docs/conventions.md §25): the claim on the receipt number and
 * print type is decided and written on the register's ledger before anything is published, so one receipt reaches
 * its unit once however often, and however concurrently, it is sent; the reply is read from the table where the
 * reply rule puts it; every request and outcome is journaled and logged.
 */
import { randomUUID } from 'node:crypto';
import { config } from '#shared/config.ts';
import { readItem } from '#shared/db/reads.ts';
import { create, put, type Step } from '#shared/db/transact.ts';
import { ApiError, registerNameTaken, versionConflict } from '#shared/errors.ts';
import type { JournalEvent } from '#shared/fiscal/journal.ts';
import {
  lastReceipt,
  type Ledger,
  type LedgerDecision,
  type LedgerState,
  type Reader,
  writeLedger,
  writeLedgerKeyed,
  type Writer,
} from '#shared/fiscal/ledger.ts';
import { count } from '#shared/http/metrics.ts';
import type { IdempotencyKey } from '#shared/fiscal/kept-answers.ts';
import type { Reply } from '#shared/http/types.ts';
import { claimTypeOf, decideClaim } from '#shared/kd/claims.ts';
import type { KdRequest } from '#shared/kd/codec.ts';
import { bridgeKeys } from '#shared/kd/protocol.ts';
import { type KdClaim, type KdLogRecord, type KdLogRequest, type KdLogScope, kdKeys } from '#shared/kd/records.ts';
import type { ApiVersion } from '#shared/versions.ts';
import { type KdContext, kdCommand, type KdOrder, receiptNumberOf } from './mapping.ts';
import { type InFlight, linkOf, UNSENT, type UnitLink } from './links.ts';
import { answer, type KdResult, replyResult, signed, unpublished } from './outcome.ts';
import { waitForReply } from './replies.ts';
import { controlUnitKeys } from '#shared/domain/records.ts';

/** A kd as the route asks it: the register, its unit, the kd in its one form and what the command needs besides. */
export interface KdAsk {
  register: Writer;
  serial: string;
  version: ApiVersion;
  order: KdOrder;
  context: KdContext;
  /** Kept with the claim: the same key with another kd is refused; a repeat is answered by the claim. */
  idempotency?: IdempotencyKey | undefined;
}

/** What the claim's write decided (`decideKd`). */
type Step1 =
  | { kind: 'answered'; result: KdResult; serial: string }
  | { kind: 'refused'; result: KdResult }
  | { kind: 'wait'; flight: InFlight }
  | { kind: 'late'; flight: InFlight }
  | { kind: 'sent'; flight: InFlight; command: KdRequest; link: UnitLink };

/**
 * The answer of a kd the unit was asked for (or refused before asking), counted as the metric `KdOutcome` by the
 * exception the register gets, or `Signed` (infra/monitoring.yml alarms on `ControlUnitUnavailable`). A repeat
 * answered from its claim is not counted again.
 */
export function counted(result: KdResult, serial: string): Reply {
  try {
    const reply = answer(result, serial);
    count('KdOutcome', { outcome: 'Signed' });
    return reply;
  } catch (error) {
    if (error instanceof ApiError) count('KdOutcome', { outcome: error.exception });
    throw error;
  }
}

/** Rounds of a kd: a late reply found settles its claim, and the next round decides on that. */
const MAX_ROUNDS = 3;

/** `POST /pospluses/kd` (v15, v26), `POST /{sellerId}/registration/{cash}/kd` (v33): the register's kd. */
export async function sendKd(ask: KdAsk): Promise<Reply> {
  let lateChecked: string | undefined;
  for (let round = 1; ; round++) {
    const step = await claimWrite(ask, lateChecked);
    switch (step.kind) {
      case 'answered':
        // As a repeated sale POST (docs/conventions.md §15): the stored answer, nothing sent or written.
        return { ...answer(step.result, step.serial), headers: { 'Idempotent-Replayed': 'true' } };
      case 'refused':
        return counted(step.result, ask.serial);
      case 'wait': {
        const result = replyResult(await waitForReply(step.flight, ask.serial));
        await settle(ask, step.flight, result);
        return counted(result, ask.serial);
      }
      case 'sent': {
        const { flight, command, link } = step;
        const reply = await link.ask({
          flight,
          command,
          order: ask.order,
          register: ask.register,
          timeZone: ask.context.timeZone,
        });
        const result = reply === UNSENT ? unpublished : replyResult(reply);
        await settle(ask, flight, result);
        return counted(result, ask.serial);
      }
      case 'late': {
        // A request past its deadline: its reply may have come late. Attach it to its own claim, or send anew.
        const reply = await readItem(bridgeKeys.reply(step.flight.correlationId));
        if (reply && reply.serial === ask.serial) await settle(ask, step.flight, replyResult(reply), true);
        else lateChecked = step.flight.correlationId;
        if (round >= MAX_ROUNDS)
          throw new Error(`kd of receipt ${step.flight.receiptNumber} did not settle in ${MAX_ROUNDS} rounds`);
      }
    }
  }
}

/** A kd's claim: training receipts are kept apart, as their numbers are a series of their own (docs/conventions.md §16). */
const claimKey = (register: Writer, receiptNumber: number, order: KdOrder) =>
  kdKeys.claim(register.sellerId, register.cash, receiptNumber, claimTypeOf(order.printType, order.training));

/** The claim's write: the decision on the claim as read, and, to send, the claim and the request's journal entry. */
function claimWrite(ask: KdAsk, lateChecked: string | undefined): Promise<Step1> {
  const { register } = ask;
  return writeLedgerKeyed(
    {
      register,
      apiVersion: ask.version,
      reads: [
        bridgeKeys.bridge(ask.serial),
        bridgeKeys.status(ask.serial),
        controlUnitKeys.unit(ask.serial),
        kdKeys.registerId(register.sellerId, ask.context.registerId),
      ],
      laterReads: (ledger: Ledger) => [
        claimKey(register, receiptNumberOf(ask.order, ask.version, lastReceipt(ledger, ask.order)), ask.order),
      ],
      decide: (state, read, now) => decideKd(ask, lateChecked, state, read, now),
    },
    ask.idempotency,
  );
}

/** The register's latest day while it is open: the day a kd's journal entries belong to (null between days). */
const openDay = (state: LedgerState) => (state.ledger.day?.opened ? state.ledger.day.dayNumber : null);

const noChange = <R>(state: LedgerState, result: R): LedgerDecision<R> => ({
  result,
  entities: [],
  ledger: state.ledger,
  events: [],
});

export function decideKd(
  ask: KdAsk,
  lateChecked: string | undefined,
  state: LedgerState,
  read: Reader,
  now: number,
): LedgerDecision<Step1> {
  const { register, order } = ask;
  const receiptNumber = receiptNumberOf(order, ask.version, lastReceipt(state.ledger, order));
  const command = kdCommand(order, receiptNumber, ask.context);
  const key = claimKey(register, receiptNumber, order);
  const claim = read(key);
  const decision = decideClaim(claim, command, now, lateChecked);
  const flight = (held: KdClaim): InFlight => ({
    receiptNumber,
    printType: order.printType,
    correlationId: held.correlationId,
    deadline: held.deadline,
  });
  switch (decision.kind) {
    case 'replay':
      return noChange(state, {
        kind: 'answered',
        result: signed(decision.claim.controlCode ?? ''),
        serial: decision.claim.serial,
      });
    case 'conflict':
      throw versionConflict(
        `Receipt ${receiptNumber} (${order.printType}) is ${decision.claim.state === 'SIGNED' ? 'signed' : 'being signed'} with other content`,
      );
    case 'wait':
      return noChange(state, { kind: 'wait', flight: flight(decision.claim) });
    case 'late':
      return noChange(state, { kind: 'late', flight: flight(decision.claim) });
    case 'send':
      break;
  }
  const holder = read(kdKeys.registerId(register.sellerId, ask.context.registerId));
  if (holder && holder.holder !== register.cash) {
    throw registerNameTaken(
      `Register ${register.cash} would be ${ask.context.registerId} at its control unit, which register ${holder.holder} of the seller is`,
    );
  }
  const request: KdLogRequest = {
    activation: register.activationId,
    brutto: command.returnAmount + command.salesAmount,
    kdDate: order.date,
    vatRateToSum: Object.fromEntries(order.vat.map(({ key, amount }) => [key, amount])),
    refund: order.refund,
    softwareVendor: read(controlUnitKeys.unit(ask.serial))?.softwareVendor ?? null,
  };
  const correlationId = randomUUID();
  const requested: JournalEvent = {
    type: 'KD_REQUEST',
    dayNumber: openDay(state),
    receiptNumber,
    printType: order.printType,
    amount: request.brutto,
    data: {
      correlationId,
      controlUnitSerial: ask.serial,
      retryOf: claim?.correlationId ?? null,
      command: { ...command, vat: command.vat.map(({ rate, amount }) => ({ rate, amount })) },
    },
  };
  const link = linkOf(ask.serial, read(controlUnitKeys.unit(ask.serial)));
  const refusal = link.refusal(read, order);
  if (refusal) {
    // Nothing is sent: the claim stays as it was, and the request and its outcome are on record.
    const record = logRecord(ask, { receiptNumber, printType: order.printType, correlationId }, request, refusal, now);
    return {
      result: { kind: 'refused', result: refusal },
      entities: [],
      ledger: state.ledger,
      events: [requested, outcomeEvent(state, record)],
      alongside: logWrites(record),
    };
  }
  const deadline = now + config().kdTimeoutMs;
  const held: KdClaim = {
    receiptNumber,
    printType: order.printType,
    serial: ask.serial,
    command,
    state: 'PENDING',
    correlationId,
    deadline,
    controlCode: null,
    request,
    timedOut: false,
    created: claim?.created ?? now,
    updated: now,
  };
  const steps: Step[] = [put({ ...key, ...held })];
  if (!holder) {
    // The first kd of the register takes its id at the seller's units; a concurrent taker makes this one decide again.
    steps.push(create({ ...kdKeys.registerId(register.sellerId, ask.context.registerId), holder: register.cash }));
  }
  return {
    result: { kind: 'sent', flight: flight(held), command, link },
    entities: [],
    ledger: state.ledger,
    events: [requested],
    alongside: steps,
  };
}

/**
 * Records a request's outcome on its claim: SIGNED with the control code, FAILED on any other reply (the unit did
 * not register the receipt), still PENDING after a silence (marked, so a second waiter records nothing) or a request
 * the broker never took. Only the request the claim still holds is settled: a reply of an older one never is.
 * `late`: a reply found after its deadline by a later kd of the same receipt.
 */
async function settle(ask: KdAsk, flight: InFlight, result: KdResult, late = false): Promise<void> {
  const key = claimKey(ask.register, flight.receiptNumber, ask.order);
  await writeLedger({
    register: ask.register,
    apiVersion: ask.version,
    reads: [key],
    decide: (state, read, now) => {
      const claim = read(key);
      const current = claim?.state === 'PENDING' && claim.correlationId === flight.correlationId;
      if (!claim || !current || (result.outcome === 'TIMEOUT' && claim.timedOut)) return noChange(state, undefined);
      const settled: KdClaim =
        result.outcome === 'SIGNED'
          ? { ...claim, state: 'SIGNED', controlCode: result.controlCode, updated: now }
          : result.outcome === 'TIMEOUT'
            ? { ...claim, timedOut: true, updated: now }
            : result === unpublished
              ? claim
              : { ...claim, state: 'FAILED', updated: now };
      const record = logRecord(ask, flight, claim.request, result, now);
      return {
        result: undefined,
        entities: [],
        ledger: state.ledger,
        events: [outcomeEvent(state, record, late)],
        alongside: [...(settled === claim ? [] : [put({ ...key, ...settled })]), ...logWrites(record)],
      };
    },
  });
}

function logRecord(
  ask: KdAsk,
  flight: Pick<InFlight, 'receiptNumber' | 'printType' | 'correlationId'>,
  request: KdLogRequest,
  result: KdResult,
  now: number,
): KdLogRecord {
  return {
    id: randomUUID(),
    ...request,
    receiptNumber: flight.receiptNumber,
    printType: flight.printType,
    errorMessage: result.message,
    errorStackTrace: null,
    sellerId: ask.register.sellerId,
    cashRegisterName: ask.register.cash,
    controlUnitSerial: ask.serial,
    correlationId: flight.correlationId,
    outcome: result.outcome,
    returnCode: result.returnCode,
    response: result.controlCode,
    created: now,
  };
}

/** One copy of the record in each directory that lists it (`kdKeys.log`). */
function logWrites(record: KdLogRecord): Step[] {
  const scopes: KdLogScope[] = [
    undefined,
    { sellerId: record.sellerId },
    { serial: record.controlUnitSerial },
    ...(record.softwareVendor === null ? [] : [{ vendor: record.softwareVendor }]),
  ];
  return scopes.map((scope) => put({ ...kdKeys.log(scope, record.kdDate, record.id), ...record }));
}

function outcomeEvent(state: LedgerState, record: KdLogRecord, late = false): JournalEvent {
  return {
    type: 'KD_OUTCOME',
    dayNumber: openDay(state),
    receiptNumber: record.receiptNumber,
    printType: record.printType,
    amount: record.brutto,
    controlCode: record.response,
    data: {
      correlationId: record.correlationId,
      controlUnitSerial: record.controlUnitSerial,
      outcome: record.outcome,
      returnCode: record.returnCode,
      message: record.errorMessage,
      late,
    },
  };
}

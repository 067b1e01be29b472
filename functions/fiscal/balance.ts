import type { BalanceChangeBody } from '#schemas/types.ts';
import { readItem } from '#shared/db/reads.ts';
import { valueNotValid } from '#shared/errors.ts';
import { timeZoneOf } from '#shared/fiscal/dates.ts';
import { dayKey, latestDayAhead, writerOf } from '#shared/fiscal/ledger.ts';
import { writeLedgerOnce } from '#shared/http/idempotency.ts';
import { balanceContribution } from '#shared/fiscal/totals.ts';
import { ok } from '#shared/http/response.ts';
import type { Reply } from '#shared/http/types.ts';
import { dayForNewRecord, dayWrite, latestDay, withTotals } from './day-rules.ts';
import { dayRefusal } from './refusals.ts';
import { readRegister, registerCounter, registerReadsAhead, type RegisterRequest } from './registers.ts';

/** What a balance read reads first: the register's registration and counter, its latest day as this process saw it. */
export const balanceReadAhead = registerReadsAhead(latestDayAhead);

/** `GET .../registrations/{cash}/balance`: the open day's cash (docs/conventions.md §18); with no day open, DAY_IS_CLOSED. */
export async function getBalance(request: RegisterRequest): Promise<Reply> {
  const register = readRegister(request);
  const latest = (await registerCounter(register)).ledger?.day;
  const day = latest?.opened ? await readItem(dayKey(register, latest.dayNumber)) : undefined;
  if (!day?.opened) throw dayRefusal('balanceRead', 'DAY_IS_CLOSED', request.version);
  return ok({ amount: day.cash });
}

/**
 * `POST .../registrations/{cash}/balance`: a deposit or withdrawal in the open day (one opens for it
 * when none is); a withdrawal never takes the drawer below zero.
 */
export function changeBalance(request: RegisterRequest<BalanceChangeBody>): Promise<Reply> {
  const register = writerOf(request.principal);
  const { amount, action } = request.body;
  return writeLedgerOnce(
    {
      register,
      apiVersion: request.version,
      reads: [],
      decide: (state, _read, now) => {
        const target = dayForNewRecord(state, { instant: now, timeZone: timeZoneOf(register.sellerId), now }, (condition) =>
          dayRefusal('balanceChange', condition, request.version),
        );
        if (action === 'WITHDRAWAL' && amount > target.day.cash) {
          throw valueNotValid('VALUE_SHOULD_BE_LESS_THEN', 'A withdrawal cannot exceed the cash in the drawer', {
            field: 'amount',
            actualValue: amount,
            valueMax: target.day.cash,
          });
        }
        const day = withTotals(target.day, balanceContribution(action, amount));
        return {
          result: { status: 201, body: { amount: day.cash } },
          entities: [dayWrite(register, { day, seen: target.seen })],
          ledger: { ...state.ledger, day: latestDay(day) },
          events: [...target.events, { type: 'BALANCE', dayNumber: day.dayNumber, amount, data: { action, balance: day.cash } }],
        };
      },
    },
    request.idempotency,
  );
}

/**
 * A period of a register's journal over HTTP (docs/conventions.md §19): `GET /v33/{sellerId}/generated-e-journals/{cash}`
 * with `from` and `to` answers exactly the entries created in the period, read from the period's first hour, and a
 * period whose entries do not fit in one answer is 409 SERVER_IS_OVERLOADED naming the longest period that does.
 *
 * A journal spanning hours is seeded before the register's first request through the ledger's own write path
 * (`writeLedger`, as every route writes: entries chained, stamped, their hour markers beside them), in this process,
 * with the clock it reads (`Date.now`) set to the seeded times; the service then reads them as it reads any journal.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { JournalEntry, JsonValue } from '#shared/fiscal/journal.ts';
import { type Register, writeLedger } from '#shared/fiscal/ledger.ts';
import { activateRegister, type RegisterApp, registerApp } from '../support/fiscal.ts';
import { type CallOptions, detailOf, expectError, v } from '../support/http.ts';
import { swedishCorporateId } from '../support/identity.ts';

const HOUR = 3_600_000;
const MINUTE = 60_000;
/** The largest answer the stack sends (shared/config.ts's default of MAX_RESPONSE_BYTES). */
const MAX_RESPONSE_BYTES = 5_500_000;

let app: RegisterApp;
beforeAll(async () => {
  app = await registerApp();
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** A register of a new seller, activated and never written to, and its credentials. */
async function newRegister(): Promise<Register & { credentials: CallOptions }> {
  const corporateId = swedishCorporateId();
  const cash = `P${randomUUID().slice(0, 8)}`;
  const credentials = await activateRegister(33, app, corporateId, cash);
  return { sellerId: `SE${corporateId}`, cash, credentials };
}

/** Appends device events `data` to the register's journal in one fiscal write, the ledger's clock reading `at`. */
async function journalAt(register: Register, at: number, data: readonly { [field: string]: JsonValue }[]): Promise<void> {
  vi.spyOn(Date, 'now').mockReturnValue(at);
  await writeLedger({
    register,
    apiVersion: 33,
    reads: [],
    decide: (state) => ({
      result: undefined,
      entities: [],
      ledger: state.ledger,
      events: data.map((event) => ({ type: 'DEVICE', dayNumber: null, data: event })),
    }),
  });
  vi.restoreAllMocks();
}

const generated = (register: Register, query: string) =>
  v(33).get(`/${register.sellerId}/generated-e-journals/${register.cash}${query}`);
const entriesOf = (body: unknown) => (body as { entries: JournalEntry[] }).entries;

describe("a period of a register's generated e-journal", () => {
  it('answers exactly the entries created in it, from a journal spanning hours', async () => {
    // Prepare: two writes in each of five hours, the first six hours ago; the third hour's writes carry two entries.
    const register = await newRegister();
    const start = Math.floor(Date.now() / HOUR) * HOUR - 6 * HOUR;
    const times = [0, 1, 2, 3, 4].flatMap((hour) => [start + hour * HOUR + 10 * MINUTE, start + hour * HOUR + 40 * MINUTE]);
    for (const [index, at] of times.entries()) {
      const events =
        index === 4 || index === 5
          ? [
              { write: index, n: 1 },
              { write: index, n: 2 },
            ]
          : [{ write: index, n: 1 }];
      await journalAt(register, at, events);
    }

    // Act: from the first hour's second write to the fourth hour's first one; from an hour with no entry yet; open ends.
    const middle = await generated(register, `?from=${times[1]}&to=${times[6]}`);
    const withinHours = await generated(register, `?from=${(times[2] ?? 0) - 5 * MINUTE}&to=${(times[3] ?? 0) + 1}`);
    const untilSecond = await generated(register, `?to=${times[1]}`);
    const fromLast = await generated(register, `?from=${times[9]}`);
    const after = await generated(register, `?from=${(times[9] ?? 0) + 1}&to=${(times[9] ?? 0) + HOUR}`);
    const backwards = await generated(register, `?from=${times[6]}&to=${times[1]}`);

    // Assess: the writes by hand, by the times the test gave them.
    const writes = (body: unknown) => entriesOf(body).map((entry) => [entry.created, entry.data]);
    expect(middle.status).toBe(200);
    expect(writes(middle.body)).toEqual([
      [times[1], { write: 1, n: 1 }],
      [times[2], { write: 2, n: 1 }],
      [times[3], { write: 3, n: 1 }],
      [times[4], { write: 4, n: 1 }],
      [times[4], { write: 4, n: 2 }],
      [times[5], { write: 5, n: 1 }],
      [times[5], { write: 5, n: 2 }],
      [times[6], { write: 6, n: 1 }],
    ]);
    expect(entriesOf(middle.body).map((entry) => entry.sequence)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    expect(writes(withinHours.body)).toEqual([
      [times[2], { write: 2, n: 1 }],
      [times[3], { write: 3, n: 1 }],
    ]);
    expect(writes(untilSecond.body)).toEqual([
      [times[0], { write: 0, n: 1 }],
      [times[1], { write: 1, n: 1 }],
    ]);
    expect(writes(fromLast.body)).toEqual([[times[9], { write: 9, n: 1 }]]);
    expect([after.status, entriesOf(after.body)]).toEqual([200, []]);
    expect([backwards.status, entriesOf(backwards.body)]).toEqual([200, []]);
  });

  it("a register's next entry is never created before its last, though that one was stamped by a clock ahead", async () => {
    // Prepare: a write stamped ten minutes ahead of the service's clock (a Lambda whose clock runs fast).
    const register = await newRegister();
    const ahead = Date.now() + 10 * MINUTE;
    await journalAt(register, ahead, [{ fast: true }]);

    // Act: the register's next event, journaled by the service on its own clock.
    const appended = await v(33).post(
      `/${register.sellerId}/e-journals/${register.cash}`,
      { data: { next: true } },
      register.credentials,
    );
    const journal = await generated(register, `?from=${ahead}&to=${ahead}`);

    // Assess
    expect(appended.status).toBe(201);
    expect(entriesOf(journal.body).map((entry) => [entry.created, entry.data])).toEqual([
      [ahead, { fast: true }],
      [ahead, { next: true }],
    ]);
  });

  it('too long for one answer is 409 SERVER_IS_OVERLOADED naming the longest period that fits, which answers 200', async () => {
    // Prepare: eight writes a minute apart of 90 device events of about 8 KB each: 720 entries, about 5.9 MB of JSON.
    const register = await newRegister();
    const start = Date.now() - 3 * HOUR;
    const times = Array.from({ length: 8 }, (_, write) => start + write * MINUTE);
    for (const [write, at] of times.entries()) {
      await journalAt(
        register,
        at,
        Array.from({ length: 90 }, (_, n) => ({ write, n, filler: 'x'.repeat(8000) })),
      );
    }

    // Act
    const whole = await generated(register, `?from=${start}`);
    const longest = detailOf(whole);
    const fitting = await generated(register, `?from=${start}&to=${String(longest.to)}`);
    const oneWriteMore = await generated(register, `?from=${start}&to=${String(Number(longest.to) + MINUTE)}`);

    // Assess: the period ends at a write's time; its entries are whole writes and their answer is within the limit.
    expectError(whole, 409, 'InconsistentData', 'SERVER_IS_OVERLOADED');
    expect(longest).toEqual({ field: null, from: start, to: expect.any(Number) });
    expect(times).toContain(longest.to);
    expect(fitting.status).toBe(200);
    const entries = entriesOf(fitting.body);
    expect(entries.length).toBe((times.indexOf(Number(longest.to)) + 1) * 90);
    expect(entries.at(-1)?.created).toBe(longest.to);
    expect(fitting.text.length).toBeLessThanOrEqual(MAX_RESPONSE_BYTES);
    expectError(oneWriteMore, 409, 'InconsistentData', 'SERVER_IS_OVERLOADED');
  });
});

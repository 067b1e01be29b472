/**
 * Wrong passwords slowed per username and source (docs/conventions.md §26), as a client observes them over HTTP. The
 * stack sees a request's local address as its source, and every 127.0.0.0/8 address is this machine's, so a client
 * bound to 127.0.0.2 is another source than fetch's 127.0.0.1. The window's or a pause's passing is simulated by moving
 * a counter's times into the past in DynamoDB Local: nothing here waits on a clock.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  FIRST_PAUSE_MS,
  MAX_PAUSE_MS,
  SLOWED_FROM_FAILURES,
  sourceWrongPasswordsKey,
  WRONG_PASSWORD_LIMIT,
  WRONG_PASSWORD_WINDOW_MS,
  wrongPasswordsKey,
} from '#shared/auth/password-limit.ts';
import { createUserIfAbsent } from '#shared/auth/users.ts';
import { table } from '#shared/db/client.ts';
import { updateItem } from '#shared/db/documents.ts';
import { readItem } from '#shared/db/reads.ts';
import { type Answer, expectError, v } from '../support/http.ts';

const PASSWORD = 'the-right-password';

/** A regular user of its own, so no other test's wrong passwords count against it. */
async function newUser(): Promise<string> {
  const username = `limit-${randomUUID().slice(0, 8)}`;
  await createUserIfAbsent({
    username,
    password: PASSWORD,
    email: 'limit@example.com',
    role: 'REGULAR_USER',
    softwareVendor: null,
    sellers: [],
  });
  return username;
}

/** Fetch's source: what the stack sees of a request sent without `from`. */
const LOOPBACK = '127.0.0.1';

/** A sign-in (v33 GET /auth/user) from the local address `from`, fetch's 127.0.0.1 unless told. */
const signIn = (username: string, password: string, from?: string) =>
  v(33).get('/auth/user', { as: { basic: [username, password] }, ...(from ? { from } : {}) });
const counterOf = (username: string) => readItem(wrongPasswordsKey(username));
const sourceCounterOf = (username: string, source: string) => readItem(sourceWrongPasswordsKey(username, source));

async function wrongPasswords(username: string, count: number, from?: string): Promise<void> {
  for (let attempt = 1; attempt <= count; attempt++) {
    expectError(await signIn(username, `wrong-${attempt}`, from), 403, 'Forbidden', 'WRONG_USERNAME_OR_PASSWORD');
  }
}

/** The refusal past the limit or in a pause: the pinned error body, and the seconds to wait (at most the window). */
function expectRefused(answer: Answer): number {
  expectError(answer, 403, 'Forbidden', 'TOO_MANY_WRONG_PASSWORDS');
  const retryAfter = Number(answer.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= WRONG_PASSWORD_WINDOW_MS / 1000).toBe(true);
  return retryAfter;
}

/** What the window's end would do, done now: the counter's window ends in the past (its item is not deleted yet). */
async function endWindow(username: string): Promise<void> {
  await updateItem({
    TableName: table(),
    Key: wrongPasswordsKey(username),
    UpdateExpression: 'SET windowEnds = :past',
    ExpressionAttributeValues: { ':past': Date.now() - 1 },
  });
}

describe('wrong passwords per username and source', () => {
  it(`after ${WRONG_PASSWORD_LIMIT} wrong passwords the source is refused with Retry-After, the right password too`, async () => {
    // Prepare
    const username = await newUser();
    await wrongPasswords(username, WRONG_PASSWORD_LIMIT);

    // Act
    const right = await signIn(username, PASSWORD);
    const wrong = await signIn(username, 'wrong-again');

    // Assess: both refused alike, and neither counted (a refusal writes nothing).
    expectRefused(right);
    expectRefused(wrong);
    expect((await counterOf(username))?.failures).toBe(WRONG_PASSWORD_LIMIT);
    expect((await sourceCounterOf(username, LOOPBACK))?.failures).toBe(WRONG_PASSWORD_LIMIT);
  });

  it(`a source refused after ${WRONG_PASSWORD_LIMIT} wrong passwords does not lock the username out of another source`, async () => {
    // Prepare: 127.0.0.2 guesses until it is refused.
    const username = await newUser();
    await wrongPasswords(username, WRONG_PASSWORD_LIMIT, '127.0.0.2');

    // Act
    const attackerRight = await signIn(username, PASSWORD, '127.0.0.2');
    const ownerRight = await signIn(username, PASSWORD);
    const ownerWrong = await signIn(username, 'a-typo');

    // Assess: the source that failed is refused with the right password; the one that has not signs in, and a wrong
    // password of its own is checked as one, not refused.
    const retryAfter = expectRefused(attackerRight);
    console.log(
      `password limit: 127.0.0.2 after ${WRONG_PASSWORD_LIMIT} wrong: ${attackerRight.status} ` +
        `${(attackerRight.body as { code?: string }).code} Retry-After ${retryAfter}; 127.0.0.1 right: ${ownerRight.status}`,
    );
    expect(ownerRight.status).toBe(200);
    expectError(ownerWrong, 403, 'Forbidden', 'WRONG_USERNAME_OR_PASSWORD');
    expect((await sourceCounterOf(username, '127.0.0.2'))?.failures).toBe(WRONG_PASSWORD_LIMIT);
    expect((await sourceCounterOf(username, LOOPBACK))?.failures).toBe(1);
    expect((await counterOf(username))?.failures).toBe(WRONG_PASSWORD_LIMIT + 1);
  });

  it('a username guessed at from many sources: a source that failed waits a pause that grows, one that has not signs in at once', async () => {
    // Prepare: one wrong password from each of as many sources as slow the username down (none is paused yet: a
    // source's first try never is).
    const username = await newUser();
    const source = (index: number) => `127.0.0.${10 + index}`;
    for (let index = 0; index < SLOWED_FROM_FAILURES; index++) await wrongPasswords(username, 1, source(index));

    // Act: the sources that failed last are asked, so their pause has not passed by itself whatever the stack's speed.
    const failedRight = await signIn(username, PASSWORD, source(SLOWED_FROM_FAILURES - 1));
    const freshRight = await signIn(username, PASSWORD, '127.0.0.2');
    // Enough sources more for the longest pause.
    const longest = SLOWED_FROM_FAILURES + WRONG_PASSWORD_LIMIT * Math.log2(MAX_PAUSE_MS / FIRST_PAUSE_MS);
    for (let index = SLOWED_FROM_FAILURES; index < Math.ceil(longest); index++) await wrongPasswords(username, 1, source(index));
    const failedLater = await signIn(username, PASSWORD, source(Math.ceil(longest) - 1));
    const freshLater = await signIn(username, PASSWORD);
    await sourceCounterOf(username, source(0)).then((counter) =>
      updateItem({
        TableName: table(),
        Key: sourceWrongPasswordsKey(username, source(0)),
        UpdateExpression: 'SET lastFailure = :past',
        ExpressionAttributeValues: { ':past': (counter?.lastFailure ?? 0) - MAX_PAUSE_MS },
      }),
    );
    const pausePassed = await signIn(username, PASSWORD, source(0));

    // Assess: paused with the right password, for the pause of the failures so far (at most the longest); a source
    // without failures signs in at once, however many failed; once its pause has passed, the paused one signs in.
    const [first, later] = [expectRefused(failedRight), expectRefused(failedLater)];
    console.log(
      `password limit: ${SLOWED_FROM_FAILURES} sources failed: a failed one's Retry-After ${first}, a fresh one ${freshRight.status}; ` +
        `${Math.ceil(longest)} failed: Retry-After ${later}, a fresh one ${freshLater.status}; the pause passed: ${pausePassed.status}`,
    );
    expect(first).toBeLessThanOrEqual(FIRST_PAUSE_MS / 1000);
    expect(later).toBeGreaterThan(FIRST_PAUSE_MS / 1000);
    expect(later).toBeLessThanOrEqual(MAX_PAUSE_MS / 1000);
    expect([freshRight.status, freshLater.status, pausePassed.status]).toEqual([200, 200, 200]);
    expect((await counterOf(username))?.failures).toBe(Math.ceil(longest));
  }, 120_000); // some 40 sign-ins, each wrong one a scrypt: more than the default on a busy machine

  it('below the limit the right password signs in, and a good sign-in writes nothing', async () => {
    // Prepare
    const clean = await newUser();
    const typo = await newUser();
    await wrongPasswords(typo, WRONG_PASSWORD_LIMIT - 1);

    // Act
    const cleanAnswer = await signIn(clean, PASSWORD);
    const typoAnswer = await signIn(typo, PASSWORD);

    // Assess: no counter for a clean sign-in; a success leaves the count as it was (no write: the window ends it).
    expect([cleanAnswer.status, typoAnswer.status]).toEqual([200, 200]);
    expect(await counterOf(clean)).toBeUndefined();
    expect((await counterOf(typo))?.failures).toBe(WRONG_PASSWORD_LIMIT - 1);
  });

  it('other users are not affected by a refused username', async () => {
    // Prepare
    const locked = await newUser();
    const other = await newUser();
    await wrongPasswords(locked, WRONG_PASSWORD_LIMIT);

    // Act
    const otherRight = await signIn(other, PASSWORD);
    const otherWrong = await signIn(other, 'wrong');

    // Assess
    expectRefused(await signIn(locked, PASSWORD));
    expect(otherRight.status).toBe(200);
    expectError(otherWrong, 403, 'Forbidden', 'WRONG_USERNAME_OR_PASSWORD');
  });

  it('once the window has passed the right password signs in again, and a wrong one opens a new window', async () => {
    // Prepare
    const username = await newUser();
    await wrongPasswords(username, WRONG_PASSWORD_LIMIT);
    expectRefused(await signIn(username, PASSWORD));

    // Act
    await endWindow(username);
    const right = await signIn(username, PASSWORD);
    const wrong = await signIn(username, 'wrong-after');

    // Assess: the ended window counts for nothing although its item is still there; the next failure starts at 1.
    expect(right.status).toBe(200);
    expectError(wrong, 403, 'Forbidden', 'WRONG_USERNAME_OR_PASSWORD');
    const counter = await counterOf(username);
    expect(counter?.failures).toBe(1);
    expect(counter?.windowEnds).toBeGreaterThan(Date.now());
  });

  it('an unknown username is answered as a known one: wrong until the limit, then refused, its counter expiring', async () => {
    // Prepare
    const unknown = `nobody-${randomUUID().slice(0, 8)}`;

    // Act
    await wrongPasswords(unknown, WRONG_PASSWORD_LIMIT);
    const after = await signIn(unknown, PASSWORD);

    // Assess: the counter carries the table's TTL attribute, no earlier than its window's end.
    expectRefused(after);
    const counter = await counterOf(unknown);
    expect(counter?.failures).toBe(WRONG_PASSWORD_LIMIT);
    expect(counter?.expiresAt).toBeGreaterThanOrEqual(Math.floor((counter?.windowEnds ?? Infinity) / 1000));
  });

  it('concurrent wrong passwords all count', async () => {
    // Prepare
    const username = await newUser();
    const attempts = 2 * WRONG_PASSWORD_LIMIT;

    // Act: all at once; each either is checked and counted (WRONG...) or comes after the limit (TOO_MANY...).
    const answers = await Promise.all(Array.from({ length: attempts }, (_, index) => signIn(username, `wrong-${index}`)));

    // Assess: every checked attempt was counted, none lost to a race.
    const codes = answers.map((answer) => (answer.body as { code?: string } | undefined)?.code);
    const checked = codes.filter((code) => code === 'WRONG_USERNAME_OR_PASSWORD').length;
    expect(checked + codes.filter((code) => code === 'TOO_MANY_WRONG_PASSWORDS').length).toBe(attempts);
    expect(checked).toBeGreaterThanOrEqual(WRONG_PASSWORD_LIMIT);
    expect((await counterOf(username))?.failures).toBe(checked);
    expectRefused(await signIn(username, PASSWORD));
  });
});

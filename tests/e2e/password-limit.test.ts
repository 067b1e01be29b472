/**
 * Wrong passwords slowed per username (docs/conventions.md §26), as a client observes them over HTTP. The window's
 * passing is simulated by moving the counter's end into the past in DynamoDB Local: nothing here waits on a clock.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { WRONG_PASSWORD_LIMIT, WRONG_PASSWORD_WINDOW_MS, wrongPasswordsKey } from '#shared/auth/password-limit.ts';
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

const signIn = (username: string, password: string) => v(33).get('/auth/user', { as: { basic: [username, password] } });
const counterOf = (username: string) => readItem(wrongPasswordsKey(username));

async function wrongPasswords(username: string, count: number): Promise<void> {
  for (let attempt = 1; attempt <= count; attempt++) {
    expectError(await signIn(username, `wrong-${attempt}`), 403, 'Forbidden', 'WRONG_USERNAME_OR_PASSWORD');
  }
}

/** The refusal past the limit: the pinned error body and the seconds to wait, at most the window. */
function expectRefused(answer: Answer): void {
  expectError(answer, 403, 'Forbidden', 'TOO_MANY_WRONG_PASSWORDS');
  const retryAfter = Number(answer.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= WRONG_PASSWORD_WINDOW_MS / 1000).toBe(true);
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

describe('wrong passwords per username', () => {
  it(`after ${WRONG_PASSWORD_LIMIT} wrong passwords the username is refused with Retry-After, the right password too`, async () => {
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
  });

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

/**
 * Past the wrong-password limit of a source no password is checked (docs/conventions.md §26): `authenticate` against DynamoDB
 * Local with the password check observed, so "without the KDF" is shown by its calls, not by timing.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import type * as Passwords from '#shared/auth/passwords.ts';

vi.mock('#shared/auth/passwords.ts', async (importOriginal) => {
  const real = await importOriginal<typeof Passwords>();
  return { ...real, verifyPassword: vi.fn(real.verifyPassword) };
});

const { authenticate, credentialsOf } = await import('#shared/auth/credentials.ts');
const { WRONG_PASSWORD_LIMIT } = await import('#shared/auth/password-limit.ts');
const { verifyPassword } = await import('#shared/auth/passwords.ts');
const { createUserIfAbsent } = await import('#shared/auth/users.ts');

const PASSWORD = 'the-right-password';
const basic = (username: string, password: string) => ({
  authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`,
});

/** The source every attempt here comes from but the one from another source. */
const SOURCE = '198.51.100.7';

/** What `authenticate` threw, as the error body's exception and code and the Retry-After header; undefined if it signed in. */
async function refusal(username: string, password: string, sourceIp = SOURCE) {
  const error: unknown = await authenticate(credentialsOf(basic(username, password)), Date.now(), sourceIp).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (error === undefined) return undefined;
  const { exception, code, headers } = error as { exception?: string; code?: string; headers?: Record<string, string> };
  return { exception, code, retryAfter: headers?.['Retry-After'] !== undefined };
}

describe.each([
  ['a known username', true],
  ['an unknown username', false],
])('%s past the limit', (_, known) => {
  it('is refused from that source without a password check, the right password too; another source is checked', async () => {
    // Prepare
    const username = `limit-${randomUUID().slice(0, 8)}`;
    if (known) {
      await createUserIfAbsent({
        username,
        password: PASSWORD,
        email: 'limit@example.com',
        role: 'REGULAR_USER',
        softwareVendor: null,
        sellers: [],
      });
    }
    const checks = vi.mocked(verifyPassword);
    const before = checks.mock.calls.length;
    for (let attempt = 0; attempt < WRONG_PASSWORD_LIMIT; attempt++) {
      expect(await refusal(username, 'wrong')).toEqual({
        exception: 'Forbidden',
        code: 'WRONG_USERNAME_OR_PASSWORD',
        retryAfter: false,
      });
    }
    const checked = checks.mock.calls.length;

    // Act
    const right = await refusal(username, PASSWORD);
    const wrong = await refusal(username, 'wrong');
    const refusedChecks = checks.mock.calls.length - checked;
    const elsewhere = await refusal(username, PASSWORD, '198.51.100.8');

    // Assess
    const expected = { exception: 'Forbidden', code: 'TOO_MANY_WRONG_PASSWORDS', retryAfter: true };
    expect([right, wrong]).toEqual([expected, expected]);
    expect({ belowLimit: checked - before, pastLimit: refusedChecks }).toEqual({
      belowLimit: WRONG_PASSWORD_LIMIT,
      pastLimit: 0,
    });
    // Checked (one scrypt): a known user signs in, an unknown one is a wrong password.
    expect(elsewhere).toEqual(
      known ? undefined : { exception: 'Forbidden', code: 'WRONG_USERNAME_OR_PASSWORD', retryAfter: false },
    );
    expect(checks.mock.calls.length - checked).toBe(1);
  });
});

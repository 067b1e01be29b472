import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * scrypt cost N=2^15, r=8, p=1: 32 MiB and tens of milliseconds per hash, within a small Lambda's
 * memory. The parameters travel inside each stored hash, so they can be raised without a migration.
 */
const PARAMS = { N: 32768, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, params: { N: number; r: number; p: number }): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, { ...params, maxmem: PARAMS.maxmem }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** `scrypt$N$r$p$salt$hash`, salt and hash in base64; a fresh 16-byte salt per password. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** A hash that matches no password, verified against when a user is unknown so timing tells nothing. */
const DUMMY_HASH = `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${Buffer.alloc(16).toString('base64')}$${Buffer.alloc(KEY_LENGTH).toString('base64')}`;

/**
 * A warm function remembers, for a minute, which (password, stored hash) pairs it verified,
 * keyed by a SHA-256 that includes the stored hash (a password change invalidates it), so a
 * register's steady stream of calls does not pay a 30 ms KDF each.
 */
const verified = new Map<string, number>();
const REMEMBER_MS = 60_000;

export async function verifyPassword(password: string, stored: string | undefined): Promise<boolean> {
  const encoded = stored ?? DUMMY_HASH;
  const memo = createHash('sha256').update(encoded).update('\0').update(password).digest('base64');
  const until = verified.get(memo);
  if (until !== undefined && until > Date.now()) return stored !== undefined;
  const [scheme, n, r, p, salt, hash] = encoded.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(r), p: Number(p) });
  const match = actual.length === expected.length && timingSafeEqual(actual, expected) && stored !== undefined;
  if (match) {
    if (verified.size > 10_000) verified.clear();
    verified.set(memo, Date.now() + REMEMBER_MS);
  }
  return match;
}

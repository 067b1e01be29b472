import { forbidden, tooManyWrongPasswords, unauthorized } from '#shared/errors.ts';
import type { Key } from '#shared/db/keys.ts';
import { readItem } from '#shared/db/reads.ts';
import { type ApiKeyRecord, apiKeyItem, markWorking } from './api-keys.ts';
import { countWrongPassword, readSignIn, retryAfterSeconds, sourceOf } from './password-limit.ts';
import { verifyPassword } from './passwords.ts';
import type { Principal } from './principal.ts';

type Headers = Readonly<Record<string, string | undefined>>;

const notValid = () => forbidden('AUTHORIZATION_DATA_IS_NOT_VALID', 'The authorization data is not valid');
const wrongCredentials = () => forbidden('WRONG_USERNAME_OR_PASSWORD', 'Wrong username, password or API key');

/** What a request's headers present: a user's name and password, or a register's API key. */
type Presented = { username: string; password: string } | { apiKey: string };

/**
 * The credentials of a request, nothing read yet: a user's name and password, or a register's API key by the item it
 * opens. The key is hashed once, as the headers are parsed; what reads or remembers it takes the item.
 */
export type Credentials = { username: string; password: string } | { keyItem: Key<ApiKeyRecord> };

/**
 * The credentials of a request (docs/conventions.md §2): `Authorization: Basic` for a user, `X-Api-Key` for a
 * register's activation, or `Authorization: Basic base64(<apiKey>)` (the key alone, no colon: how apps written for
 * srv4pos send it; docs/compatibility.md). None: 401; malformed: 403 AUTHORIZATION_DATA_IS_NOT_VALID. Read from the
 * headers alone, so the pipeline knows which API key item to read before it reads anything.
 */
export function credentialsOf(headers: Headers): Credentials {
  const authorization = headers.authorization;
  const header = headers['x-api-key'];
  if (authorization !== undefined && header !== undefined) throw notValid();
  const presented =
    authorization !== undefined ? parseBasic(authorization) : header !== undefined ? { apiKey: header } : undefined;
  if (presented === undefined) throw unauthorized();
  if (!('apiKey' in presented)) return presented;
  if (presented.apiKey.length === 0 || presented.apiKey.length > 200) throw notValid();
  return { keyItem: apiKeyItem(presented.apiKey) };
}

/** The item an API key opens (`authenticate` reads it), so the pipeline can read it with what the route needs. */
export const credentialsItem = (credentials: Credentials): Key | undefined =>
  'keyItem' in credentials ? credentials.keyItem : undefined;

/** The register an API key opens, as this process has seen it (`rememberedRegister`). */
export interface RememberedRegister {
  sellerId: string;
  cash: string;
  activationId: number;
}

/** The most keys a process remembers; past it, it starts again (a warm container serves a few registers). */
const REMEMBERED_KEYS = 1000;
/** By the key's item's partition, which names the key's hash, not the key. */
const registersByKey = new Map<string, RememberedRegister>();

/**
 * The register a well-formed API key opened when this process last authenticated it: a key opens one activation of
 * one register for good, so what a request's reads need of it is known before the key is read again (a route's
 * `readAhead` names the register's items with it). It proves nothing: the key is authenticated anew on every request.
 */
export const rememberedRegister = (credentials: Credentials | undefined): RememberedRegister | undefined =>
  credentials && 'keyItem' in credentials ? registersByKey.get(credentials.keyItem.pk) : undefined;

function remember(keyItem: Key, record: { sellerId: string; cashRegisterName: string; activationId: number }): void {
  if (registersByKey.size >= REMEMBERED_KEYS) registersByKey.clear();
  const { sellerId, cashRegisterName: cash, activationId } = record;
  registersByKey.set(keyItem.pk, { sellerId, cash, activationId });
}

/**
 * Who is calling: unknown or wrong credentials are 403 WRONG_USERNAME_OR_PASSWORD; a username with too many wrong
 * passwords lately from the caller's address (`sourceIp`, API Gateway's `requestContext.http.sourceIp`) is 403
 * TOO_MANY_WRONG_PASSWORDS with `Retry-After` (docs/conventions.md §26); an activation outside its state or period is
 * its 403 code.
 */
export function authenticate(credentials: Credentials, now: number, sourceIp: string | undefined): Promise<Principal> {
  return 'keyItem' in credentials
    ? authenticateActivation(credentials.keyItem, now)
    : authenticateUser(credentials, now, sourceOf(sourceIp));
}

/**
 * `Basic base64(username:password)`, whose username must not be empty, or `Basic base64(<apiKey>)`: a text without a
 * colon is a key, as no key has one (shared/auth/api-keys.ts) and every user's credentials do.
 */
export function parseBasic(authorization: string): Presented {
  const match = /^Basic\s+([A-Za-z0-9+/]+={0,2})\s*$/i.exec(authorization);
  if (!match?.[1]) throw notValid();
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon === -1) return { apiKey: decoded };
  if (colon === 0 || colon > 50) throw notValid();
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

async function authenticateUser(
  { username, password }: { username: string; password: string },
  now: number,
  source: string,
): Promise<Principal> {
  if (password.length > 200) throw wrongCredentials();
  const signIn = await readSignIn(username, source, now);
  const { user } = signIn;
  // Refused before the KDF: a guesser past the limit or in its pause costs two reads, not a scrypt.
  const wait = retryAfterSeconds(signIn, now);
  if (wait !== undefined) throw tooManyWrongPasswords(wait);
  // An unknown username is verified (against a dummy hash) and counted like a known one: the answers are the same.
  if (!(await verifyPassword(password, user?.passwordHash)) || !user) {
    await countWrongPassword(username, source, now);
    throw wrongCredentials();
  }
  return {
    kind: 'user',
    username: user.username,
    role: user.role,
    softwareVendor: user.softwareVendor,
    sellers: user.sellers ?? [],
  };
}

async function authenticateActivation(keyItem: Key<ApiKeyRecord>, now: number): Promise<Principal> {
  const record = await readItem(keyItem);
  if (!record) throw wrongCredentials();
  // A key stored before keys named their register; `npm run migrate` fills it in (docs/operations.md).
  if (record.cashRegisterName === undefined) throw notValid();
  if (record.status === 'ISSUED') throw forbidden('ACTIVATION_STILL_ISSUED', 'The activation is not active yet');
  if (record.status === 'CLOSED') throw forbidden('ACTIVATION_CLOSED_ALREADY', 'The activation is closed');
  if (now < record.validFrom || now > record.validTo) {
    throw forbidden('WRONG_ACTIVATION_PERIOD', 'The activation is outside its validity period');
  }
  if (record.status === 'ACTIVE') await markWorking(keyItem, record.activationId, now);
  remember(keyItem, record);
  return {
    kind: 'activation',
    activationId: record.activationId,
    sellerId: record.sellerId,
    cashRegisterName: record.cashRegisterName,
    features: record.features,
  };
}

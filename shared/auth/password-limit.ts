import { isIPv4, isIPv6 } from 'node:net';
import { table } from '#shared/db/client.ts';
import { putItem, updateItem } from '#shared/db/documents.ts';
import { type Key, type Partition } from '#shared/db/keys.ts';
import { type Item, readItem, readPartition } from '#shared/db/reads.ts';
import { writeIf } from '#shared/db/transact.ts';
import { type UserRecord, userKeys, userPk } from './users.ts';

/**
 * Wrong passwords counted per username and source (docs/conventions.md §26). A username's window opens with its first
 * wrong password from any source and lasts `WRONG_PASSWORD_WINDOW_MS`. A source (the caller's address) with
 * `WRONG_PASSWORD_LIMIT` wrong passwords for the username in that window is refused for it until the window ends,
 * without a password check, the right password too; other sources are not. Once the username has
 * `SLOWED_FROM_FAILURES` wrong passwords in its window, from however many sources, a source that has failed waits a
 * pause after its last failure before its next try (`pauseAfterFailure`); a source that has not failed is always
 * checked at once. Counted for unknown usernames alike, so the answers do not tell which usernames exist.
 */
export const WRONG_PASSWORD_LIMIT = 5;
export const WRONG_PASSWORD_WINDOW_MS = 15 * 60_000;
/** The username's wrong passwords in its window, from all sources, from which a failed source waits between tries. */
export const SLOWED_FROM_FAILURES = 2 * WRONG_PASSWORD_LIMIT;
/** The pause at `SLOWED_FROM_FAILURES`; it doubles with every `WRONG_PASSWORD_LIMIT` more, up to `MAX_PAUSE_MS`. */
export const FIRST_PAUSE_MS = 10_000;
export const MAX_PAUSE_MS = 5 * 60_000;

/** A username's wrong passwords in its current window, from every source: written only on a wrong password. */
export interface WrongPasswords {
  /** Wrong passwords counted in the window (an atomic ADD, so concurrent ones all count). */
  failures: number;
  /** When the window ends, epoch ms; from then on the counter counts for nothing, whether or not it is deleted yet. */
  windowEnds: number;
  /** DynamoDB TTL (epoch seconds): the item goes some time after its window, so unknown usernames leave nothing behind. */
  expiresAt: number;
}

/** One source's wrong passwords for a username in the username's window (`windowEnds` names which window). */
export interface SourceWrongPasswords extends WrongPasswords {
  /** When the source's last wrong password was counted, epoch ms: its pause runs from there. */
  lastFailure: number;
}

/**
 * The wrong passwords of a username, known or not, beside its user (expires: `expiresAt`), so one Query of the
 * username's partition reads both.
 */
export const wrongPasswordsKey = (username: string): Key<WrongPasswords> => ({ pk: userPk(username), sk: '#WRONG_PASSWORDS' });
/**
 * One source's wrong passwords for a username: a partition of its own, so the username's Query stays two small items
 * however many sources fail. The source comes first: it never holds `#`, so no username can make two keys meet.
 */
export const sourceWrongPasswordsKey = (username: string, source: string): Key<SourceWrongPasswords> => ({
  pk: `WP#${source}#${username}`,
  sk: '#WRONG_PASSWORDS',
});
const usernamePartition = (username: string): Partition<UserRecord | WrongPasswords> => ({ pk: userPk(username) });

/**
 * The source a request counts under: API Gateway's `requestContext.http.sourceIp`, an IPv4 address as it is (an
 * IPv4-mapped IPv6 address as its IPv4 one), an IPv6 address as its /64, the block one subscriber gets (RFC 6177), so
 * one client cannot be many sources. Anything else counts as one source, `unknown`.
 */
export function sourceOf(sourceIp: string | undefined): string {
  const address = sourceIp?.replace(/%.*$/, '') ?? '';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped !== undefined && isIPv4(mapped)) return mapped;
  if (isIPv4(address)) return address;
  if (!isIPv6(address)) return 'unknown';
  // Its eight groups (an IPv4 tail is two), of which the first four are its /64.
  const groups = (text: string) =>
    text === '' ? [] : text.split(':').flatMap((group) => (group.includes('.') ? ['0', '0'] : [group]));
  const [head = '', tail] = address.split('::');
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  const full = [...front, ...Array<string>(8 - front.length - back.length).fill('0'), ...back];
  const prefix = full.slice(0, 4).map((group) => Number.parseInt(group, 16).toString(16));
  return `${prefix.join(':')}::/64`;
}

/**
 * What signing a username in from a source reads: its user (undefined when unknown), its wrong passwords (undefined when
 * none) and the source's (read only when they can matter, else undefined).
 */
export interface SignIn {
  user: UserRecord | undefined;
  wrongPasswords: WrongPasswords | undefined;
  fromSource: SourceWrongPasswords | undefined;
}

/**
 * The user and its wrong-password counter, in one strongly consistent Query of the username's partition: both items
 * are small, so this costs what the GetItem of the user alone did (one read unit). The source's counter is read after
 * it, by key, only when the username has `WRONG_PASSWORD_LIMIT` failures in an open window: below that no source can
 * be refused or paused, so a sign-in costs the one Query.
 */
export async function readSignIn(username: string, source: string, now: number): Promise<SignIn> {
  const items = await readPartition(usernamePartition(username));
  const find = <T>(key: Key<T>) => items.find((item) => item.sk === key.sk) as Item<T> | undefined;
  const wrongPasswords = find(wrongPasswordsKey(username));
  const mayMatter = wrongPasswords && wrongPasswords.windowEnds > now && wrongPasswords.failures >= WRONG_PASSWORD_LIMIT;
  const fromSource = mayMatter ? await readItem(sourceWrongPasswordsKey(username, source)) : undefined;
  return { user: find(userKeys.user(username)), wrongPasswords, fromSource };
}

/**
 * How long a source that failed waits after its last failure before its next try, by the username's failures in its
 * window from all sources: none below `SLOWED_FROM_FAILURES`, then `FIRST_PAUSE_MS` doubling with every
 * `WRONG_PASSWORD_LIMIT` more, at most `MAX_PAUSE_MS`.
 */
export function pauseAfterFailure(usernameFailures: number): number {
  if (usernameFailures < SLOWED_FROM_FAILURES) return 0;
  const doublings = Math.floor((usernameFailures - SLOWED_FROM_FAILURES) / WRONG_PASSWORD_LIMIT);
  return Math.min(MAX_PAUSE_MS, FIRST_PAUSE_MS * 2 ** doublings);
}

/**
 * Seconds until the source may try a password for the username again (its `Retry-After`), or undefined when it may
 * now: at the limit, until the username's window ends; below it, while the username is slowed, until the source's
 * pause has passed. A source without failures in the username's open window may always try.
 */
export function retryAfterSeconds({ wrongPasswords, fromSource }: Pick<SignIn, 'wrongPasswords' | 'fromSource'>, now: number) {
  if (wrongPasswords === undefined || wrongPasswords.windowEnds <= now) return undefined;
  // A source counter of an earlier window (the username's ended meanwhile) counts for nothing.
  if (fromSource === undefined || fromSource.windowEnds !== wrongPasswords.windowEnds) return undefined;
  const until =
    fromSource.failures >= WRONG_PASSWORD_LIMIT
      ? wrongPasswords.windowEnds
      : Math.min(wrongPasswords.windowEnds, fromSource.lastFailure + pauseAfterFailure(wrongPasswords.failures));
  return until > now ? Math.ceil((until - now) / 1000) : undefined;
}

/**
 * Counts one wrong password from a source: first for the username (which says which window it falls in), then for
 * the source in that window. Each step is conditional on what it assumes, so a concurrent failure that changed a
 * counter meanwhile makes it decide again; three rounds cover one such race with room to spare.
 */
export async function countWrongPassword(username: string, source: string, now: number): Promise<void> {
  const windowEnds = await countForUsername(username, now);
  if (windowEnds !== undefined) await countForSource(username, source, windowEnds, now);
}

/** One more in the username's open window, or a new window from `now`; the window's end, or undefined if it lost every race. */
async function countForUsername(username: string, now: number): Promise<number | undefined> {
  const key = wrongPasswordsKey(username);
  const windowEnds = now + WRONG_PASSWORD_WINDOW_MS;
  const fresh: WrongPasswords = { failures: 1, windowEnds, expiresAt: Math.ceil(windowEnds / 1000) };
  let counted: number | undefined;
  const addToOpenWindow = async () => {
    const { Attributes } = await updateItem({
      TableName: table(),
      Key: key,
      UpdateExpression: 'ADD failures :one',
      ConditionExpression: 'windowEnds > :now',
      ExpressionAttributeValues: { ':one': 1, ':now': now },
      ReturnValues: 'ALL_NEW',
    });
    counted = (Attributes as WrongPasswords | undefined)?.windowEnds;
  };
  const openWindow = async () => {
    await putItem({
      TableName: table(),
      Item: { ...key, ...fresh },
      ConditionExpression: 'attribute_not_exists(pk) OR windowEnds <= :now',
      ExpressionAttributeValues: { ':now': now },
    });
    counted = windowEnds;
  };
  for (let round = 0; round < 3; round++) {
    if ((await writeIf(addToOpenWindow)) || (await writeIf(openWindow))) return counted;
  }
  return undefined;
}

/** One more for the source in the username's window ending at `windowEnds`, or its first there (an older one replaced). */
async function countForSource(username: string, source: string, windowEnds: number, now: number): Promise<void> {
  const key = sourceWrongPasswordsKey(username, source);
  const fresh: SourceWrongPasswords = { failures: 1, windowEnds, lastFailure: now, expiresAt: Math.ceil(windowEnds / 1000) };
  const addToWindow = () =>
    updateItem({
      TableName: table(),
      Key: key,
      UpdateExpression: 'ADD failures :one SET lastFailure = :now',
      ConditionExpression: 'windowEnds = :ends',
      ExpressionAttributeValues: { ':one': 1, ':now': now, ':ends': windowEnds },
    });
  const openWindow = () =>
    putItem({
      TableName: table(),
      Item: { ...key, ...fresh },
      ConditionExpression: 'attribute_not_exists(pk) OR windowEnds < :ends',
      ExpressionAttributeValues: { ':ends': windowEnds },
    });
  for (let round = 0; round < 3; round++) {
    if ((await writeIf(addToWindow)) || (await writeIf(openWindow))) return;
  }
}

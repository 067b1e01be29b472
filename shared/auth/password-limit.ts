import { table } from '#shared/db/client.ts';
import { putItem, updateItem } from '#shared/db/documents.ts';
import { type Key, type Partition } from '#shared/db/keys.ts';
import { type Item, readPartition } from '#shared/db/reads.ts';
import { writeIf } from '#shared/db/transact.ts';
import { type UserRecord, userKeys, userPk } from './users.ts';

/**
 * Wrong passwords slowed per username (docs/conventions.md §26): after `WRONG_PASSWORD_LIMIT` wrong passwords
 * in a window of `WRONG_PASSWORD_WINDOW_MS` from the first, the username is refused until the window ends,
 * without a password check, the right password too. Counted for unknown usernames alike, so the answers do not
 * tell which usernames exist.
 */
export const WRONG_PASSWORD_LIMIT = 5;
export const WRONG_PASSWORD_WINDOW_MS = 15 * 60_000;

/** A username's wrong passwords in its current window: written only on a wrong password. */
export interface WrongPasswords {
  /** Wrong passwords counted in the window (an atomic ADD, so concurrent ones all count). */
  failures: number;
  /** When the window ends, epoch ms; from then on the counter counts for nothing, whether or not it is deleted yet. */
  windowEnds: number;
  /** DynamoDB TTL (epoch seconds): the item goes some time after its window, so unknown usernames leave nothing behind. */
  expiresAt: number;
}

/**
 * The wrong passwords of a username, known or not, beside its user (expires: `expiresAt`), so one Query of the
 * username's partition reads both.
 */
export const wrongPasswordsKey = (username: string): Key<WrongPasswords> => ({ pk: userPk(username), sk: '#WRONG_PASSWORDS' });
const usernamePartition = (username: string): Partition<UserRecord | WrongPasswords> => ({ pk: userPk(username) });

/** What signing a username in reads: its user (undefined when unknown) and its wrong passwords (undefined when none). */
export interface SignIn {
  user: UserRecord | undefined;
  wrongPasswords: WrongPasswords | undefined;
}

/**
 * The user and its wrong-password counter, in one strongly consistent Query of the username's partition: both items
 * are small, so this costs what the GetItem of the user alone did (one read unit).
 */
export async function readSignIn(username: string): Promise<SignIn> {
  const items = await readPartition(usernamePartition(username));
  const find = <T>(key: Key<T>) => items.find((item) => item.sk === key.sk) as Item<T> | undefined;
  return { user: find(userKeys.user(username)), wrongPasswords: find(wrongPasswordsKey(username)) };
}

/** Seconds until the username may try a password again (its `Retry-After`), or undefined when it may now. */
export function retryAfterSeconds(counter: WrongPasswords | undefined, now: number): number | undefined {
  if (counter === undefined || counter.windowEnds <= now || counter.failures < WRONG_PASSWORD_LIMIT) return undefined;
  return Math.ceil((counter.windowEnds - now) / 1000);
}

/**
 * Counts one wrong password: one more in the open window, or a new window from `now` when there is none or it has
 * ended. Each step is conditional on what it assumes, so a concurrent failure that changed the counter meanwhile
 * makes it decide again; three rounds cover one such race with room to spare.
 */
export async function countWrongPassword(username: string, now: number): Promise<void> {
  const key = wrongPasswordsKey(username);
  const windowEnds = now + WRONG_PASSWORD_WINDOW_MS;
  const fresh: WrongPasswords = { failures: 1, windowEnds, expiresAt: Math.ceil(windowEnds / 1000) };
  const addToOpenWindow = () =>
    updateItem({
      TableName: table(),
      Key: key,
      UpdateExpression: 'ADD failures :one',
      ConditionExpression: 'windowEnds > :now',
      ExpressionAttributeValues: { ':one': 1, ':now': now },
    });
  const openWindow = () =>
    putItem({
      TableName: table(),
      Item: { ...key, ...fresh },
      ConditionExpression: 'attribute_not_exists(pk) OR windowEnds <= :now',
      ExpressionAttributeValues: { ':now': now },
    });
  for (let round = 0; round < 3; round++) {
    if ((await writeIf(addToOpenWindow)) || (await writeIf(openWindow))) return;
  }
}

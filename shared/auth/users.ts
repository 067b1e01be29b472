import { table } from '#shared/db/client.ts';
import { type Key, partitionOf } from '#shared/db/keys.ts';
import { readItem, readItems, readPartition } from '#shared/db/reads.ts';
import { createRevised, deleteRevised, updateRevised } from '#shared/db/revisions.ts';
import { put, reference, type Step, transact } from '#shared/db/transact.ts';
import { referenceNotFound, versionConflict } from '#shared/errors.ts';
import { hashPassword } from './passwords.ts';
import type { Role } from './principal.ts';
import { vendorKeys } from '#shared/domain/records.ts';

/** A user as stored: the canonical model behind every version's User view. */
export interface UserRecord {
  username: string;
  email: string;
  role: Role;
  softwareVendor: number | null;
  passwordHash: string;
  /** Sellers a regular user is connected to. */
  sellers: string[];
  /** Rises with every change (`shared/db/revised.ts`); a write commits only over the revision it read. */
  revision: number;
}

/**
 * What the directory of users (partition USERS) keeps per user, written in the same transaction
 * as the user: enough to list, search and page users with one Query.
 */
export interface UserEntry {
  username: string;
  email: string;
  role: Role;
  softwareVendor: number | null;
}

/** A username's partition: its user, if any, and its wrong-password counter, if any (shared/auth/password-limit.ts). */
export const userPk = (username: string) => `U#${username}`;

export const userKeys = {
  user: (username: string): Key<UserRecord> => ({ pk: userPk(username), sk: '#USER' }),
  directoryEntry: (username: string): Key<UserEntry> => ({ pk: 'USERS', sk: username }),
  directory: partitionOf<UserEntry>('USERS'),
} as const;

/** A user to create: its password in clear, hashed here. */
export type NewUser = Omit<UserRecord, 'passwordHash' | 'revision'> & { password: string };

/** What an update may change; a `password` in clear is hashed here. */
export type UserChanges = Partial<Pick<UserRecord, 'email' | 'role' | 'softwareVendor' | 'sellers'>> & { password?: string };

/** The user of that name (one strongly consistent GetItem); undefined when there is none. */
export async function getUser(username: string): Promise<UserRecord | undefined> {
  return readItem(userKeys.user(username));
}

/** The directory of users, in username order: one Query of the USERS partition. */
export async function listUserEntries(): Promise<UserEntry[]> {
  return readPartition(userKeys.directory);
}

/** The users of these names (strongly consistent BatchGets), in the given order; unknown names are left out. */
export async function readUsers(usernames: readonly string[]): Promise<UserRecord[]> {
  return readItems(usernames.map((username) => userKeys.user(username)));
}

/**
 * Creates the user unless one of that name exists; true when it was created. The user, its
 * directory entry and a reference to its software vendor commit together, so a referenced vendor
 * cannot be deleted (SOFTWARE_VENDOR_HAS_REFERENCED_DATA). An unknown vendor: 404 ReferenceNotFound.
 */
export async function createUserIfAbsent(user: NewUser): Promise<boolean> {
  const { password, ...rest } = user;
  const record = { ...rest, passwordHash: await hashPassword(password) };
  const taken = versionConflict(`User ${user.username} exists already`);
  try {
    await transact([
      createRevised({ ...userKeys.user(user.username), ...record }, () => taken),
      directoryPut(record),
      ...vendorMove(null, record.softwareVendor),
    ]);
    return true;
  } catch (error) {
    if (error === taken) return false;
    throw error;
  }
}

/**
 * Applies `changes` to a user read before: one transaction over the user (refused with 409
 * VersionConflict when it changed meanwhile), its directory entry when that changes, and the
 * move of the vendor reference (-1 old, +1 new; an unknown new vendor is 404 ReferenceNotFound).
 */
export async function saveUser(current: UserRecord, changes: UserChanges): Promise<void> {
  const { password, ...fields } = changes;
  await transact(
    userUpdateSteps(current, { ...fields, ...(password === undefined ? {} : { passwordHash: await hashPassword(password) }) }),
  );
}

/**
 * The steps of a change to a user read before: the user at the revision read, its directory entry
 * only when a listed field changes, and the move of its vendor reference.
 */
export function userUpdateSteps(current: UserRecord, set: Partial<Omit<UserRecord, 'username' | 'revision'>>): Step[] {
  const next = { ...current, ...set };
  const entryChanged = JSON.stringify(entryOf(next)) !== JSON.stringify(entryOf(current));
  return [
    updateRevised(userKeys.user(current.username), set, current.revision),
    ...(entryChanged ? [directoryPut(next)] : []),
    ...vendorMove(current.softwareVendor, next.softwareVendor),
  ];
}

/** Deletes a user read before, with its directory entry and its vendor reference (409 when it changed meanwhile). */
export async function removeUser(current: UserRecord): Promise<void> {
  await transact([
    deleteRevised(userKeys.user(current.username), current.revision),
    { write: { Delete: { TableName: table(), Key: userKeys.directoryEntry(current.username) } } },
    ...vendorMove(current.softwareVendor, null),
  ]);
}

const vendorMissing = (id: number) => () => referenceNotFound(`Software vendor ${id} does not exist`);

const entryOf = ({ username, email, role, softwareVendor }: UserEntry): UserEntry => ({ username, email, role, softwareVendor });
const directoryPut = (user: UserEntry): Step => put({ ...userKeys.directoryEntry(user.username), ...entryOf(user) });

/** The reference counts a change of vendor moves: one fewer on the old vendor, one more on the new. */
function vendorMove(before: number | null, after: number | null): Step[] {
  if (before === after) return [];
  return [
    ...(before === null ? [] : [reference(vendorKeys.vendor(before), vendorMissing(before), -1)]),
    ...(after === null ? [] : [reference(vendorKeys.vendor(after), vendorMissing(after))]),
  ];
}

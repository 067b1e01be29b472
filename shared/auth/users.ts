import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';
import { readItem } from '#shared/db/versioned.ts';
import { hashPassword } from './passwords.ts';
import type { Role } from './principal.ts';

/** A user as stored: the canonical model behind every version's User view. */
export interface UserRecord {
  username: string;
  email: string;
  role: Role;
  softwareVendor: number | null;
  passwordHash: string;
  /** Sellers a regular user is connected to. */
  sellers: string[];
}

export async function getUser(username: string): Promise<UserRecord | undefined> {
  return readItem<UserRecord>(keys.user(username));
}

/** Creates the user unless one of that name exists; true when it was created. */
export async function createUserIfAbsent(user: Omit<UserRecord, 'passwordHash'> & { password: string }): Promise<boolean> {
  const { password, ...rest } = user;
  const record: UserRecord = { ...rest, passwordHash: await hashPassword(password) };
  try {
    await db().send(
      new PutCommand({
        TableName: table(),
        Item: { ...keys.user(user.username), ...record },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof Error && error.name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}

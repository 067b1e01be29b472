import { createHash, randomBytes } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';
import { readItem } from '#shared/db/versioned.ts';

/** What an API key opens: one activation of one register. Only the key's hash is stored. */
export interface ApiKeyRecord {
  activationId: number;
  sellerId: string;
  status: 'ISSUED' | 'ACTIVE' | 'WORKING' | 'CLOSED';
  validFrom: number;
  validTo: number;
  features: string[];
}

/** SHA-256 is enough for a key with 192 random bits: there is nothing to guess, only to look up. */
export const hashApiKey = (apiKey: string) => createHash('sha256').update(apiKey).digest('hex');

/** A new key (192 random bits, base64url, 32 characters); the caller shows it once. */
export const newApiKey = () => randomBytes(24).toString('base64url');

/** The record behind a presented key: one GetItem on the key's hash. */
export function findApiKey(apiKey: string) {
  return readItem<ApiKeyRecord>(keys.apiKey(hashApiKey(apiKey)));
}

export async function storeApiKey(apiKey: string, record: ApiKeyRecord): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: table(),
      Item: { ...keys.apiKey(hashApiKey(apiKey)), ...record },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

import { hash, randomBytes } from 'node:crypto';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { table } from '#shared/db/client.ts';
import { putItem, transactWrite } from '#shared/db/documents.ts';
import type { Key } from '#shared/db/keys.ts';
import { type ActivationStatus, activationKeys } from '#shared/domain/records.ts';
import type { Feature } from './features.ts';

/**
 * What an API key opens: one activation of one register. Only the key's hash is stored; the
 * activation's state, period and features are copied here (and kept in step with every change of
 * the activation) so that authenticating a register is a single GetItem.
 */
export interface ApiKeyRecord {
  activationId: number;
  sellerId: string;
  /** The register the activation is for: a register writes only its own `{cash}` (docs/conventions.md §14). */
  cashRegisterName: string;
  status: ActivationStatus;
  validFrom: number;
  validTo: number;
  features: Feature[];
}

/** The record behind a key, by the key's hash. */
export const apiKeyKey = (hash: string): Key<ApiKeyRecord> => ({ pk: `K#${hash}`, sk: '#KEY' });

/**
 * SHA-256 is enough for a key with 192 random bits: there is nothing to guess, only to look up. One-shot `hash`, as a
 * register's every request hashes its key: a Hash object of its own took three times the digest's CPU.
 */
export const hashApiKey = (apiKey: string) => hash('sha256', apiKey, 'hex');

/**
 * A new key: 192 random bits, base64url, 32 characters (the v26 activationSecurityToken may have
 * at most 33). The caller shows it once.
 */
export const newApiKey = () => randomBytes(24).toString('base64url');

/** The item of the record behind a presented key, keyed by the key's hash: a request hashes its key here, once. */
export const apiKeyItem = (apiKey: string) => apiKeyKey(hashApiKey(apiKey));

export async function storeApiKey(apiKey: string, record: ApiKeyRecord): Promise<void> {
  await putItem({
    TableName: table(),
    Item: { ...apiKeyKey(hashApiKey(apiKey)), ...record },
    ConditionExpression: 'attribute_not_exists(pk)',
  });
}

/**
 * ACTIVE -> WORKING at the register's first authenticated call (docs/conventions.md §10), on the key's item
 * (`apiKeyItem`) and the activation together. A concurrent first call, or a close in between, makes it a no-op.
 */
export async function markWorking(keyItem: { pk: string; sk: string }, activationId: number, now: number): Promise<void> {
  const update = (key: { pk: string; sk: string }, extra = '') => ({
    Update: {
      TableName: table(),
      Key: key,
      UpdateExpression: `SET #status = :working${extra}`,
      ConditionExpression: '#status = :active',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':working': 'WORKING', ':active': 'ACTIVE', ...(extra ? { ':now': now } : {}) },
    },
  });
  try {
    await transactWrite({
      TransactItems: [update(keyItem), update(activationKeys.activation(activationId), ', issued = :now')],
    });
  } catch (error) {
    if (!(error instanceof TransactionCanceledException)) throw error;
  }
}

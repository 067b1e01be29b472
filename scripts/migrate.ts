/**
 * `npm run migrate -- --stage <stage> [--region <region>]`: brings the items of a deployed stage's table
 * up to what the current code expects. Every migration is idempotent (it changes only items that lack
 * what it adds, each change conditioned on that), so running it twice, or after a partial run, is safe.
 * Run it after every deploy (docs/operations.md). A Scan is fine here: this never runs on a request path.
 */
import { parseArgs } from 'node:util';
import { ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';
import { readItem } from '#shared/db/reads.ts';
import { writeIf } from '#shared/db/transact.ts';

interface Migration {
  name: string;
  /** Changes what needs changing; answers how many items it changed. */
  run(): Promise<number>;
}

/** API keys stored before keys named their register get the register of their activation. */
const apiKeysNameTheirRegister: Migration = {
  name: 'api-keys-name-their-register',
  async run() {
    // Every API key item: its partition key is this prefix and the key's hash (`shared/db/keys.ts`).
    const { pk: prefix, sk } = keys.apiKey('');
    let changed = 0;
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await db().send(
        new ScanCommand({
          TableName: table(),
          FilterExpression: 'begins_with(pk, :key) AND sk = :sk AND attribute_not_exists(cashRegisterName)',
          ExpressionAttributeValues: { ':key': prefix, ':sk': sk },
          ProjectionExpression: 'pk, sk, activationId',
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of (page.Items ?? []) as { pk: string; sk: string; activationId: number }[]) {
        const activation = await readItem(keys.activation(item.activationId));
        if (activation && (await setRegister(item, activation.cashRegisterName))) changed++;
      }
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return changed;
  },
};

const setRegister = (key: { pk: string; sk: string }, cashRegisterName: string): Promise<boolean> =>
  writeIf(
    new UpdateCommand({
      TableName: table(),
      Key: { pk: key.pk, sk: key.sk },
      UpdateExpression: 'SET cashRegisterName = :name',
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(cashRegisterName)',
      ExpressionAttributeValues: { ':name': cashRegisterName },
    }),
  );

/** Every migration, oldest first. */
export const migrations: readonly Migration[] = [apiKeysNameTheirRegister];

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { stage: { type: 'string' }, region: { type: 'string' } } });
  if (!values.stage || !/^[a-zA-Z0-9-]+$/.test(values.stage)) {
    console.error('usage: npm run migrate -- --stage <stage> [--region <region>]');
    process.exit(2);
  }
  process.env.TABLE_NAME = `cash-register-${values.stage}`;
  if (values.region) process.env.AWS_REGION = values.region;
  for (const migration of migrations) console.log(`${migration.name}: ${await migration.run()} items changed`);
}

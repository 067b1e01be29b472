/**
 * `npm run migrate -- --stage <stage> [--region <region>] [--copy-from <table>] [--table <table>]`: brings the items of
 * a deployed stage's table (`--table` names another) up to what the current code expects. Every migration is
 * idempotent (it changes only items that lack what it adds, each change conditioned on that), so running it twice, or
 * after a partial run, is safe. Run it after every deploy (docs/operations.md). With `--copy-from`, first every item of
 * a first-generation table is copied into the stage's table in the second generation's layout
 * (scripts/migrate/second-generation.ts), and the copy is checked complete. A Scan is fine here: this never runs on a
 * request path.
 */
import { parseArgs } from 'node:util';
import { copyToSecondGeneration, missingInSecondGeneration } from './migrate/second-generation.ts';
import { stageTable } from './stage.ts';
import { table } from '#shared/db/client.ts';
import { scanItems, updateItem } from '#shared/db/documents.ts';
import { type Item, readItem } from '#shared/db/reads.ts';
import { create, putIfAbsent, reference, transact, writeIf } from '#shared/db/transact.ts';
import { type ControlUnit, activationKeys, controlUnitKeys } from '#shared/domain/records.ts';
import { referenceNotFound, versionConflict } from '#shared/errors.ts';
import { rateOf, vatIn } from '#functions/kd/mapping.ts';
import { apiKeyKey } from '#shared/auth/api-keys.ts';
import { KD_LOG_PREFIX } from '#shared/kd/records.ts';

interface Migration {
  name: string;
  /** Changes what needs changing; answers how many items it changed. */
  run(): Promise<number>;
}

/** Calls `each` for every item the filter keeps (a Scan, page after page); answers how many `each` changed. */
async function scanEach<T>(
  scan: { FilterExpression: string; ExpressionAttributeValues: Record<string, unknown>; ProjectionExpression?: string },
  each: (item: T) => Promise<boolean>,
): Promise<number> {
  let changed = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await scanItems({ TableName: table(), ...scan, ExclusiveStartKey: startKey });
    for (const item of (page.Items ?? []) as T[]) if (await each(item)) changed++;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return changed;
}

/** API keys stored before keys named their register get the register of their activation. */
const apiKeysNameTheirRegister: Migration = {
  name: 'api-keys-name-their-register',
  run() {
    // Every API key item: its partition key is this prefix and the key's hash (`apiKeyKey`).
    const { pk: prefix, sk } = apiKeyKey('');
    return scanEach<{ pk: string; sk: string; activationId: number }>(
      {
        FilterExpression: 'begins_with(pk, :key) AND sk = :sk AND attribute_not_exists(cashRegisterName)',
        ExpressionAttributeValues: { ':key': prefix, ':sk': sk },
        ProjectionExpression: 'pk, sk, activationId',
      },
      async (item) => {
        const activation = await readItem(activationKeys.activation(item.activationId));
        return activation !== undefined && (await setRegister(item, activation.cashRegisterName));
      },
    );
  },
};

/** Control units registered before the unit directories get their entries (docs/conventions.md §23). */
const controlUnitsListed: Migration = {
  name: 'control-units-listed',
  run() {
    const { pk: unitPrefix, sk } = controlUnitKeys.unit('');
    return scanEach<Item<ControlUnit>>(
      { FilterExpression: 'begins_with(pk, :unit) AND sk = :sk', ExpressionAttributeValues: { ':unit': unitPrefix, ':sk': sk } },
      async ({ pk: _pk, sk: _sk, refs: _refs, ...unit }) => {
        const entries = [controlUnitKeys.directoryEntry(unit.serial)];
        if (unit.softwareVendor !== null) entries.push(controlUnitKeys.directoryEntry(unit.serial, unit.softwareVendor));
        const written = await Promise.all(entries.map((entry) => putIfAbsent({ ...entry, ...unit })));
        return written.includes(true);
      },
    );
  },
};

/**
 * Activations stored before activations counted on their control unit: each gets its item in the unit's
 * partition and one more count on the unit, together, once (the item's absence is the transaction's condition).
 */
const activationsCountOnTheirUnit: Migration = {
  name: 'activations-count-on-their-unit',
  run() {
    const { sk } = activationKeys.activation(0);
    return scanEach<{ id: number; controlUnitSerial: string }>(
      {
        FilterExpression: 'sk = :sk AND attribute_type(controlUnitSerial, :string)',
        ExpressionAttributeValues: { ':sk': sk, ':string': 'S' },
        ProjectionExpression: 'id, controlUnitSerial',
      },
      async ({ id, controlUnitSerial }) => {
        const counted = versionConflict(`Activation ${id} counts on its control unit already`);
        try {
          await transact([
            create({ ...controlUnitKeys.activation(controlUnitSerial, id), activationId: id }, () => counted),
            // A unit missing under an activation stops the migration: that is a fault to look at, not to skip.
            reference(controlUnitKeys.unit(controlUnitSerial), () =>
              referenceNotFound(`Control unit ${controlUnitSerial} is missing`),
            ),
          ]);
          return true;
        } catch (error) {
          if (error === counted) return false;
          throw error;
        }
      },
    );
  },
};

/**
 * Kd log records written while `vatRateToSum` held the gross per rate get the VAT per rate the unit registered
 * (docs/conventions.md §25). Such a record's values sum to its `brutto`; VAT amounts never do on a brutto above 0 (a
 * kd's VAT must fit its brutto), so the rule finds exactly the old records and a second run changes none. Each
 * directory's copy is changed on its own, conditioned on the map it was read with.
 */
const kdLogHoldsVat: Migration = {
  name: 'kd-log-holds-vat',
  run() {
    return scanEach<{ pk: string; sk: string; brutto: number; vatRateToSum: Record<string, number> }>(
      {
        FilterExpression: 'begins_with(pk, :log) AND begins_with(sk, :record) AND brutto > :zero',
        ExpressionAttributeValues: { ':log': 'KDLOG', ':record': KD_LOG_PREFIX, ':zero': 0 },
        ProjectionExpression: 'pk, sk, brutto, vatRateToSum',
      },
      (record) => {
        const grosses = Object.entries(record.vatRateToSum);
        if (grosses.reduce((sum, [, gross]) => sum + gross, 0) !== record.brutto) return Promise.resolve(false);
        const vat = Object.fromEntries(grosses.map(([key, gross]) => [key, vatIn(gross, rateOf(key))]));
        return writeIf(() =>
          updateItem({
            TableName: table(),
            Key: { pk: record.pk, sk: record.sk },
            UpdateExpression: 'SET vatRateToSum = :vat',
            ConditionExpression: 'vatRateToSum = :gross',
            ExpressionAttributeValues: { ':vat': vat, ':gross': record.vatRateToSum },
          }),
        );
      },
    );
  },
};

const setRegister = (key: { pk: string; sk: string }, cashRegisterName: string): Promise<boolean> =>
  writeIf(() =>
    updateItem({
      TableName: table(),
      Key: { pk: key.pk, sk: key.sk },
      UpdateExpression: 'SET cashRegisterName = :name',
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(cashRegisterName)',
      ExpressionAttributeValues: { ':name': cashRegisterName },
    }),
  );

/** Every migration, oldest first. */
export const migrations: readonly Migration[] = [
  apiKeysNameTheirRegister,
  controlUnitsListed,
  activationsCountOnTheirUnit,
  kdLogHoldsVat,
];

const usage =
  'usage: npm run migrate -- --stage <stage> [--region <region>] [--copy-from <first-generation table>] [--table <table>]';

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      stage: { type: 'string' },
      region: { type: 'string' },
      table: { type: 'string' },
      'copy-from': { type: 'string' },
    },
  });
  const named = /^[a-zA-Z0-9_.-]+$/;
  const source = values['copy-from'];
  if (
    !values.stage ||
    !/^[a-zA-Z0-9-]+$/.test(values.stage) ||
    (values.table !== undefined && !named.test(values.table)) ||
    (source !== undefined && !named.test(source))
  ) {
    console.error(usage);
    process.exit(2);
  }
  const target = values.table ?? stageTable(values.stage);
  if (source === target) {
    console.error(`--copy-from names the stage's own table ${target}: the copy goes into a table of its own`);
    process.exit(2);
  }
  process.env.TABLE_NAME = target;
  if (values.region) process.env.AWS_REGION = values.region;
  if (source !== undefined) {
    const copy = await copyToSecondGeneration(source, target);
    console.log(
      `copy ${source} -> ${target}: ${copy.read} items read, ${copy.written} written, ${copy.hourMarkers} journal hour markers`,
    );
    const missing = await missingInSecondGeneration(source, target);
    if (missing.length > 0) {
      console.error(`${target} lacks ${missing.length} items of the copy, e.g. ${JSON.stringify(missing.slice(0, 5))}`);
      process.exit(1);
    }
    console.log(`check: every item of ${source} is in ${target}`);
  }
  for (const migration of migrations) console.log(`${migration.name}: ${await migration.run()} items changed`);
}

/**
 * `npm run migrate -- --copy-from`: a table written by main 2d02b68 (tests/fixtures/legacy-2d02b68: two sellers of a
 * vendor, registers on units of their own, signed receipts, a copy, closed days, printed Z reports, a tombstone) is
 * loaded into a table of that code's layout (its two LSIs), copied into a table of today's layout, and today's functions
 * answer on the copy every read that code answered on the original: diffs of every version, journals and their chains,
 * receipts, Z reports, the SKVFS export, Kd log pages and statistics. The expected answers were recorded from the old
 * code (tests/fixtures/legacy-2d02b68/record.ts), so the check shares nothing with the code under test.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  type AttributeValue,
  CreateTableCommand,
  type CreateTableCommandInput,
  DescribeTableCommand,
  ScanCommand,
} from '@aws-sdk/client-dynamodb';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { ensureTable, localClient } from '#infra/local/dynamodb.ts';
import { fromAttributes } from '#shared/db/attributes.ts';
import { putInBulk } from '#shared/db/documents.ts';
import { ensureLocalSigningKey } from '#shared/signing/local-signer.ts';
import { root } from '../../scripts/build.ts';
import { callInProcess, loadedGroups, routedGroups } from '../support/in-process.ts';

const FIXTURE = new URL('../fixtures/legacy-2d02b68/', import.meta.url);
const fixture = <T>(name: string): T => JSON.parse(readFileSync(new URL(name, FIXTURE), 'utf8')) as T;

interface Recorded {
  method: string;
  path: string;
  as: { basic: [string, string] } | { apiKey: string };
  accept: string;
  status: number;
  contentType: string;
  text: string;
}

const suffix = randomUUID().slice(0, 8);
const legacy = `legacy-${suffix}`;
const migrated = `migrated-${suffix}`;

// The functions of this process read the migrated table: set before their first call (tests/support/in-process.ts).
const keyDir = mkdtempSync(join(tmpdir(), 'migrate-layout-'));
Object.assign(process.env, {
  TABLE_NAME: migrated,
  ACTIVATION_SIGNER: 'local',
  ACTIVATION_KEY_FILE: join(keyDir, 'activation-signing-key.pem'),
  IMAGE_STORE: 'local',
  IMAGE_DIR: join(keyDir, 'images'),
  LOG_REQUESTS: 'false',
});
ensureLocalSigningKey(join(keyDir, 'activation-signing-key.pem'));

const client = () => localClient(inject('dynamoEndpoint'));

let migration: string;
beforeAll(async () => {
  const definition =
    fixture<Pick<CreateTableCommandInput, 'KeySchema' | 'AttributeDefinitions' | 'LocalSecondaryIndexes'>>('table.json');
  await client().send(new CreateTableCommand({ TableName: legacy, BillingMode: 'PAY_PER_REQUEST', ...definition }));
  await putInBulk(
    legacy,
    fixture<Record<string, AttributeValue>[]>('items.json').map((item) => fromAttributes(item)),
  );
  await ensureTable(inject('dynamoEndpoint'), migrated);
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['scripts/migrate.ts', '--stage', 'local', '--table', migrated, '--copy-from', legacy],
    { cwd: root, env: { ...process.env, DYNAMODB_ENDPOINT: inject('dynamoEndpoint') } },
  );
  migration = stdout;
}, 300_000);

/** The answer's parts that say when it was made or who signed it, which a later read makes anew. */
function comparable(answer: { contentType: string; text: string }, path: string): unknown {
  if (answer.contentType.startsWith('application/xml')) {
    // The export's two time stamps (when it was made, and so the end of a period without `to`), not the journal's.
    return answer.text.replace(
      /<(TidpunktForNarExportAvDataFranJournalminnetSker|ValdSluttidpunktForExportAvDataFranJournalminnet)>[^<]*</g,
      '<$1>…<',
    );
  }
  if (!answer.contentType.startsWith('application/json'))
    return answer.text.replace(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?/g, '…');
  const body = JSON.parse(answer.text) as unknown;
  if (path.includes('/generated-e-journals/')) {
    const { signature: _signature, publicKeyFileName: _key, generated: _generated, ...rest } = body as Record<string, unknown>;
    return rest;
  }
  if (/\/days\/\d+\/report/.test(path)) {
    const { produced: _produced, ...rest } = body as Record<string, unknown>;
    return rest;
  }
  return body;
}

describe('the layout migration', () => {
  it('loads every function group serverless.yml routes to', () => {
    expect(loadedGroups().toSorted()).toEqual(expect.arrayContaining(routedGroups().filter((group) => group !== 'maintenance')));
  });

  it('copies the whole table, checked complete, and runs the item migrations after it', () => {
    expect(migration).toMatch(/^copy legacy-\w+ -> migrated-\w+: \d+ items read, \d+ written, \d+ journal hour markers$/m);
    expect(migration).toContain(`check: every item of ${legacy} is in ${migrated}`);
  });

  it('leaves no index on the new table, and the old one as it was', async () => {
    const described = await client().send(new DescribeTableCommand({ TableName: migrated }));
    expect(described.Table?.LocalSecondaryIndexes).toBeUndefined();
    const { Count } = await client().send(new ScanCommand({ TableName: legacy, Select: 'COUNT' }));
    expect(Count).toBe(fixture<unknown[]>('items.json').length);
  });

  const { answers } = fixture<{ answers: Recorded[] }>('answers.json');
  it.each(answers.map((answer) => [`${answer.path} (${answer.accept})`, answer] as const))(
    'answers %s as the old code did',
    async (_, recorded) => {
      const headers: Record<string, string> = { Accept: recorded.accept };
      if ('basic' in recorded.as) headers.Authorization = `Basic ${Buffer.from(recorded.as.basic.join(':')).toString('base64')}`;
      else headers['X-Api-Key'] = recorded.as.apiKey;
      const answer = await callInProcess(recorded.method, recorded.path, headers);
      expect([answer.status, answer.contentType]).toEqual([recorded.status, recorded.contentType]);
      expect(comparable(answer, recorded.path)).toEqual(comparable(recorded, recorded.path));
    },
  );
});

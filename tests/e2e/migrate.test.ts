/** `npm run migrate`: API keys stored before keys named their register, brought up to date against the local table. */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { hashApiKey } from '#shared/auth/api-keys.ts';
import { db, table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';
import { readItem } from '#shared/db/reads.ts';
import { root } from '../../scripts/build.ts';
import { expectError, v } from '../support/http.ts';
import { DAY, newApp, newVendor, swedishCorporateId } from '../support/identity.ts';

const migrate = () =>
  promisify(execFile)(process.execPath, ['scripts/migrate.ts', '--stage', 'local'], {
    cwd: root,
    env: { ...process.env, DYNAMODB_ENDPOINT: inject('dynamoEndpoint') },
  }).then(({ stdout }) => stdout);

let app: { applicationPackage: string };
beforeAll(async () => {
  app = await newApp(await newVendor(), { controlUnitRequired: false, autoActivationCondition: 'ALWAYS' });
});

/** A register activated today, whose API key item is then made to look like one stored before the migration. */
async function legacyRegister(cashRegisterName: string) {
  const corporateId = swedishCorporateId();
  const answer = await v(33).post('/activations-advanced', {
    country: 'SE',
    corporateId,
    companyName: 'Migreringsbutiken',
    cashRegisterName,
    features: [],
    validFrom: Date.now() - DAY,
    validTo: Date.now() + DAY,
    applicationPackage: app.applicationPackage,
    installationCreationInfo: { deviceId: `dev-${randomUUID().slice(0, 8)}` },
  });
  if (answer.status !== 201) throw new Error(answer.text);
  const { apiKey } = answer.body as { apiKey: string };
  const key = keys.apiKey(hashApiKey(apiKey));
  await db().send(
    new UpdateCommand({ TableName: table(), Key: { pk: key.pk, sk: key.sk }, UpdateExpression: 'REMOVE cashRegisterName' }),
  );
  return { apiKey, key, sellerId: `SE${corporateId}` };
}

describe('npm run migrate', () => {
  it('gives a key stored before keys named their register its register; a second run changes nothing', async () => {
    const legacy = await legacyRegister(`Kassa ${randomUUID().slice(0, 4)}`);
    expectError(
      await v(33).get(`/${legacy.sellerId}/taxes`, { as: { apiKey: legacy.apiKey } }),
      403,
      'Forbidden',
      'AUTHORIZATION_DATA_IS_NOT_VALID',
    );

    const first = await migrate();
    const second = await migrate();

    expect(first).toMatch(/^api-keys-name-their-register: [1-9]\d* items changed$/m);
    expect(second).toBe('api-keys-name-their-register: 0 items changed\n');
    const item = await readItem(legacy.key);
    const activation = await readItem(keys.activation(item?.activationId ?? -1));
    expect(item?.cashRegisterName).toBe(activation?.cashRegisterName);
    expect((await v(33).get(`/${legacy.sellerId}/taxes`, { as: { apiKey: legacy.apiKey } })).status).toBe(200);
  });
});

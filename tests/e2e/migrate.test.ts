/** `npm run migrate`: items stored by earlier code (keys, unit directories and counts, Kd log amounts) brought up to date. */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { hashApiKey, apiKeyKey } from '#shared/auth/api-keys.ts';
import { table } from '#shared/db/client.ts';
import { deleteItem, putItem, updateItem } from '#shared/db/documents.ts';
import { readItem } from '#shared/db/reads.ts';
import { type KdLogRecord, kdKeys } from '#shared/kd/records.ts';
import { root } from '../../scripts/build.ts';
import { expectError, v } from '../support/http.ts';
import { DAY, newApp, newVendor, swedishCorporateId } from '../support/identity.ts';
import { activationKeys, controlUnitKeys } from '#shared/domain/records.ts';

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
  const key = apiKeyKey(hashApiKey(apiKey));
  await updateItem({ TableName: table(), Key: { pk: key.pk, sk: key.sk }, UpdateExpression: 'REMOVE cashRegisterName' });
  return { apiKey, key, sellerId: `SE${corporateId}` };
}

/**
 * Each run scans the whole table three times, and the other test files share and fill it (a day of 20,000 products
 * among them) while it runs: on 2 busy cores the two tests took 265 s together. A bound for the slowest machine, not
 * a measure.
 */
const SCANS_OF_THE_SHARED_TABLE = 600_000;

describe('npm run migrate', () => {
  it(
    'gives a key stored before keys named their register its register; a second run changes nothing',
    async () => {
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
      expect(second).toBe(
        'api-keys-name-their-register: 0 items changed\ncontrol-units-listed: 0 items changed\nactivations-count-on-their-unit: 0 items changed\nkd-log-holds-vat: 0 items changed\n',
      );
      const item = await readItem(legacy.key);
      const activation = await readItem(activationKeys.activation(item?.activationId ?? -1));
      expect(item?.cashRegisterName).toBe(activation?.cashRegisterName);
      expect((await v(33).get(`/${legacy.sellerId}/taxes`, { as: { apiKey: legacy.apiKey } })).status).toBe(200);
    },
    SCANS_OF_THE_SHARED_TABLE,
  );

  it(
    'lists control units registered before the unit directories, counts activations stored before they counted on their unit, and gives old Kd log records the VAT per rate',
    async () => {
      // Prepare: a unit activated today, then made to look as it was stored before: no directory entries, no count.
      const cuApp = await newApp(await newVendor(), { controlUnitRequired: true, autoActivationCondition: 'NEVER' });
      const serial = `MG${randomUUID().replace(/-/g, '').slice(0, 12).toUpperCase()}`;
      const answer = await v(33).post('/activations-advanced', {
        country: 'SE',
        corporateId: swedishCorporateId(),
        companyName: 'Migreringsbutiken',
        cashRegisterName: 'Kassa CU',
        features: [],
        validFrom: Date.now() - DAY,
        validTo: Date.now() + DAY,
        applicationPackage: cuApp.applicationPackage,
        controlUnitSerial: serial,
        controlUnitGeolocation: { city: 'Lund', postalCode: '222 22' },
        installationCreationInfo: { deviceId: `dev-${randomUUID().slice(0, 8)}` },
      });
      if (answer.status !== 201) throw new Error(answer.text);
      const { activationId } = answer.body as { activationId: number };
      const unit = await readItem(controlUnitKeys.unit(serial));
      const remove = (key: { pk: string; sk: string }) => deleteItem({ TableName: table(), Key: { pk: key.pk, sk: key.sk } });
      await Promise.all([
        remove(controlUnitKeys.activation(serial, activationId)),
        remove(controlUnitKeys.directoryEntry(serial)),
        remove(controlUnitKeys.directoryEntry(serial, unit?.softwareVendor ?? -1)),
        updateItem({ TableName: table(), Key: controlUnitKeys.unit(serial), UpdateExpression: 'REMOVE refs' }),
      ]);
      const listed = async () =>
        ((await v(33).get('/control-units?maxResults=1000&like=' + serial)).body as { serial: string }[]).map(
          (item) => item.serial,
        );
      const unlisted = await listed();
      // A Kd log record of the unit as it was written while vatRateToSum held the gross per rate, and one written since.
      const logged = (id: string, brutto: number, vatRateToSum: Record<string, number>): KdLogRecord => ({
        ...kdKeys.log({ serial }, Date.UTC(2026, 0, 2), id),
        id,
        activation: activationId,
        brutto,
        kdDate: Date.UTC(2026, 0, 2),
        vatRateToSum,
        receiptNumber: 1,
        printType: 'Normal',
        refund: false,
        errorMessage: null,
        errorStackTrace: null,
        sellerId: 'SE5560360793',
        cashRegisterName: 'Kassa CU',
        controlUnitSerial: serial,
        softwareVendor: unit?.softwareVendor ?? null,
        correlationId: id,
        outcome: 'SIGNED',
        returnCode: 0,
        response: 'CODE',
        created: Date.UTC(2026, 0, 2),
      });
      const older = logged('older', 24100, { '25': 12500, '12': 11200, '0': 400 });
      const newer = logged('newer', 13140, { '6': 300, '12': 840 });
      await Promise.all([older, newer].map((Item) => putItem({ TableName: table(), Item })));

      // Act
      const first = await migrate();
      const second = await migrate();

      // Assess
      expect(unlisted).toEqual([]);
      expect(first).toMatch(/^control-units-listed: [1-9]\d* items changed$/m);
      expect(first).toMatch(/^activations-count-on-their-unit: [1-9]\d* items changed$/m);
      expect(second).toMatch(/^control-units-listed: 0 items changed$/m);
      expect(await listed()).toEqual([serial]);
      expect((await readItem(controlUnitKeys.unit(serial)))?.refs).toBe(1);
      expectError(await v(33).del(`/control-units/${serial}`), 422, 'UnprocessableEntity', 'CU_HAS_REFERENCED_DATA');
      // By hand: 125.00 at 25 % holds 25.00 of VAT, 112.00 at 12 % holds 12.00; the record written since is kept.
      expect(first).toMatch(/^kd-log-holds-vat: [1-9]\d* items changed$/m);
      expect(second).toMatch(/^kd-log-holds-vat: 0 items changed$/m);
      expect((await readItem(kdKeys.log({ serial }, older.kdDate, 'older')))?.vatRateToSum).toEqual({
        '25': 2500,
        '12': 1200,
        '0': 0,
      });
      expect((await readItem(kdKeys.log({ serial }, newer.kdDate, 'newer')))?.vatRateToSum).toEqual({ '6': 300, '12': 840 });
    },
    SCANS_OF_THE_SHARED_TABLE,
  );
});

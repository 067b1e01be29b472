/** A seller's records (restaurant, hairdresser): what a PUT or DELETE commits, decided on the record as read. */
import { describe, expect, it } from 'vitest';
import { hairdressers } from '#functions/restaurants/hairdressers.ts';
import { decideRecordDelete, decideRecordPut, type RecordWrite } from '#functions/restaurants/records.ts';
import { restaurants } from '#functions/restaurants/restaurants.ts';
import type { Revised } from '#shared/db/revisions.ts';
import type { Hairdresser, Restaurant } from '#shared/domain/records.ts';
import { preconditions } from '#shared/http/conditions.ts';
import { refusal, stepOf, stepRefusal } from '../support/decisions.ts';

const SELLER = 'SE5560360793';
const PK = `S#${SELLER}`;

const restaurant: Restaurant = {
  country: 'SE',
  corporateId: '5560360793',
  name: 'Kaffebaren',
  city: 'Lund',
  address: 'Storgatan 1',
  phone: '+4646123456',
  averageBill: 12000,
  workHoursWeek: { MONDAY: { openTime: 8, closeTime: 17 } },
  images: ['front.png', 'inside.png'],
};

const stored = (record: Restaurant = restaurant, revision = 3): Restaurant & Revised & { pk: string; sk: string } => ({
  pk: PK,
  sk: '#RESTAURANT',
  ...record,
  revision,
});

const write = (fields: Partial<RecordWrite<Restaurant>> = {}, headers: Record<string, string> = {}): RecordWrite<Restaurant> => ({
  sellerId: SELLER,
  body: restaurant,
  version: 33,
  conditions: preconditions(headers),
  ...fields,
});

describe('decideRecordPut', () => {
  it('a new restaurant: held to the live seller, created at revision 1 with every field, listed in the directory; 201', () => {
    // Act
    const decision = decideRecordPut(restaurants, write(), undefined);

    // Assess
    expect(decision.result).toEqual({ status: 201, body: { identifier: 'SE5560360793' } });
    const [seller, record, directory] = decision.steps.map(stepOf);
    expect(seller).toEqual({
      op: 'ConditionCheck',
      key: { pk: PK, sk: '#VERSION' },
      condition: 'live = :true',
      values: { ':true': true },
      refuses: true,
    });
    expect(stepRefusal(decision.steps[0])).toEqual({ status: 404, exception: 'NotFound', code: null });
    expect(record).toMatchObject({ op: 'Put', key: { pk: PK, sk: '#RESTAURANT' }, condition: 'attribute_not_exists(pk)' });
    expect(record?.item).toMatchObject({ ...restaurant, revision: 1, description: null, menu: null, custom: null });
    expect(stepRefusal(decision.steps[1])).toEqual({ status: 409, exception: 'VersionConflict', code: null });
    expect(directory).toMatchObject({ op: 'Put', key: { pk: 'RESTAURANTS', sk: SELLER } });
    expect(directory?.item).toMatchObject({ sellerId: SELLER, name: 'Kaffebaren', averageBill: 12000, logo: 'front.png' });
  });

  it('an existing restaurant is updated at the revision read, raising it; 204', () => {
    // Act
    const decision = decideRecordPut(restaurants, write({ body: { ...restaurant, name: 'Tebaren' } }), stored());

    // Assess
    expect(decision.result).toEqual({ status: 204 });
    expect(decision.steps[1] && stepOf(decision.steps[1])).toMatchObject({
      op: 'Update',
      key: { pk: PK, sk: '#RESTAURANT' },
      condition: 'revision = :seen',
      values: expect.objectContaining({ ':seen': 3, ':next': 4 }),
    });
    expect(decision.steps[2] && stepOf(decision.steps[2]).item).toMatchObject({ name: 'Tebaren' });
  });

  it('a v15 write keeps workHoursWeek, which v15 does not have, and writes null for what its body leaves out', () => {
    // Prepare
    const v15Body: Restaurant = {
      country: 'SE',
      corporateId: '5560360793',
      name: 'Kaffebaren',
      city: 'Lund',
      address: 'Storgatan 1',
      phone: '+4646123456',
    };

    // Act
    const decision = decideRecordPut(restaurants, write({ version: 15, body: v15Body }), stored());

    // Assess
    const values = decision.steps[1] && stepOf(decision.steps[1]).values;
    expect(Object.values(values ?? {})).toContainEqual(restaurant.workHoursWeek);
    expect(decision.steps[2] && stepOf(decision.steps[2]).item).toMatchObject({ logo: null });
  });

  it('a hairdresser has no directory: the seller check and the record only', () => {
    // Prepare
    const hairdresser: Hairdresser = { country: 'SE', corporateId: '5560360793', custom: 'x' };

    // Act
    const decision = decideRecordPut(hairdressers, { ...write(), body: hairdresser }, undefined);

    // Assess
    expect(decision.steps.map((step) => stepOf(step).key.sk)).toEqual(['#VERSION', '#HAIRDRESSER']);
  });

  it.each([
    ['If-Match of another revision', { 'if-match': '"2"' }, true],
    ['If-None-Match: * on an existing record', { 'if-none-match': '*' }, true],
    ['If-Match on a record the seller does not have', { 'if-match': '"1"' }, false],
  ])('%s is 409 VersionConflict', (_, headers, exists) => {
    // Act
    const refused = refusal(() => decideRecordPut(restaurants, write({}, headers), exists ? stored() : undefined));

    // Assess
    expect(refused).toEqual({ status: 409, exception: 'VersionConflict', code: null });
  });
});

describe('decideRecordDelete', () => {
  it('removes the record at the revision read (while unreferenced) and its directory entry, held to the live seller; 204', () => {
    // Act
    const decision = decideRecordDelete(restaurants, SELLER, preconditions({}), stored());

    // Assess
    expect(decision.result).toEqual({ status: 204 });
    expect(decision.steps.map(stepOf)).toEqual([
      expect.objectContaining({ op: 'ConditionCheck', key: { pk: PK, sk: '#VERSION' } }),
      {
        op: 'Delete',
        key: { pk: PK, sk: '#RESTAURANT' },
        condition: 'revision = :seen AND (attribute_not_exists(refs) OR refs = :zero)',
        values: { ':seen': 3, ':zero': 0 },
        refuses: true,
      },
      { op: 'Delete', key: { pk: 'RESTAURANTS', sk: SELLER }, refuses: false },
    ]);
  });

  it('a seller without the record is 404 NotFound', () => {
    // Act
    const refused = refusal(() => decideRecordDelete(restaurants, SELLER, preconditions({}), undefined));

    // Assess
    expect(refused).toEqual({ status: 404, exception: 'NotFound', code: null });
  });

  it('a stale If-Match is 409 VersionConflict', () => {
    // Act
    const refused = refusal(() => decideRecordDelete(restaurants, SELLER, preconditions({ 'if-match': '"2"' }), stored()));

    // Assess
    expect(refused).toEqual({ status: 409, exception: 'VersionConflict', code: null });
  });
});

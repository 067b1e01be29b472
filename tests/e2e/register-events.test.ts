/**
 * The register events of the e-journal over HTTP (docs/conventions.md §19): each of the SKVFS 2021:16 kinds a
 * register journals is taken with its own fields, stored as `{created, treasurer, data}` in the signed chain,
 * and a body the kind does not admit, or dated where it may not be, is refused with nothing appended.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { REGISTER_EVENT_TYPES, type RegisterEventType } from '#shared/fiscal/journal.ts';
import type { RegisterEventData } from '#shared/fiscal/register-events.ts';
import { verifyJournal } from '#shared/fiscal/verify-journal.ts';
import type { ApiVersion } from '#shared/versions.ts';
import { activateRegister, type RegisterApp, registerApp } from '../support/fiscal.ts';
import { type Answer, type CallOptions, detailOf, expectError, v } from '../support/http.ts';
import { swedishCorporateId } from '../support/identity.ts';

interface Entry {
  sequence: number;
  type: string;
  dayNumber: number | null;
  data: unknown;
}

let app: RegisterApp;

beforeAll(async () => {
  app = await registerApp();
});

/** A new seller's register K1, activated the way a register of `api` is. */
async function register(api: ApiVersion): Promise<{ sellerId: string; as: CallOptions }> {
  const corporateId = swedishCorporateId();
  return { sellerId: `SE${corporateId}`, as: await activateRegister(api, app, corporateId, 'K1') };
}

function expectStatus(answer: Answer, status: number): Answer {
  expect(answer.status, answer.text).toBe(status);
  return answer;
}

const article: RegisterEventData['ARTICLE_REGISTERED'] = {
  lineId: '1',
  articleType: 'GOODS',
  group: 'Ost',
  articleNumber: '7311',
  name: 'Västerbottensost',
  quantity: 1.25,
  amount: '0,125',
  unit: 'kg',
  unitPrice: 39900,
  price: 4988,
  discounts: [{ name: 'Stammis', amount: 500 }, { amount: 100 }],
  vatRate: 1200,
  vat: 481,
};
const previous: RegisterEventData['ARTICLE_CHANGED']['previous'] = { quantity: 2, price: 7980, vatRate: 1200, vat: 855 };
const earlier = Date.now() - 60_000;

/** A valid `data` of every register event type, typed as readers of the journal see it. */
const DATA: { [T in RegisterEventType]: RegisterEventData[T] } = {
  LOGIN: {},
  LOGOUT: {},
  DRAWER_OPENED: {},
  CLEAR: {},
  TRAINING_MODE_ON: {},
  TRAINING_MODE_OFF: {},
  REGISTER_STARTED: {},
  REGISTER_STOPPED: {},
  REGISTER_RESTARTED: {},
  PRICE_ENQUIRY: { group: 'Ost', articleNumber: '7311', name: 'Västerbottensost', price: 39900 },
  ARTICLE_REGISTERED: article,
  ARTICLE_CHANGED: { ...article, previous, originallyRegistered: earlier, reason: 'Fel vikt' },
  ARTICLE_DELETED: { ...article, originallyRegistered: earlier, deletionType: 'Radering' },
  ARTICLE_PARKED: { ...article, parkingId: 'P1' },
  PARKED_ARTICLE_CHANGED: { ...article, previous, parkingId: 'P1', originallyRegistered: earlier, reason: 'Fel antal' },
  PARKED_ARTICLE_DELETED: { ...article, parkingId: 'P1', originallyRegistered: earlier, deletionType: 'Radering' },
  PARKED_ARTICLE_MOVED: { ...article, parkingId: 'P2', previousParkingId: 'P1' },
  PARKING_OPENED: { parkingId: 'P1' },
  PARKING_CLOSED: {},
  CLOCK_CHANGED: { newTime: earlier + 30_000 },
  OTHER_REPORT: { name: 'Försäljning per timme', searchParameters: 'from=2026-01-01;to=2026-01-31' },
  CONTROL_PROGRAM_STATUS: { statusCode: 'OK-0' },
};

describe('register events in the e-journal (v33)', () => {
  const c = v(33);

  it('takes each of the 22 types, stores {created, treasurer, data} in the signed chain, and keeps the device event', async () => {
    const t = await register(33);
    const journal = `/${t.sellerId}/e-journals/K1`;
    expect(REGISTER_EVENT_TYPES).toHaveLength(22);

    const device = expectStatus(await c.post(journal, { data: { battery: 80 } }, t.as), 201);
    expect(device.body).toEqual({ sequence: 1 });
    const sent = REGISTER_EVENT_TYPES.map((type, index) => ({
      type,
      created: Date.now() - 1000 + index,
      // Half name their treasurer; the others leave it out, and it is stored as null.
      ...(index % 2 === 0 ? { treasurer: 'anna' } : {}),
      data: DATA[type],
    }));
    for (const [index, body] of sent.entries()) {
      expect(expectStatus(await c.post(journal, body, t.as), 201).body).toEqual({ sequence: index + 2 });
    }

    const entries = expectStatus(await c.get(journal), 200).body as Entry[];
    expect(entries).toHaveLength(23);
    // The `{data}` body is the device event it always was: its data as sent, no day yet.
    expect(entries[0]).toMatchObject({ sequence: 1, type: 'DEVICE', dayNumber: null, data: { battery: 80 } });
    expect(entries.slice(1).map(({ type, data }) => ({ type, data }))).toEqual(
      sent.map(({ type, created, treasurer, data }) => ({ type, data: { created, treasurer: treasurer ?? null, data } })),
    );

    const signed = expectStatus(await c.get(`/${t.sellerId}/generated-e-journals/K1`), 200).body as {
      publicKeyFileName: string;
      entries: Entry[];
    };
    expect(signed.entries).toEqual(entries);
    const pem = await c.get(`/noauth/activations/public-keys/${signed.publicKeyFileName}`, { as: 'none' });
    expect(verifyJournal(signed, pem.text)).toMatchObject({ valid: true });
  });

  it('stores created and treasurer beside a device event only when they are sent', async () => {
    const t = await register(33);
    const journal = `/${t.sellerId}/e-journals/K1`;
    const created = Date.now() - 1000;
    expectStatus(await c.post(journal, { type: 'DEVICE', data: { door: 'open' } }, t.as), 201);
    expectStatus(await c.post(journal, { type: 'DEVICE', created, treasurer: 'anna', data: { door: 'shut' } }, t.as), 201);
    expectStatus(await c.post(journal, { created, data: { door: 'open' } }, t.as), 201);
    const entries = expectStatus(await c.get(journal), 200).body as Entry[];
    expect(entries.map(({ type, data }) => ({ type, data }))).toEqual([
      { type: 'DEVICE', data: { door: 'open' } },
      { type: 'DEVICE', data: { created, treasurer: 'anna', data: { door: 'shut' } } },
      { type: 'DEVICE', data: { created, data: { door: 'open' } } },
    ]);
  });

  it('refuses what a type does not admit, and appends nothing', async () => {
    const t = await register(33);
    const journal = `/${t.sellerId}/e-journals/K1`;
    expectStatus(await c.post(journal, { data: { battery: 80 } }, t.as), 201);
    const created = Date.now();
    const event = (type: string, data: object, fields: object = {}) => ({ type, created, data, ...fields });

    const refusals: [string, unknown, string, Record<string, unknown>][] = [
      [
        'an unknown type',
        event('LUNCH', {}),
        'SHOULD_MATCH_PATTERN',
        { field: 'type', actualValue: 'LUNCH', pattern: `^(${['DEVICE', ...REGISTER_EVENT_TYPES].join('|')})$` },
      ],
      [
        'an unknown field in data',
        event('PRICE_ENQUIRY', { ...DATA.PRICE_ENQUIRY, colour: 'blue' }),
        'SHOULD_MATCH_PATTERN',
        { field: 'data.colour', actualValue: 'colour', pattern: '^(group|articleNumber|name|price)$' },
      ],
      [
        'a field in the data of a type without fields',
        event('LOGIN', { who: 'anna' }),
        'SHOULD_MATCH_PATTERN',
        { field: 'data.who' },
      ],
      [
        'an unknown field in a discount',
        event('ARTICLE_REGISTERED', { ...article, discounts: [{ amount: 100, code: 'X' }] }),
        'SHOULD_MATCH_PATTERN',
        { field: 'data.discounts[0].code', pattern: '^(name|amount)$' },
      ],
      [
        'an unknown field in the line before a change',
        event('ARTICLE_CHANGED', { ...DATA.ARTICLE_CHANGED, previous: { ...previous, name: 'Ost' } }),
        'SHOULD_MATCH_PATTERN',
        { field: 'data.previous.name' },
      ],
      [
        'a missing required field',
        event('ARTICLE_REGISTERED', { ...article, name: undefined }),
        'SHOULD_NOT_BE_NULL',
        { field: 'data.name' },
      ],
      [
        'a missing originallyRegistered',
        event('ARTICLE_DELETED', { ...article }),
        'SHOULD_NOT_BE_NULL',
        { field: 'data.originallyRegistered' },
      ],
      ['a register event without created', { type: 'LOGIN', data: {} }, 'SHOULD_NOT_BE_NULL', { field: 'created' }],
      [
        'a quantity with three decimals',
        event('ARTICLE_REGISTERED', { ...article, quantity: 1.125 }),
        'SHOULD_MATCH_PATTERN',
        { field: 'data.quantity', actualValue: 1.125, pattern: '^-?\\d+(\\.\\d{1,2})?$' },
      ],
      [
        'a previous quantity with three decimals',
        event('PARKED_ARTICLE_CHANGED', { ...DATA.PARKED_ARTICLE_CHANGED, previous: { ...previous, quantity: 0.001 } }),
        'SHOULD_MATCH_PATTERN',
        { field: 'data.previous.quantity' },
      ],
      [
        'a 73-character name',
        event('ARTICLE_REGISTERED', { ...article, name: 'x'.repeat(73) }),
        'SIZE_SHOULD_BE_IN_RANGE',
        { field: 'data.name', actualValue: 73, sizeMin: 1, sizeMax: 72 },
      ],
      [
        'a 73-character treasurer',
        event('LOGIN', {}, { treasurer: 'x'.repeat(73) }),
        'SIZE_SHOULD_BE_IN_RANGE',
        { field: 'treasurer', sizeMax: 72 },
      ],
      [
        'a VAT rate over 100 %',
        event('ARTICLE_REGISTERED', { ...article, vatRate: 10001 }),
        'VALUE_SHOULD_BE_LESS_THEN',
        { field: 'data.vatRate', valueMax: 10000 },
      ],
      [
        '21 discounts',
        event('ARTICLE_REGISTERED', { ...article, discounts: Array.from({ length: 21 }, () => ({ amount: 1 })) }),
        'SIZE_SHOULD_BE_LESS_THEN',
        { field: 'data.discounts', sizeMax: 20 },
      ],
    ];
    for (const [what, body, code, details] of refusals) {
      const answer = await c.post(journal, body, t.as);
      expect({ what, status: answer.status, body: answer.body, detail: detailOf(answer) }).toMatchObject({
        what,
        status: 400,
        body: { exception: 'ValueNotValid', code },
        detail: details,
      });
      expectError(answer, 400, 'ValueNotValid', code);
    }

    const future = Date.now() + 10 * 60_000;
    const ahead = await c.post(journal, event('LOGIN', {}, { created: future }), t.as);
    expectError(ahead, 400, 'ValueNotValid', 'VALUE_SHOULD_BE_LESS_THEN');
    expect(detailOf(ahead)).toMatchObject({ field: 'created', actualValue: future });
    const { valueMax } = detailOf(ahead) as { valueMax: number };
    expect(valueMax).toBeGreaterThanOrEqual(created + 5 * 60_000);
    expect(valueMax).toBeLessThan(future);

    expect((expectStatus(await c.get(journal), 200).body as Entry[]).map(({ type }) => type)).toEqual(['DEVICE']);
  });

  it('refuses an event dated before the close of the latest closed day (422 DAY_IS_CLOSED)', async () => {
    const t = await register(33);
    const journal = `/${t.sellerId}/e-journals/K1`;
    const before = Date.now() - 1000;
    expectStatus(await c.post(`/${t.sellerId}/days`, {}, t.as), 201);
    // While the day is open, it may be dated in it.
    expectStatus(await c.post(journal, { type: 'LOGIN', created: before, data: {} }, t.as), 201);
    const closed = expectStatus(await c.post(`/${t.sellerId}/registrations/K1/days/current`, undefined, t.as), 201);
    const close = (closed.body as { close: number }).close;
    const length = (expectStatus(await c.get(journal), 200).body as Entry[]).length;

    for (const body of [
      { type: 'LOGOUT', created: close - 1, data: {} },
      { type: 'ARTICLE_REGISTERED', created: before, treasurer: 'anna', data: article },
      { type: 'DEVICE', created: close - 1, data: { door: 'open' } },
    ]) {
      expectError(await c.post(journal, body, t.as), 422, 'UnprocessableEntity', 'DAY_IS_CLOSED');
    }
    expect(expectStatus(await c.get(journal), 200).body as Entry[]).toHaveLength(length);

    // At the close or after, and without a date (a device event as it always was), it is taken.
    expectStatus(await c.post(journal, { type: 'LOGOUT', created: close, data: {} }, t.as), 201);
    expectStatus(await c.post(journal, { data: { door: 'open' } }, t.as), 201);
    const entries = expectStatus(await c.get(journal), 200).body as Entry[];
    expect(entries.slice(-2)).toMatchObject([
      { type: 'LOGOUT', dayNumber: 1, data: { created: close, treasurer: null, data: {} } },
      { type: 'DEVICE', dayNumber: 1, data: { door: 'open' } },
    ]);

    // The next day opened (its Z report printed first): the closed day still never changes.
    expectStatus(await c.post(`/${t.sellerId}/registrations/K1/days/1/report`, undefined, t.as), 201);
    expectStatus(await c.post(`/${t.sellerId}/days`, {}, t.as), 201);
    expectError(
      await c.post(journal, { type: 'LOGIN', created: close - 1, data: {} }, t.as),
      422,
      'UnprocessableEntity',
      'DAY_IS_CLOSED',
    );
    expectStatus(await c.post(journal, { type: 'LOGIN', created: Date.now(), data: {} }, t.as), 201);
  });
});

describe.each([15, 26] as const)('register events in v%i', (api) => {
  it('takes the same body, and refuses the same way', async () => {
    const t = await register(api);
    const c = v(api);
    const journal = `/${t.sellerId}/e-journals/K1`;
    const created = Date.now() - 1000;
    const body = { type: 'ARTICLE_CHANGED', created, treasurer: 'anna', data: DATA.ARTICLE_CHANGED };
    expect(expectStatus(await c.post(journal, body, t.as), 201).body).toEqual({ sequence: 1 });
    expectStatus(await c.post(journal, { type: 'CLOCK_CHANGED', created, data: DATA.CLOCK_CHANGED }, t.as), 201);
    const unknown = await c.post(journal, { type: 'LUNCH', created, data: {} }, t.as);
    expectError(unknown, 400, 'ValueNotValid', 'SHOULD_MATCH_PATTERN');
    expect(detailOf(unknown)).toMatchObject({ field: 'type', actualValue: 'LUNCH' });
    const entries = expectStatus(await c.get(journal), 200).body as Entry[];
    expect(entries.map(({ type, data }) => ({ type, data }))).toEqual([
      { type: 'ARTICLE_CHANGED', data: { created, treasurer: 'anna', data: DATA.ARTICLE_CHANGED } },
      { type: 'CLOCK_CHANGED', data: { created, treasurer: null, data: DATA.CLOCK_CHANGED } },
    ]);
  });
});

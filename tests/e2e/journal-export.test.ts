/**
 * The auditor's export over HTTP (docs/conventions.md §19): a register on a control unit records days of every kind of
 * event, and `GET /v33/{sellerId}/registrations/{cash}/journal-export` answers Skatteverket's SKVFS 2021:16 document,
 * which xmllint validates against Skatteverket's own schemas and whose receipts say what the sales said. Who may
 * export, an empty period, and a register whose records lack a fact the format needs.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { startUnit } from '../support/edge.ts';
import { activateRegister, registerApp, saleOf } from '../support/fiscal.ts';
import { type Answer, type CallOptions, expectError, newSeller, v } from '../support/http.ts';
import { DAY, swedishCorporateId, userOf } from '../support/identity.ts';
import { kdOf, sendKd, type UnitApp, unitApp } from '../support/kd.ts';
import { expectValidExport } from '../support/skvfs.ts';

const XML = { headers: { Accept: 'application/xml' } };

let app: UnitApp;
let serial: string;

/** A seller with a profile the export can name, and its register `cash` on the test's unit, installed as version 4.2.0. */
async function shop(cash = 'K1'): Promise<{ sellerId: string; register: CallOptions; base: string }> {
  const corporateId = swedishCorporateId();
  const sellerId = `SE${corporateId}`;
  const answer = await v(33).post('/activations-advanced', {
    country: 'SE',
    corporateId,
    companyName: 'Exportbutiken',
    cashRegisterName: cash,
    features: [],
    validFrom: Date.now() - DAY,
    validTo: Date.now() + DAY,
    applicationPackage: app.applicationPackage,
    controlUnitSerial: serial,
    controlUnitLocation: 'DEVICE',
    controlUnitGeolocation: { city: 'Malmö', postalCode: '211 20' },
    installationCreationInfo: { deviceId: randomUUID().slice(0, 16), buildInfo: { os: 'Android 14' }, programVersion: '4.2.0' },
  });
  expect([answer.status, answer.text]).toEqual([201, expect.any(String)]);
  const profile = await v(33).put(`/sellers/${sellerId}`, {
    corporateId,
    country: 'SE',
    publicAccess: true,
    workHoursWeek: {},
    name: 'Exportbutiken AB',
    address: 'Hamngatan 4',
    zip: '211 22',
    city: 'Malmö',
    currency: 'SEK',
  });
  expect(profile.status).toBe(204);
  return {
    sellerId,
    register: { as: { apiKey: (answer.body as { apiKey: string }).apiKey } },
    base: `/${sellerId}/registrations/${cash}`,
  };
}

type Shop = Awaited<ReturnType<typeof shop>>;

/** The unit's control code for a kd, as the register asks for it before it prints. */
async function codeFor(s: Shop, body: Record<string, unknown>): Promise<string> {
  const answer = await sendKd(33, s.sellerId, 'K1', body, s.register);
  expect([answer.status, answer.text]).toEqual([201, expect.any(String)]);
  return (answer.body as { response: string }).response;
}

/** kd's VAT per rate: whole percent -> brutto (hundredths). */
const kdRates = (sale: { vatRateSums: { vatRate: number; brutto: number }[] }) =>
  Object.fromEntries(sale.vatRateSums.map((sum) => [String(sum.vatRate / 100), sum.brutto]));

interface Line {
  rate: number;
  units: number;
  price: number;
}

/** A paid sale of `lines` (VAT included in the price, rounded per line), paid cash and by card when `split`. */
function saleOfLines(lines: readonly Line[], split: boolean, fields: Record<string, unknown> = {}) {
  const saleProducts = lines.map((line, index) => {
    const brutto = line.units * line.price;
    const vat = Math.round((brutto * line.rate) / (10000 + line.rate));
    return {
      productIdentifier: `art-${index}`,
      name: `Vara ${index} åäö`,
      deltaUnit: true,
      delta: line.units,
      vat,
      netto: brutto - vat,
      brutto,
      vatRate: line.rate / 100,
    };
  });
  const rates = new Map<number, { vatRate: number; vat: number; netto: number; brutto: number }>();
  for (const [index, line] of lines.entries()) {
    const product = saleProducts[index];
    if (!product) continue;
    const sum = rates.get(line.rate) ?? { vatRate: line.rate, vat: 0, netto: 0, brutto: 0 };
    rates.set(line.rate, {
      ...sum,
      vat: sum.vat + product.vat,
      netto: sum.netto + product.netto,
      brutto: sum.brutto + product.brutto,
    });
  }
  const brutto = saleProducts.reduce((total, line) => total + line.brutto, 0);
  const vat = saleProducts.reduce((total, line) => total + line.vat, 0);
  const cash = split ? Math.floor(brutto / 3) : brutto;
  return saleOf(brutto, {
    vat,
    saleProducts,
    vatRateSums: [...rates.values()],
    payments: split
      ? [
          { paymentType: 'Cash', amount: cash },
          { paymentType: 'EmvStandalone', amount: brutto - cash },
        ]
      : [{ paymentType: 'Cash', amount: brutto }],
    ...fields,
  });
}

async function exportOf(s: Shop, query = '', options: CallOptions = s.register): Promise<Answer> {
  return v(33).get(`${s.base}/journal-export${query}`, { ...XML, ...options, headers: XML.headers });
}

const elements = (xml: string, name: string) =>
  [...xml.matchAll(new RegExp(`<${name}>(.*?)</${name}>`, 'gs'))].map((m) => m[1] ?? '');
const hundredths = (decimal: string) => Math.round(Number(decimal) * 100);

beforeAll(async () => {
  app = await unitApp();
  serial = (await startUnit()).serial;
});

describe('GET /v33/{sellerId}/registrations/{cash}/journal-export', () => {
  let s: Shop;

  beforeAll(async () => {
    s = await shop();
    const { base, register } = s;
    expect(
      (
        await v(33).post(
          `/${s.sellerId}/e-journals/K1`,
          { type: 'LOGIN', created: Date.now(), treasurer: 'Anna', data: {} },
          register,
        )
      ).status,
    ).toBe(201);
    expect((await v(33).post(`${base}/balance`, { amount: 50_000, action: 'DEPOSIT' }, register)).status).toBe(201);
    const sale = saleOfLines(
      [
        { rate: 2500, units: 2, price: 4990 },
        { rate: 1200, units: 1, price: 2500 },
      ],
      true,
    );
    const code = await codeFor(s, kdOf(1, sale.brutto, { vatRateToSum: kdRates(sale) }));
    expect(
      (await v(33).post(`${base}/sales`, { ...sale, prints: [{ printType: 'Normal', controlNumber: code }] }, register)).status,
    ).toBe(201);
    const copy = await codeFor(s, kdOf(1, sale.brutto, { vatRateToSum: kdRates(sale), printType: 'Copy' }));
    const prints = [
      { printType: 'Normal', receiptNumber: 1, controlNumber: code },
      { printType: 'Copy', controlNumber: copy },
    ];
    expect((await v(33).put(`${base}/sales`, { ...sale, prints }, register)).status).toBe(204);
    expect((await v(33).post(`${base}/days/current`, undefined, register)).status).toBe(201);
  });

  it('answers the journal as a valid SKVFS 2021:16 attachment, for the register and users of the seller', async () => {
    const answer = await exportOf(s);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/xml; charset=UTF-8');
    expect(answer.headers.get('content-disposition')).toMatch(
      /^attachment; filename="ExportAvDataFranJournalminneEnligtSKVFS2021-16_\d{14}-\d{14}\.xml"$/,
    );
    expectValidExport(answer.text);
    expect(elements(answer.text, 'DenAdressDarForsaljningSker')[0]).toBe('Hamngatan 4, 211 22 Malmö');
    expect(elements(answer.text, 'VersionsnummerForKassaregistret')).toEqual(['4.2.0', '4.2.0']);
    expect(elements(answer.text, 'TillverkningsnummerForKontrollenheten')[0]).toBe(serial);
    const kinds = [...answer.text.matchAll(/<\/Registreringstidpunkt><(\w+)>/g)].map((m) => m[1]);
    expect(kinds).toEqual(['InloggningIKassaregister', 'ForandraVaxelkassa', 'Kassakvitto', 'KopiaAvKassakvitto', 'ZDagrapport']);
    const user = await userOf('REGULAR_USER', null, [s.sellerId]);
    expect((await exportOf(s, '', user)).text).toContain('<ZDagrapport>');
    expectValidExport((await exportOf(s, '', {})).text);
  });

  it('refuses another seller, its register and its user (403), and has nothing for an empty period (404)', async () => {
    const other = await shop();
    expectError(await exportOf(s, '', other.register), 403, 'Forbidden');
    expectError(await exportOf(s, '', await userOf('REGULAR_USER', null, [await newSeller()])), 403, 'Forbidden');
    expectError(await exportOf(s, `?from=${Date.now() + DAY}&to=${Date.now() + 2 * DAY}`), 404, 'NotFound');
    expectError(await exportOf(other), 404, 'NotFound');
    expectError(await v(26).get(`${s.base}/journal-export`, XML), 404, 'NotFound', 'ENDPOINT_NOT_FOUND');
  });

  it('names the fact a register without a control unit lacks, and exports nothing', async () => {
    const corporateId = swedishCorporateId();
    const register = await activateRegister(33, await registerApp(), corporateId, 'K9');
    const answer = await v(33).get(`/SE${corporateId}/registrations/K9/journal-export`, { ...register, ...XML });
    expectError(answer, 409, 'InconsistentData', 'JOURNAL_EXPORT_INCOMPLETE');
    expect((answer.body as { details: { missing: string } }).details.missing).toMatch(/address|name|version|serial|production/);
  });
});

describe('random days export to a valid document that says what the sales said', () => {
  it('receipt totals, VAT per rate and payments equal the sales, in time order, each day closed by its Z report', async () => {
    const line = fc.record({
      rate: fc.constantFrom(2500, 1200, 600, 0),
      units: fc.integer({ min: 1, max: 3 }),
      price: fc.integer({ min: 100, max: 20_000 }),
    });
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('sale' as const),
        lines: fc.array(line, { minLength: 1, maxLength: 3 }),
        split: fc.boolean(),
      }),
      fc.record({ kind: fc.constantFrom('refund' as const, 'copy' as const, 'training' as const, 'proforma' as const) }),
      fc.record({
        kind: fc.constantFrom('deposit' as const, 'withdrawal' as const, 'drawer' as const, 'login' as const, 'parked' as const),
      }),
    );
    const days = fc.array(fc.array(op, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 2 });

    await fc.assert(
      fc.asyncProperty(days, async (plan) => {
        const s = await shop();
        const { base, register, sellerId } = s;
        /** What each printed receipt must say, by receipt number: total, VAT per rate, payments (signed as exported). */
        const expected = new Map<number, { total: number; rates: Record<string, number>; payments: number[] }>();
        /** This day's receipts, which may still be copied once and refunded once. */
        const printed: {
          number: number;
          sale: ReturnType<typeof saleOfLines>;
          code: string;
          copied: boolean;
          refunded: boolean;
        }[] = [];
        let receipt = 0;
        let trainingNumber = 0;
        const remember = (
          number: number,
          sale: Pick<ReturnType<typeof saleOfLines>, 'brutto' | 'vatRateSums' | 'payments'>,
          sign: number,
        ) =>
          expected.set(number, {
            total: sign * sale.brutto,
            rates: Object.fromEntries(sale.vatRateSums.map((sum) => [(sum.vatRate / 100).toFixed(2), sign * sum.vat])),
            payments: sale.payments.map((payment) => sign * payment.amount),
          });
        const event = (type: string, data: Record<string, unknown> = {}) =>
          v(33).post(`/${sellerId}/e-journals/K1`, { type, created: Date.now(), data }, register);

        for (const day of plan) {
          for (const step of day) {
            if (step.kind === 'sale') {
              const sale = saleOfLines(step.lines, step.split);
              receipt += 1;
              const code = await codeFor(s, kdOf(receipt, sale.brutto, { vatRateToSum: kdRates(sale) }));
              const stored = await v(33).post(
                `${base}/sales`,
                { ...sale, prints: [{ printType: 'Normal', controlNumber: code }] },
                register,
              );
              expect(stored.status).toBe(201);
              printed.push({ number: receipt, sale, code, copied: false, refunded: false });
              remember(receipt, sale, 1);
            } else if (step.kind === 'refund') {
              const original = printed.find((candidate) => !candidate.refunded);
              if (!original) continue;
              original.refunded = true;
              const refund = { ...original.sale, identifier: randomUUID(), refund: true, refundFor: original.number };
              receipt += 1;
              const code = await codeFor(s, kdOf(receipt, refund.brutto, { vatRateToSum: kdRates(refund), refund: true }));
              const stored = await v(33).post(
                `${base}/sales`,
                { ...refund, prints: [{ printType: 'Normal', controlNumber: code }] },
                register,
              );
              expect([stored.status, stored.text]).toEqual([201, expect.any(String)]);
              remember(receipt, refund, -1);
            } else if (step.kind === 'copy') {
              const original = printed.find((candidate) => !candidate.copied);
              if (!original) continue;
              original.copied = true;
              const copy = await codeFor(
                s,
                kdOf(original.number, original.sale.brutto, { vatRateToSum: kdRates(original.sale), printType: 'Copy' }),
              );
              const prints = [
                { printType: 'Normal', receiptNumber: original.number, controlNumber: original.code },
                { printType: 'Copy', controlNumber: copy },
              ];
              expect((await v(33).put(`${base}/sales`, { ...original.sale, prints }, register)).status).toBe(204);
            } else if (step.kind === 'training') {
              const sale = saleOfLines([{ rate: 2500, units: 1, price: 1000 }], false, { training: true });
              trainingNumber += 1;
              const code = await codeFor(s, kdOf(trainingNumber, sale.brutto, { vatRateToSum: kdRates(sale), training: true }));
              expect((await event('TRAINING_MODE_ON')).status).toBe(201);
              expect(
                (await v(33).post(`${base}/sales`, { ...sale, prints: [{ printType: 'Normal', controlNumber: code }] }, register))
                  .status,
              ).toBe(201);
              expect((await event('TRAINING_MODE_OFF')).status).toBe(201);
            } else if (step.kind === 'proforma') {
              const sale = saleOfLines([{ rate: 1200, units: 2, price: 500 }], false, { saleState: 'Open', payments: [] });
              expect((await v(33).post(`${base}/sales`, { ...sale, prints: [{ printType: 'Proforma' }] }, register)).status).toBe(
                201,
              );
              const cancelled = await v(33).put(
                `${base}/sales`,
                { ...sale, saleState: 'Cancelled', prints: [{ printType: 'Proforma' }] },
                register,
              );
              expect(cancelled.status).toBe(204);
            } else if (step.kind === 'deposit' || step.kind === 'withdrawal') {
              const action = step.kind === 'deposit' ? 'DEPOSIT' : 'WITHDRAWAL';
              const changed = await v(33).post(`${base}/balance`, { amount: 100, action }, register);
              // A withdrawal larger than the drawer holds is refused; the drawer is as it was.
              expect([201, 422]).toContain(changed.status);
            } else if (step.kind === 'drawer') {
              expect((await event('DRAWER_OPENED')).status).toBe(201);
            } else if (step.kind === 'login') {
              expect((await event('LOGIN')).status).toBe(201);
            } else {
              const parked = {
                articleType: 'GOODS',
                name: 'Parkerad vara',
                quantity: 1,
                price: 1500,
                vatRate: 2500,
                vat: 300,
                parkingId: 'bord 4',
              };
              expect((await event('ARTICLE_PARKED', parked)).status).toBe(201);
            }
          }
          // Every sold sale has its receipt, so the day closes; its Z report is printed.
          const closed = await v(33).post(`${base}/days/current`, undefined, register);
          if (closed.status !== 201) continue;
          const dayNumber = (closed.body as { dayNumber: number }).dayNumber;
          expect((await v(33).post(`${base}/days/${dayNumber}/report`, undefined, register)).status).toBe(201);
          printed.length = 0;
        }

        const answer = await exportOf(s);
        if (expected.size === 0 && answer.status === 404) return;
        expect(answer.status).toBe(200);
        expectValidExport(answer.text);
        const times = elements(answer.text, 'Registreringstidpunkt');
        expect(times).toEqual([...times].sort());
        for (const kind of ['Kassakvitto', 'Returkvitto']) {
          for (const body of elements(answer.text, kind)) {
            const number = Number(elements(body, 'LopnummerForKassakvitto')[0]);
            const want = expected.get(number);
            expect(want, `receipt ${number}`).toBeDefined();
            expect(hundredths(elements(body, 'TotaltForsaljningsbeloppISvenskaKronor')[0] ?? '')).toBe(want?.total);
            expect(elements(body, 'ForsaljningssummaPerBetalningsmedel').map(hundredths)).toEqual(want?.payments);
            const rates = elements(body, 'MervardesskattPerSkattesats').map((rate) => [
              elements(rate, 'Mervardesskattesats')[0] ?? '',
              hundredths(elements(rate, 'TotaltMervardesskattebeloppPerSkattesats')[0] ?? ''),
            ]);
            expect(Object.fromEntries(rates)).toEqual(want?.rates);
          }
        }
        const exportedReceipts = elements(answer.text, 'LopnummerForKassakvitto').map(Number);
        expect(new Set(exportedReceipts)).toEqual(new Set(expected.keys()));
        // Each closed day has its Z report; every receipt names a Z report the export holds or the open day's.
        const zNumbers = elements(answer.text, 'LopnummerForZDagrapport');
        expect(zNumbers.length).toBeGreaterThanOrEqual(1);
      }),
      { numRuns: 3, endOnFailure: true },
    );
  });
});

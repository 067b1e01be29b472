/**
 * The auditor's export over HTTP (docs/conventions.md §19): a register on a control unit records days of every kind of
 * event, and `GET /v33/{sellerId}/registrations/{cash}/journal-export` answers Skatteverket's SKVFS 2021:16 document,
 * which xmllint validates against Skatteverket's own schemas and whose receipts say what the sales said. Who may
 * export, an empty period, and a register whose records lack a fact the format needs.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { startUnit } from '../support/edge.ts';
import { activateRegister, registerApp, saleOf } from '../support/fiscal.ts';
import { type Answer, type CallOptions, detailOf, expectError, newSeller, v } from '../support/http.ts';
import { DAY, swedishCorporateId, userOf } from '../support/identity.ts';
import { kdOf, type UnitApp, unitApp } from '../support/kd.ts';
import { codeFor, exportShop, expectValidExport, type Shop } from '../support/skvfs.ts';

const XML = { headers: { Accept: 'application/xml' } };

let app: UnitApp;
let serial: string;

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
  return v(33).get(`${s.base}/journal-export${query}`, { ...options, headers: { ...XML.headers, ...options.headers } });
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
    s = await exportShop(app, serial);
    const { base, register } = s;
    expect(
      (
        await v(33).post(
          `/${s.sellerId}/e-journals/${s.cash}`,
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
    const drawer = { type: 'DRAWER_OPENED', created: Date.now(), treasurer: 'Anna', data: {} };
    expect((await v(33).post(`/${s.sellerId}/e-journals/${s.cash}`, drawer, register)).status).toBe(201);
    expect((await v(33).post(`${base}/days/current`, undefined, register)).status).toBe(201);
  });

  it("counts the register's drawer opening without a sale in the Z report (item m), beside the deposit", async () => {
    const report = await v(33).get(`${s.base}/days/1/report`, s.register);
    // One cash sale, one deposit, one drawer opened without a sale.
    expect(report.body).toMatchObject({ type: 'Z', drawerOpenings: 3, drawerOpeningsWithoutSale: 2 });
    expect(elements((await exportOf(s)).text, 'AntalKassaladoppningar')).toEqual(['3']);
  });

  it('answers the journal as a valid SKVFS 2021:16 attachment, for the register and users of the seller', async () => {
    const answer = await exportOf(s);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/xml; charset=UTF-8');
    expect(answer.headers.get('content-disposition')).toMatch(
      /^attachment; filename="ExportAvDataFranJournalminneEnligtSKVFS2021-16_\d{14}-\d{14}\.xml"$/,
    );
    await expectValidExport(answer.text);
    // Sent gzipped to a client that accepts it (fetch does, and reads it back), as plain text to one that does not.
    expect(answer.headers.get('content-encoding')).toBe('gzip');
    const plain = await exportOf(s, '', { ...s.register, headers: { 'Accept-Encoding': 'identity' } });
    expect([plain.status, plain.headers.get('content-encoding')]).toEqual([200, null]);
    const untimed = (xml: string) => xml.replace(/(<TidpunktForNar\w+>|<ValdSluttidpunkt\w+>)[^<]*/g, '$1');
    expect(untimed(plain.text)).toBe(untimed(answer.text));
    expect(elements(answer.text, 'DenAdressDarForsaljningSker')[0]).toBe('Hamngatan 4, 211 22 Malmö');
    expect(elements(answer.text, 'VersionsnummerForKassaregistret')).toEqual(['4.2.0', '4.2.0']);
    expect(elements(answer.text, 'TillverkningsnummerForKontrollenheten')[0]).toBe(serial);
    const kinds = [...answer.text.matchAll(/<\/Registreringstidpunkt><(\w+)>/g)].map((m) => m[1]);
    expect(kinds).toEqual([
      'InloggningIKassaregister',
      'ForandraVaxelkassa',
      'Kassakvitto',
      'KopiaAvKassakvitto',
      'OppnaKassaladaVidNollforsaljning',
      'ZDagrapport',
    ]);
    const user = await userOf('REGULAR_USER', null, [s.sellerId]);
    expect((await exportOf(s, '', user)).text).toContain('<ZDagrapport>');
    await expectValidExport((await exportOf(s, '', {})).text);
  });

  it('npm run journal-export makes the same document offline from the fetched, signed journal', async () => {
    const journal = await v(33).get(`/${s.sellerId}/generated-e-journals/${s.cash}`, s.register);
    expect(journal.status).toBe(200);
    const { publicKeyFileName } = journal.body as { publicKeyFileName: string };
    const key = await v(33).get(`/noauth/activations/public-keys/${publicKeyFileName}`, { as: 'none' });
    const folder = mkdtempSync(join(tmpdir(), 'journal-export-'));
    writeFileSync(join(folder, 'journal.json'), journal.text);
    writeFileSync(join(folder, publicKeyFileName), key.text);
    const offline = execFileSync(process.execPath, ['scripts/journal-export.ts', join(folder, 'journal.json')], {
      encoding: 'utf8',
    });
    await expectValidExport(offline);
    // The same document but for when each was made: the export's time, and the period's end it defaults to.
    const timeless = (xml: string) =>
      xml.replace(
        /<(TidpunktForNarExportAvDataFranJournalminnetSker|ValdSluttidpunktForExportAvDataFranJournalminnet)>[^<]*</g,
        '<$1><',
      );
    expect(timeless(offline)).toBe(timeless((await exportOf(s)).text));

    // A journal changed after it was signed is refused, and no document is written.
    const forged = journal.text.replace('"Anna"', '"Bosse"');
    expect(forged).not.toBe(journal.text);
    writeFileSync(join(folder, 'forged.json'), forged);
    const refused = spawnSync(process.execPath, ['scripts/journal-export.ts', join(folder, 'forged.json')], { encoding: 'utf8' });
    expect([refused.status, refused.stdout]).toEqual([1, '']);
    expect(refused.stderr).toMatch(/^invalid journal: /);
  });

  it('refuses another seller, its register and its user (403), and has nothing for an empty period (404)', async () => {
    const other = await exportShop(app, serial);
    expectError(await exportOf(s, '', other.register), 403, 'Forbidden', 'INSUFFICIENT_ACCESS_RIGHTS');
    const stranger = await userOf('REGULAR_USER', null, [await newSeller()]);
    expectError(await exportOf(s, '', stranger), 403, 'Forbidden', 'INSUFFICIENT_ACCESS_RIGHTS');
    expectError(await exportOf(s, `?from=${Date.now() + DAY}&to=${Date.now() + 2 * DAY}`), 404, 'NotFound');
    expectError(await exportOf(other), 404, 'NotFound');
    expectError(await exportOf(s, '?from=yesterday'), 400, 'TypeMismatch');
    expectError(await v(26).get(`${s.base}/journal-export`, XML), 404, 'NotFound', 'ENDPOINT_NOT_FOUND');
  });

  it('names the fact a register without a control unit lacks, and exports nothing', async () => {
    const corporateId = swedishCorporateId();
    const register = await activateRegister(33, await registerApp(), corporateId, 'K9');
    const answer = await v(33).get(`/SE${corporateId}/registrations/K9/journal-export`, { ...register, ...XML });
    expectError(answer, 409, 'InconsistentData', 'JOURNAL_EXPORT_INCOMPLETE');
    expect(detailOf(answer).missing).toMatch(/address|name|version|serial|production/);
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
        const s = await exportShop(app, serial);
        const { base, register, sellerId, cash } = s;
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
        /** How many of each element the export must hold. */
        const count: Record<string, number> = {};
        const counted = (element: string) => {
          count[element] = (count[element] ?? 0) + 1;
          if (fiscalKinds.has(element)) fiscal.add(closedDays + 1);
        };
        let closedDays = 0;
        /** The days (by number) in which a fiscal record was written: only they were opened. */
        const fiscal = new Set<number>();
        const fiscalKinds = new Set([
          'Kassakvitto',
          'Returkvitto',
          'KopiaAvKassakvitto',
          'Ovningskvitto',
          'ProFormaKvitto',
          'ForandraVaxelkassa',
        ]);
        const remember = (
          number: number,
          sale: Pick<ReturnType<typeof saleOfLines>, 'brutto' | 'vatRateSums' | 'payments'>,
          sign: number,
        ) =>
          expected.set(number, {
            total: sign * sale.brutto,
            // `+ 0`: a refund of no VAT is 0, not -0.
            rates: Object.fromEntries(sale.vatRateSums.map((sum) => [(sum.vatRate / 100).toFixed(2), sign * sum.vat + 0])),
            payments: sale.payments.map((payment) => sign * payment.amount),
          });
        const event = (type: string, data: Record<string, unknown> = {}) =>
          v(33).post(`/${sellerId}/e-journals/${cash}`, { type, created: Date.now(), data }, register);

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
              counted('Kassakvitto');
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
              counted('Returkvitto');
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
              counted('KopiaAvKassakvitto');
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
              counted('Ovningskvitto');
              counted('StallaOmTillOvningslage');
              counted('StallaOmTillNormallage');
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
              counted('ProFormaKvitto');
            } else if (step.kind === 'deposit' || step.kind === 'withdrawal') {
              const action = step.kind === 'deposit' ? 'DEPOSIT' : 'WITHDRAWAL';
              const balance = await v(33).get(`${base}/balance`, register);
              const held = balance.status === 200 ? (balance.body as { amount: number }).amount : 0;
              const changed = await v(33).post(`${base}/balance`, { amount: 100, action }, register);
              // A withdrawal of more than the drawer holds is refused, and the journal has nothing of it.
              if (action === 'WITHDRAWAL' && held < 100) {
                expect(changed.status).toBeGreaterThanOrEqual(400);
                continue;
              }
              expect([changed.status, changed.text]).toEqual([201, expect.any(String)]);
              counted('ForandraVaxelkassa');
            } else if (step.kind === 'drawer') {
              expect((await event('DRAWER_OPENED')).status).toBe(201);
              counted('OppnaKassaladaVidNollforsaljning');
            } else if (step.kind === 'login') {
              expect((await event('LOGIN')).status).toBe(201);
              counted('InloggningIKassaregister');
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
              counted('ParkeraRegistreradArtikel');
            }
          }
          // Every sold sale has its receipt, so the day closes; its Z report is printed. A day that recorded nothing
          // fiscal (register events only) never opened: there is nothing to close.
          const closed = await v(33).post(`${base}/days/current`, undefined, register);
          if (!fiscal.has(closedDays + 1)) {
            expect(closed.status).toBe(422);
            continue;
          }
          expect([closed.status, closed.text]).toEqual([201, expect.any(String)]);
          counted('ZDagrapport');
          closedDays += 1;
          const dayNumber = (closed.body as { dayNumber: number }).dayNumber;
          expect((await v(33).post(`${base}/days/${dayNumber}/report`, undefined, register)).status).toBe(201);
          printed.length = 0;
        }

        const answer = await exportOf(s);
        if (Object.keys(count).length === 0) {
          expectError(answer, 404, 'NotFound');
          return;
        }
        expect(answer.status).toBe(200);
        await expectValidExport(answer.text);
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
        const held = [...answer.text.matchAll(/<\/Registreringstidpunkt><(\w+)>/g)].map((m) => m[1] ?? '');
        expect(Object.fromEntries([...new Set(held)].map((kind) => [kind, held.filter((k) => k === kind).length]))).toEqual(
          count,
        );
        // Each day closed by its own Z report, and every receipt names the Z report of its day.
        const zNumbers = elements(answer.text, 'LopnummerForZDagrapport').map(Number);
        expect(zNumbers).toEqual(Array.from({ length: closedDays }, (_, index) => index + 1));
        for (const number of elements(answer.text, 'LopnummerForZDagrapportPaKvitto').map(Number))
          expect(zNumbers).toContain(number);
      }),
      { numRuns: 6, endOnFailure: true },
    );
  });
});

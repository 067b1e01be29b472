/**
 * The receipt as a document over HTTP (docs/conventions.md §16, §17): every item of SKVFS 2014:9, 7 kap. 1 § in the JSON,
 * the 42-column text and the HTML page per `Accept`, the digital receipt that needs no credentials and is no copy, and
 * the Z report as text and HTML.
 */
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { activateRegister, registerApp, saleOf } from '../support/fiscal.ts';
import { type Answer, type CallOptions, expectError, v } from '../support/http.ts';
import { swedishCorporateId } from '../support/identity.ts';

let sellerId: string;
let corporateId: string;
let kassa: CallOptions;
const base = () => `/${sellerId}/registrations/K1`;

const PRODUCT = 'kaffe-mellanrost-ekologiskt-guatemala-1000g';
const NAME = 'Ekologiskt mellanrostat kaffe från Guatemala, hela bönor, storpack för kontoret';
const TEXT = { headers: { Accept: 'text/plain' } };
const HTML = { headers: { Accept: 'text/html' } };

const codePoints = (line: string) => [...line].length;
const linesOf = (answer: Answer) => answer.text.replace(/\n$/, '').split('\n');

beforeAll(async () => {
  corporateId = swedishCorporateId();
  sellerId = `SE${corporateId}`;
  kassa = await activateRegister(33, await registerApp(), corporateId, 'K1');
  const profile = await v(33).put(`/sellers/${sellerId}`, {
    corporateId,
    country: 'SE',
    publicAccess: true,
    workHoursWeek: {},
    name: 'Dagbutiken & Co',
    address: 'Storgatan 1',
    zip: '111 22',
    city: 'Stockholm',
    currency: 'SEK',
  });
  expect([profile.status, profile.text]).toEqual([204, '']);
});

describe('the receipt as a document', () => {
  let identifier: string;
  let receiptUrl: string;

  /** What opening a receipt must never change: the sale's prints and the register's journal. */
  async function snapshot() {
    const sales = await v(33).get(`/${sellerId}/sales?cashRegisterName=K1&maxResults=1000`, kassa);
    const journal = await v(33).get(`/${sellerId}/e-journals/K1?maxResults=1000`, kassa);
    const sale = (sales.body as { identifier: string; prints: unknown[] }[]).find((s) => s.identifier === identifier);
    return { prints: sale?.prints, journal: (journal.body as unknown[]).length };
  }

  it('answers every item of 7 kap. 1 § as JSON, and the printed receipt carries its digital link', async () => {
    const sale = saleOf(4480, {
      saleProducts: [
        { productIdentifier: PRODUCT, name: NAME, deltaUnit: true, delta: 2, vat: 896, netto: 3584, brutto: 4480, vatRate: 25 },
      ],
      payments: [{ paymentType: 'EmvStandalone', amount: 4480 }],
    });
    identifier = sale.identifier;
    expect((await v(33).post(`${base()}/sales`, sale, kassa)).status).toBe(201);
    const printed = await v(33).post(`${base()}/sales/${identifier}/receipt`, undefined, kassa);
    expect(printed.status).toBe(201);
    receiptUrl = (printed.body as { receiptUrl: string }).receiptUrl;
    expect(receiptUrl).toMatch(/^\/v33\/noauth\/receipts\/[A-Za-z0-9_-]{22}$/);

    const answer = await v(33).get(`${base()}/sales/${identifier}/receipt`, kassa);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json;charset=UTF-8');
    const receipt = answer.body as Record<string, unknown> & { lines: { name: string }[]; saleTime: number };
    expect(receipt).toMatchObject({
      sellerId,
      cashRegisterName: 'K1',
      receiptNumber: 1,
      printType: 'Normal',
      heading: 'KASSAKVITTO',
      markings: [],
      seller: { name: 'Dagbutiken & Co', corporateId, address: 'Storgatan 1', zip: '111 22', city: 'Stockholm' },
      register: { cashRegisterName: 'K1' },
      saleTimeLocal: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      timeZone: 'Europe/Stockholm',
      lines: [{ quantity: 2, salesUnit: 'Piece', amount: 4480, vatRate: 2500, articleType: 'GOODS' }],
      total: 4480,
      vat: 896,
      vatPerRate: [{ vatRate: 2500, netto: 3584, vat: 896, brutto: 4480 }],
      payments: [{ paymentType: 'EmvStandalone', amount: 4480 }],
      currency: 'SEK',
      receiptUrl,
      sale: { identifier },
    });
    // The line's frozen name, or its product where the register's name is not kept.
    expect([NAME, PRODUCT]).toContain(receipt.lines[0]?.name);
    expect(Object.keys(receipt.register as object).sort()).toEqual(['cashRegisterName', 'controlUnitSerial', 'productionNumber']);
    expect(receipt).toHaveProperty('controlNumber');
    expect(Math.abs(receipt.saleTime - Date.now())).toBeLessThan(600_000);
    // v26 names the payment type its own way.
    const v26 = await v(26).get(`${base()}/sales/${identifier}/receipt`, kassa);
    expect(v26.body).toMatchObject({ payments: [{ paymentType: 'Card', amount: 4480 }] });
  });

  it('answers text for an 80 mm printer: no line wider than 42, with the receipt number and total', async () => {
    for (const answer of [
      await v(33).get(`${base()}/sales/${identifier}/receipt`, { ...kassa, ...TEXT }),
      await v(15).get(`/${sellerId}/sales/${identifier}/receipt?cashRegisterName=K1`, { ...kassa, ...TEXT }),
      await v(33).get(`${base()}/sales/${identifier}/receipt`, { ...kassa, headers: { Accept: 'text/html;q=0.5, text/plain' } }),
    ]) {
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('text/plain; charset=UTF-8');
      expect(answer.headers.get('vary')).toBe('Accept');
      for (const line of linesOf(answer)) expect([line, codePoints(line) <= 42]).toEqual([line, true]);
      expect(answer.text).toMatch(/^Kvitto nr +1$/m);
      expect(answer.text).toMatch(/^ATT BETALA +44,80 SEK$/m);
      expect(answer.text).toContain('Dagbutiken & Co');
    }
  });

  it('answers an HTML page', async () => {
    const answer = await v(33).get(`${base()}/sales/${identifier}/receipt`, { ...kassa, ...HTML });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/html; charset=UTF-8');
    expect(answer.text).toMatch(/^<!DOCTYPE html>/);
    expect(answer.text).toContain('Dagbutiken &amp; Co');
    expect(answer.text).toContain('44,80 SEK');
    expect(answer.headers.get('content-security-policy')).toContain("default-src 'none'");
  });

  it('opens the digital link without credentials, in every version, and opening it is no copy', async () => {
    const before = await snapshot();
    const token = receiptUrl.split('/').pop() ?? '';
    for (let time = 0; time < 2; time++) {
      const page = await v(33).get(`/noauth/receipts/${token}`, { as: 'none', ...HTML });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=UTF-8');
      expect(page.text).toContain('Elektroniskt kassakvitto');
      expect(page.text).toContain('44,80 SEK');
      expect(page.text).not.toContain('KOPIA');
    }
    const browser = await v(15).get(`/noauth/receipts/${token}`, {
      as: 'none',
      headers: { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
    });
    expect([browser.status, browser.headers.get('content-type')]).toEqual([200, 'text/html; charset=UTF-8']);
    const json = await v(26).get(`/noauth/receipts/${token}`, { as: 'none' });
    expect(json.body).toMatchObject({ receiptNumber: 1, receiptUrl: `/v26/noauth/receipts/${token}`, markings: [] });
    const text = await v(33).get(`/noauth/receipts/${token}`, { as: 'none', ...TEXT });
    expect(text.text).toMatch(/^Kvitto nr +1$/m);
    // Credentials change nothing: the token is the credential.
    expect((await v(33).get(`/noauth/receipts/${token}`, { ...kassa, ...HTML })).status).toBe(200);

    expect(await snapshot()).toEqual(before);
  });

  it('answers 404 for a token it never made, or a malformed one', async () => {
    for (const token of [randomBytes(16).toString('base64url'), 'abc', 'x'.repeat(200), '%3Cscript%3E']) {
      expectError(await v(33).get(`/noauth/receipts/${token}`, { as: 'none' }), 404, 'NotFound');
    }
  });

  it("marks a copy KOPIA and shows its Normal's link", async () => {
    const copy = await v(33).get(`${base()}/sales/${identifier}/copy`, kassa);
    expect(copy.status).toBe(200);
    expect(copy.body).toMatchObject({ printType: 'Copy', receiptNumber: 1, markings: ['KOPIA'], receiptUrl });
  });

  it('answers the Z report of a closed day as text and HTML', async () => {
    expect((await v(33).post(`${base()}/days/current`, undefined, kassa)).status).toBe(201);
    const json = await v(33).get(`${base()}/days/1/report`, kassa);
    expect(json.body).toMatchObject({ type: 'Z', reportNumber: 1 });
    expect(json.headers.get('etag')).toMatch(/^"\d+"$/);

    const text = await v(33).get(`${base()}/days/1/report`, { ...kassa, ...TEXT });
    expect([text.status, text.headers.get('content-type')]).toEqual([200, 'text/plain; charset=UTF-8']);
    for (const line of linesOf(text)) expect([line, codePoints(line) <= 42]).toEqual([line, true]);
    expect(text.text).toContain('Z-DAGRAPPORT');
    expect(text.text).toMatch(/^Löpnummer +1$/m);
    expect(text.text).toMatch(/^Total försäljningssumma +44,80 SEK$/m);
    expect(text.text).toContain('Antal lådöppningar');

    const v15 = await v(15).get(`/${sellerId}/days/1/report?cashRegisterName=K1`, { ...kassa, ...TEXT });
    expect(v15.text).toContain('Z-DAGRAPPORT');

    const html = await v(33).get(`${base()}/days/1/report`, { ...kassa, ...HTML });
    expect([html.status, html.headers.get('content-type')]).toEqual([200, 'text/html; charset=UTF-8']);
    expect(html.text).toContain('<h1>Z-DAGRAPPORT</h1>');
    expect(html.text).toContain('Dagbutiken &amp; Co');
  });
});

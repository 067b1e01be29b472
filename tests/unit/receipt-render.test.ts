/** The receipt as a document and the renderings of receipts and reports (docs/conventions.md §16, §17), and content negotiation. */
import { describe, expect, it } from 'vitest';
import type { FiscalContext } from '#shared/fiscal/context.ts';
import type { Day, Print, Sale } from '#shared/fiscal/model.ts';
import { buildReceipt, receiptUrlOf, type ReceiptDocument } from '#shared/fiscal/receipt.ts';
import { columnsOf, money, receiptHtml, receiptText, twoColumns, WIDTH, wrap } from '#shared/fiscal/render.ts';
import { reportHtml, reportSections, reportText } from '#shared/fiscal/report-render.ts';
import { buildReport } from '#shared/fiscal/report.ts';
import { addTotals, emptyTotals, saleContribution } from '#shared/fiscal/totals.ts';
import { negotiate, negotiated } from '#shared/http/negotiate.ts';

const STOCKHOLM_0812 = Date.UTC(2025, 2, 14, 7, 12, 5); // 08:12:05 in Stockholm (CET)
const TOKEN = 'AAAAAAAAAAAAAAAAAAAAAA';

const context: FiscalContext = {
  sellerId: 'SE5560360793',
  seller: {
    name: 'Dagbutiken AB',
    corporateId: '5560360793',
    address: 'Storgatan 1',
    zip: '111 22',
    city: 'Stockholm',
    country: 'SE',
    currency: 'SEK',
  },
  register: { cashRegisterName: 'K1', productionNumber: 'PN000001', controlUnitSerial: 'CU-0001' },
  timeZone: 'Europe/Stockholm',
};

const LONG_NAME = 'Ekologiskt mellanrostat kaffe från Guatemala, hela bönor, storpack för kontoret (1000 g)';

function sale(fields: Partial<Sale> = {}): Sale {
  return {
    identifier: 's1',
    saleState: 'Paid',
    refund: false,
    refundFor: null,
    absoluteDiscount: 0,
    relativeDiscount: 0,
    vanillaBrutto: 4980,
    discount: 500,
    brutto: 4480,
    vat: 896,
    close: STOCKHOLM_0812,
    treasurer: 'Anna',
    saleProducts: [
      {
        productIdentifier: 'p1',
        deltaUnit: true,
        delta: 2,
        absoluteDiscount: 0,
        relativeDiscount: 0,
        vat: 896,
        netto: 3584,
        brutto: 4480,
        vanillaBrutto: 4980,
        discount: 500,
        name: LONG_NAME,
        group: 'Drycker',
        articleType: 'GOODS',
        quantity: 2,
        salesUnit: 'Piece',
        unitPrice: 2490,
        vatRate: 25,
      },
    ],
    prints: [
      { printType: 'Normal', receiptNumber: 42, created: STOCKHOLM_0812, controlNumber: 'X'.repeat(100), receiptToken: TOKEN },
    ],
    payments: [
      { paymentType: 'EmvStandalone', amount: 4480 },
      { paymentType: 'Cash', amount: 100, paymentState: 'REJECTED' },
    ],
    vatRateSums: [
      { vatRate: 2500, vanillaVat: 996, vanillaNetto: 3984, vanillaBrutto: 4980, vat: 896, netto: 3584, brutto: 4480 },
    ],
    day: 1,
    ...fields,
  };
}

const normal = (s: Sale): Print => s.prints[0] as Print;
const receiptOf = (s: Sale, print: Print = normal(s), version: 15 | 26 | 33 = 33): ReceiptDocument =>
  buildReceipt(context, s, print, version, receiptUrlOf(s, print, version));

/** Every line of a text, in code points, fits the printer. */
function expectFits(text: string): void {
  const lines = text.split('\n');
  for (const line of lines) expect([line, columnsOf(line)]).toEqual([line, Math.min(columnsOf(line), WIDTH)]);
}

describe('the receipt document (7 kap. 1 §)', () => {
  it('carries every item: seller, address, time, number, register, lines, VAT, payments, control unit, currency, link', () => {
    const receipt = receiptOf(sale());
    expect(receipt).toMatchObject({
      sellerId: 'SE5560360793',
      cashRegisterName: 'K1',
      receiptNumber: 42,
      printType: 'Normal',
      heading: 'KASSAKVITTO',
      markings: [],
      seller: { name: 'Dagbutiken AB', corporateId: '5560360793', address: 'Storgatan 1', zip: '111 22', city: 'Stockholm' },
      register: { cashRegisterName: 'K1', productionNumber: 'PN000001', controlUnitSerial: 'CU-0001' },
      saleTime: STOCKHOLM_0812,
      saleTimeLocal: '2025-03-14 08:12:05',
      lines: [
        {
          name: LONG_NAME,
          quantity: 2,
          salesUnit: 'Piece',
          unitPrice: 2490,
          amount: 4480,
          discount: 500,
          vatRate: 2500,
          articleType: 'GOODS',
          group: 'Drycker',
        },
      ],
      discount: 500,
      total: 4480,
      vat: 896,
      vatPerRate: [{ vatRate: 2500, netto: 3584, vat: 896, brutto: 4480 }],
      // The rejected payment does not count.
      payments: [{ paymentType: 'EmvStandalone', amount: 4480 }],
      controlNumber: 'X'.repeat(100),
      currency: 'SEK',
      receiptUrl: `/v33/noauth/receipts/${TOKEN}`,
    });
    // Payment types as the version names them.
    expect(receiptOf(sale(), undefined, 26).payments).toEqual([{ paymentType: 'Card', amount: 4480 }]);
    expect(receiptOf(sale(), undefined, 15).receiptUrl).toBe(`/v15/noauth/receipts/${TOKEN}`);
  });

  it('falls back on lines stored before they named what was sold', () => {
    const old = sale({
      saleProducts: [
        {
          productIdentifier: 'p1',
          deltaUnit: true,
          delta: 3,
          absoluteDiscount: 0,
          relativeDiscount: 0,
          vat: 60,
          netto: 240,
          brutto: 300,
          vanillaBrutto: 300,
          discount: 0,
        },
        {
          productIdentifier: 'gift',
          deltaUnit: false,
          delta: 5000,
          absoluteDiscount: 0,
          relativeDiscount: 0,
          vat: 0,
          netto: 5000,
          brutto: 5000,
          vanillaBrutto: 5000,
          discount: 0,
        },
      ],
    });
    expect(receiptOf(old).lines).toEqual([
      {
        name: 'p1',
        quantity: 3,
        salesUnit: 'Piece',
        unitPrice: null,
        amount: 300,
        discount: 0,
        vatRate: 2500,
        articleType: 'GOODS',
        group: null,
      },
      {
        name: 'gift',
        quantity: 1,
        salesUnit: null,
        unitPrice: null,
        amount: 5000,
        discount: 0,
        vatRate: 0,
        articleType: 'GOODS',
        group: null,
      },
    ]);
  });

  it('marks a copy, a training receipt and a pro forma; a copy shows its Normal link, a pro forma none', () => {
    const copy: Print = { printType: 'Copy', receiptNumber: 42, created: STOCKHOLM_0812 + 60_000 };
    const proforma: Print = { printType: 'Proforma', receiptNumber: null };
    const withCopy = sale({ prints: [...sale().prints, copy] });
    expect(receiptOf(withCopy, copy)).toMatchObject({ markings: ['KOPIA'], receiptUrl: `/v33/noauth/receipts/${TOKEN}` });
    expect(receiptOf(sale({ training: true }))).toMatchObject({
      heading: 'ÖVNINGSKVITTO',
      markings: ['ÖVNINGSKVITTO'],
      training: true,
    });
    expect(receiptOf(sale({ prints: [proforma] }), proforma)).toMatchObject({
      heading: 'PRO FORMA',
      markings: ['EJ KVITTO'],
      receiptUrl: null,
    });
    expect(receiptOf(sale({ refund: true, refundFor: 41 }))).toMatchObject({
      heading: 'RETURKVITTO',
      refund: true,
      refundFor: 41,
    });
    // Without a close time, the print's.
    expect(receiptOf(sale({ close: null })).saleTime).toBe(STOCKHOLM_0812);
  });
});

describe('the receipt as text (80 mm, 42 columns)', () => {
  it('never writes a line wider than 42 code points, whatever the names and codes', () => {
    const nasty = sale({
      treasurer: 'Anna-Karin Östergren-Wallenberg af Sjöholmen Tredje',
      saleProducts: [
        ...sale().saleProducts,
        { ...(sale().saleProducts[0] as Sale['saleProducts'][number]), name: 'Ä'.repeat(100), brutto: 123_456_789 },
        {
          ...(sale().saleProducts[0] as Sale['saleProducts'][number]),
          name: 'tab\tand\nnewline 😀😀😀',
          salesUnit: 'Kilogram',
          quantity: 0.512,
        },
      ],
    });
    for (const print of [normal(nasty), { printType: 'Copy', receiptNumber: 42 } as Print]) {
      const text = receiptText(receiptOf(nasty, print));
      expectFits(text);
      expect(text).not.toMatch(/\t/);
    }
  });

  it('shows the receipt number, the total with the currency, VAT and payments, right-aligned', () => {
    const text = receiptText(receiptOf(sale()));
    const lines = text.split('\n');
    expect(text).toContain('Kvitto nr');
    expect(lines.find((line) => line.startsWith('Kvitto nr'))?.endsWith(' 42')).toBe(true);
    const total = lines.find((line) => line.startsWith('ATT BETALA'));
    expect(total).toBe(`ATT BETALA${' '.repeat(WIDTH - 'ATT BETALA'.length - '44,80 SEK'.length)}44,80 SEK`);
    expect(text).toContain('Org.nr 556036-0793');
    expect(text).toContain('2025-03-14 08:12:05');
    expect(text).toMatch(/^Kort +44,80 SEK$/m);
    expect(text).toContain('2 st à 24,90 SEK');
    expect(text).toContain('CU-0001');
  });

  it('puts the markings at the top and the bottom', () => {
    for (const [fields, print, word] of [
      [{}, { printType: 'Copy', receiptNumber: 42 }, 'KOPIA'],
      [{ training: true }, undefined, 'ÖVNINGSKVITTO'],
      [{}, { printType: 'Proforma', receiptNumber: null }, 'EJ KVITTO'],
    ] as const) {
      const s = sale(fields);
      const lines = receiptText(receiptOf(s, (print as Print | undefined) ?? normal(s)))
        .trimEnd()
        .split('\n');
      expect(lines.slice(0, 3).some((line) => line.includes(`*** ${word} ***`))).toBe(true);
      expect(lines.slice(-3).some((line) => line.includes(`*** ${word} ***`))).toBe(true);
    }
  });

  it('lays out amounts in Swedish notation and wraps long labels', () => {
    expect(money(4480, 'SEK')).toBe('44,80 SEK');
    expect(money(-123456789)).toBe('-1 234 567,89');
    expect(money(5)).toBe('0,05');
    expect(wrap('a'.repeat(50))).toEqual(['a'.repeat(42), 'a'.repeat(8)]);
    const laid = twoColumns('x '.repeat(30), '1 000,00 SEK');
    for (const line of laid) expect(columnsOf(line)).toBeLessThanOrEqual(WIDTH);
    expect(laid.at(-1)?.endsWith('1 000,00 SEK')).toBe(true);
  });
});

describe('the receipt as HTML', () => {
  it('is one self-contained page that escapes every text', () => {
    const evil = sale({
      treasurer: '<img src=x onerror=alert(1)>',
      saleProducts: [
        { ...(sale().saleProducts[0] as Sale['saleProducts'][number]), name: '<script>alert("x")</script> & "more"' },
      ],
    });
    const html = receiptHtml({ ...receiptOf(evil), seller: { ...context.seller, name: "O'Brien <b>" } });
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &quot;more&quot;');
    expect(html).toContain('O&#39;Brien &lt;b&gt;');
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).not.toMatch(/<(link|img|script|iframe)|\shref=|url\(/i);
    expect(html).toContain('Elektroniskt kassakvitto');
    expect(html).toContain('44,80 SEK');
  });

  it('shows the marking large, at the top and the bottom', () => {
    const html = receiptHtml(receiptOf(sale({ training: true })));
    expect(html.match(/<p class="marking">ÖVNINGSKVITTO<\/p>/g)).toHaveLength(2);
    expect(html).toMatch(/\.marking\{font-size:2\.2rem/);
  });
});

describe('the X and Z report as text and HTML', () => {
  const day: Day = {
    dayNumber: 7,
    date: 20250314,
    opened: false,
    reportPrinted: false,
    open: STOCKHOLM_0812 - 3_600_000,
    close: STOCKHOLM_0812 + 36_000_000,
    cash: 0,
  };
  const totals = addTotals(saleContribution(sale({ prints: [normal(sale())] })), emptyTotals());
  const report = buildReport({
    seller: { name: 'Dagbutiken AB', corporateId: '5560360793', address: 'Storgatan 1', country: 'SE' },
    register: context.register,
    day,
    totals,
    grandTotals: { sales: 4480, refunds: 0 },
    produced: STOCKHOLM_0812 + 36_000_000,
  });
  const rendering = { currency: 'SEK', timeZone: 'Europe/Stockholm' };

  it('labels every section in Swedish, amounts with the currency, within 42 columns', () => {
    const text = reportText(report, rendering);
    expectFits(text);
    for (const words of [
      'Z-DAGRAPPORT',
      'Löpnummer',
      'Kassabeteckning',
      'Total försäljningssumma',
      'Växelkassa',
      'Antal lådöppningar',
      'Antal kassakvitton',
      'Grand total netto',
      'Moms 25 %',
    ]) {
      expect(text).toContain(words);
    }
    expect(text).toMatch(/^Total försäljningssumma +44,80 SEK$/m);
    expect(text).toMatch(/^Löpnummer +7$/m);
    expect(text).toMatch(/^Kort +1 st, 44,80 SEK$/m);
  });

  it('an X report says so and has no löpnummer', () => {
    const x = buildReport({
      ...{ seller: report.seller, register: report.register },
      day: { ...day, opened: true, close: null },
      totals,
      grandTotals: { sales: 0, refunds: 0 },
      produced: STOCKHOLM_0812,
    });
    const text = reportText(x, rendering);
    expect(text).toContain('X-DAGRAPPORT');
    expect(text).not.toContain('Löpnummer');
  });

  it('is the same sections as an escaped HTML page', () => {
    const html = reportHtml({ ...report, seller: { ...report.seller, name: '<script>x</script>' } }, rendering);
    expect(html).not.toContain('<script');
    expect(html).toContain('&lt;script&gt;');
    expect(html).toContain('<h1>Z-DAGRAPPORT</h1>');
    for (const section of reportSections(report, rendering)) if (section.title) expect(html).toContain(section.title);
  });
});

describe('content negotiation', () => {
  it('picks by media type and q-value, JSON without a preference', () => {
    expect(negotiate(undefined)).toBe('json');
    expect(negotiate('')).toBe('json');
    expect(negotiate('*/*')).toBe('json');
    expect(negotiate('application/json')).toBe('json');
    expect(negotiate('text/plain')).toBe('text');
    expect(negotiate('text/html')).toBe('html');
    expect(negotiate('text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8')).toBe('html');
    expect(negotiate('text/plain;q=0.5, text/html;q=0.9')).toBe('html');
    expect(negotiate('text/html;q=0.1, application/json;q=0.2')).toBe('json');
    expect(negotiate('text/*')).toBe('text');
    expect(negotiate('text/html, */*')).toBe('html');
    expect(negotiate('text/html;q=0, */*')).toBe('json');
    expect(negotiate('image/png')).toBe('json');
    expect(negotiate('garbage')).toBe('json');
    expect(negotiate('*/*', 'html')).toBe('html');
    expect(negotiate(undefined, 'html')).toBe('html');
    expect(negotiate('application/json', 'html')).toBe('json');
  });

  it('answers the rendering with its media type, charset and Vary; the JSON with its ETag', () => {
    const render = { text: () => 'T', html: () => '<p>H</p>' };
    expect(negotiated({ accept: 'text/plain' }, { a: 1 }, render, { etag: 3 })).toEqual({
      status: 200,
      text: { body: 'T', contentType: 'text/plain; charset=UTF-8' },
      headers: { Vary: 'Accept' },
    });
    expect(negotiated({}, { a: 1 }, render, { etag: 3 })).toEqual({
      status: 200,
      body: { a: 1 },
      headers: { Vary: 'Accept', ETag: '"3"' },
    });
    const page = negotiated({ accept: 'text/html' }, { a: 1 }, render);
    expect(page.text?.contentType).toBe('text/html; charset=UTF-8');
    expect(page.headers?.['Content-Security-Policy']).toContain("default-src 'none'");
  });
});

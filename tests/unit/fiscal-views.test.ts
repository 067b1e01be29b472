import type { ValidateFunction } from 'ajv';
import { describe, expect, it } from 'vitest';
import { dayFromBody, dayMinified, dayView, saleFromBody, saleOverview, saleView } from '#functions/fiscal/views.ts';
import * as validators from '#schemas/generated/validators.js';
import type { SaleBody } from '#schemas/types.ts';
import { PAYMENT_TYPES, type Day, type Sale } from '#shared/fiscal/model.ts';
import { PAYMENT_TYPE_NAMES, paymentTypeFrom, paymentTypeIn } from '#shared/fiscal/payment-types.ts';
import { validate } from '#shared/http/validation.ts';
import { API_VERSIONS, type ApiVersion } from '#shared/versions.ts';

const [saleV15, saleV26, saleV33, day] = await Promise.all([
  validators.saleV15.load(),
  validators.saleV26.load(),
  validators.saleV33.load(),
  validators.day.load(),
]);

/** A sale as v15 writes it, with every field it knows. */
const v15Body = () => ({
  identifier: 'a8f1c2e0-0001',
  sellerIdentifier: 'till-7',
  saleState: 'Paid',
  refund: false,
  refundFor: null,
  absoluteDiscount: 100,
  relativeDiscount: 0,
  vanillaBrutto: 3600,
  discount: 100,
  brutto: 3500,
  vat: 700,
  controlUnitId: 'CU-0001',
  treasurer: 'anna-1',
  close: 1706700000000,
  training: false,
  saleProducts: [
    {
      productIdentifier: 'coffee',
      deltaUnit: true,
      delta: 2,
      absoluteDiscount: 100,
      relativeDiscount: 0,
      vat: 700,
      netto: 2800,
      brutto: 3500,
      vanillaBrutto: 3600,
      discount: 100,
      created: 1706699990000,
      name: 'Kaffe',
      group: 'Drycker',
      articleType: 'GOODS',
      quantity: 2,
      salesUnit: 'Piece',
      unitPrice: 1800,
    },
  ],
  prints: [
    {
      receiptNumber: 41,
      printType: 'Normal',
      deliveryType: 'Print',
      controlNumber: 'CODE-41',
      created: 1706700001000,
      printed: true,
    },
  ],
  payments: [
    { paymentType: 'Card', amount: 3000, paymentState: 'APPROVED' },
    { paymentType: 'ProviderD', amount: 500, paymentState: null },
  ],
  vatRateSums: [{ vatRate: 2500, vanillaVat: 720, vanillaNetto: 2880, vanillaBrutto: 3600, vat: 700, netto: 2800, brutto: 3500 }],
});

/** The same sale as v26 writes it: its day (read-only) and the three line fields added. */
const v26Body = () => {
  const body = v15Body();
  return {
    ...body,
    day: 3,
    saleProducts: body.saleProducts.map((line) => ({ ...line, productBrutto: 1800, vatRate: 25, effectiveBrutto: 3500 })),
  };
};

/** The same sale as v33 writes it: the payment types by their v33 names. */
const v33Body = () => ({
  ...v26Body(),
  payments: [
    { paymentType: 'EmvStandalone', amount: 3000, paymentState: 'APPROVED' },
    { paymentType: 'EmvIntegrated', amount: 500, paymentState: null },
  ],
});

/** The canonical sale the server stores for a body: the identifier it keeps and the day it was recorded in. */
const stored = (fields: Omit<Sale, 'day' | 'postDigest' | 'identifier'>, dayNumber = 3): Sale => ({
  ...fields,
  identifier: 'a8f1c2e0-0001',
  day: dayNumber,
});

describe('payment type names', () => {
  it('v15 and v26 say Card for EmvStandalone and ProviderD for EmvIntegrated; v33 uses the canonical names', () => {
    for (const version of [15, 26] as const) {
      expect(paymentTypeIn('EmvStandalone', version)).toBe('Card');
      expect(paymentTypeIn('EmvIntegrated', version)).toBe('ProviderD');
      expect(paymentTypeFrom('Card', version)).toBe('EmvStandalone');
      expect(paymentTypeFrom('ProviderD', version)).toBe('EmvIntegrated');
    }
    expect(PAYMENT_TYPES.map((type) => paymentTypeIn(type, 33))).toEqual([...PAYMENT_TYPES]);
  });

  it('the other five are the same in every version', () => {
    for (const version of API_VERSIONS) {
      for (const type of ['Cash', 'WalletA', 'ProviderB', 'ProviderC', 'ClosePayment'] as const) {
        expect(paymentTypeIn(type, version)).toBe(type);
        expect(paymentTypeFrom(type, version)).toBe(type);
      }
    }
  });

  it.each(API_VERSIONS)('v%i maps its seven names both ways', (version) => {
    const names = PAYMENT_TYPES.map((type) => paymentTypeIn(type, version));
    expect(names).toEqual([...PAYMENT_TYPE_NAMES[version]]);
    expect(names.map((name) => paymentTypeFrom(name, version))).toEqual([...PAYMENT_TYPES]);
  });

  it('a name of another version is no payment type of this one', () => {
    expect(() => paymentTypeFrom('Card', 33)).toThrow();
    expect(() => paymentTypeFrom('EmvIntegrated', 15)).toThrow();
  });
});

describe('a sale written and read through each version', () => {
  it.each<[ApiVersion, ValidateFunction<SaleBody>, () => object]>([
    [15, saleV15, v15Body],
    [26, saleV26, v26Body],
    [33, saleV33, v33Body],
  ])('v%i reads back what it wrote', (version, validator, body) => {
    const written = saleFromBody(validate(validator, body()), version);
    expect(saleView(stored(written), version)).toEqual(body());
  });

  it('stores the payment types by their canonical names', () => {
    const written = saleFromBody(validate(saleV15, v15Body()), 15);
    expect(written.payments.map((payment) => payment.paymentType)).toEqual(['EmvStandalone', 'EmvIntegrated']);
    expect(saleFromBody(validate(saleV33, v33Body()), 33)).toEqual(saleFromBody(validate(saleV26, v26Body()), 26));
  });

  it('ignores the day a body names: the server records the sale in its own day', () => {
    const written = saleFromBody(validate(saleV26, { ...v26Body(), day: 99 }), 26);
    expect(written).not.toHaveProperty('day');
    expect(saleView(stored(written, 3), 26)).toMatchObject({ day: 3 });
  });

  it('shows a sale of v26 to v15 without its day and line fields, and in the v15 payment names', () => {
    const written = saleFromBody(validate(saleV33, v33Body()), 33);
    expect(saleView(stored(written), 15)).toEqual(v15Body());
  });

  it('shows a sale of v15 to v33 with null line fields: a register writes its sales whole, nothing to merge', () => {
    const written = saleFromBody(validate(saleV15, v15Body()), 15);
    const [line] = saleView(stored(written), 33).saleProducts;
    expect(line).toMatchObject({ productBrutto: null, vatRate: null, effectiveBrutto: null });
  });

  it('shows every absent optional value as null', () => {
    const minimal = {
      identifier: null,
      saleState: 'Open',
      refund: false,
      brutto: 0,
      vat: 0,
      saleProducts: [],
      payments: [],
      vatRateSums: [],
      prints: [{ printType: 'Proforma' }],
    };
    const written = saleFromBody(validate(saleV33, minimal), 33);
    expect(saleView(stored(written), 33)).toEqual({
      identifier: 'a8f1c2e0-0001',
      sellerIdentifier: null,
      saleState: 'Open',
      refund: false,
      refundFor: null,
      absoluteDiscount: 0,
      relativeDiscount: 0,
      vanillaBrutto: 0,
      discount: 0,
      brutto: 0,
      vat: 0,
      controlUnitId: null,
      treasurer: null,
      close: null,
      training: false,
      day: 3,
      saleProducts: [],
      prints: [
        { receiptNumber: null, printType: 'Proforma', deliveryType: null, controlNumber: null, created: null, printed: null },
      ],
      payments: [],
      vatRateSums: [],
    });
  });

  it('fills the figures a register that does not discount leaves out: no discount, undiscounted = discounted + discount', () => {
    const body = {
      ...v15Body(),
      absoluteDiscount: null,
      relativeDiscount: null,
      vanillaBrutto: null,
      discount: 250,
      saleProducts: [{ productIdentifier: 'tea', deltaUnit: false, delta: 3500, vat: 700, netto: 2800, brutto: 3500 }],
      vatRateSums: [{ vatRate: 2500, vat: 700, netto: 2800, brutto: 3500 }],
    };
    const written = saleFromBody(validate(saleV15, body), 15);
    expect(written).toMatchObject({ absoluteDiscount: 0, relativeDiscount: 0, discount: 250, vanillaBrutto: 3750 });
    expect(written.saleProducts[0]).toMatchObject({ absoluteDiscount: 0, relativeDiscount: 0, discount: 0, vanillaBrutto: 3500 });
    expect(written.vatRateSums[0]).toEqual({
      vatRate: 2500,
      vanillaVat: 700,
      vanillaNetto: 2800,
      vanillaBrutto: 3500,
      vat: 700,
      netto: 2800,
      brutto: 3500,
    });
  });
});

describe('the sale overview (sales-minified)', () => {
  const sale = (fields: Partial<Sale> = {}) => ({ ...stored(saleFromBody(validate(saleV33, v33Body()), 33)), ...fields });

  it('names the sale, its Normal receipt, register, totals and treasurer (v26)', () => {
    expect(saleOverview(sale(), 'Kassa 1', 26)).toEqual({
      id: 'a8f1c2e0-0001',
      close: 1706700000000,
      brutto: 3500,
      receiptNumber: 41,
      cashRegisterName: 'Kassa 1',
      vatSum: 700,
      treasurer: [{ identifier: 'anna-1' }],
    });
  });

  it('v33 adds trip, null: no sale belongs to a trip', () => {
    expect(saleOverview(sale(), 'Kassa 1', 33)).toMatchObject({ trip: null });
    expect(saleOverview(sale(), 'Kassa 1', 26)).not.toHaveProperty('trip');
  });

  it('takes the number of the Normal print, not of a proforma or copy before it', () => {
    const prints = [
      { receiptNumber: null, printType: 'Proforma' as const },
      { receiptNumber: 40, printType: 'Copy' as const },
      { receiptNumber: 41, printType: 'Normal' as const },
    ];
    expect(saleOverview(sale({ prints }), 'Kassa 1', 33).receiptNumber).toBe(41);
  });

  it('an unprinted sale without a treasurer has no receipt number and an empty treasurer list', () => {
    const overview = saleOverview(sale({ prints: [{ receiptNumber: null, printType: 'Proforma' }], treasurer: null }), 'K', 33);
    expect(overview).toMatchObject({ receiptNumber: null, treasurer: [] });
  });
});

describe('days', () => {
  const openDay: Day & { version: number; modified: number } = {
    dayNumber: 3,
    date: 20240131,
    opened: true,
    reportPrinted: false,
    open: 1706688000000,
    cash: 12500,
    version: 17,
    modified: 1706700000000,
  };

  it('v26 and v33 show the Day with its id, date, version and modified; absent values as null', () => {
    for (const version of [26, 33] as const) {
      expect(dayView(openDay, version)).toEqual({
        id: 3,
        date: 20240131,
        dayNumber: 3,
        opened: true,
        reportPrinted: false,
        open: 1706688000000,
        close: null,
        cash: 12500,
        cashAtClose: null,
        grandTotal: null,
        grandTotalRefund: null,
        closedDayTreasurer: null,
        version: 17,
        modified: 1706700000000,
      });
    }
  });

  it('a closed day shows its frozen figures', () => {
    const closed = {
      ...openDay,
      opened: false,
      close: 1706720000000,
      cashAtClose: 12500,
      grandTotal: 900000,
      grandTotalRefund: 2500,
      closedDayTreasurer: 'anna-1',
    };
    expect(dayView(closed, 33)).toMatchObject({
      opened: false,
      close: 1706720000000,
      cashAtClose: 12500,
      grandTotal: 900000,
      grandTotalRefund: 2500,
      closedDayTreasurer: 'anna-1',
    });
  });

  it('the minified form, and v15 lists, are {id, date}', () => {
    expect(dayMinified(openDay)).toEqual({ id: 3, date: 20240131 });
    expect(dayView(openDay, 15)).toEqual({ id: 3, date: 20240131 });
  });

  it('a body writes only opened (false: close the day) and closedDayTreasurer', () => {
    expect(dayFromBody(validate(day, {}))).toEqual({ opened: true, closedDayTreasurer: null });
    expect(dayFromBody(validate(day, { opened: true, cash: 99, dayNumber: 8 }))).toEqual({
      opened: true,
      closedDayTreasurer: null,
    });
    expect(dayFromBody(validate(day, { opened: false, closedDayTreasurer: 'anna-1', reportPrinted: true }))).toEqual({
      opened: false,
      closedDayTreasurer: 'anna-1',
    });
    expect(dayFromBody(validate(day, { opened: null }))).toEqual({ opened: true, closedDayTreasurer: null });
  });

  it('a day read by a list can be sent back as it is: the server fields are ignored', () => {
    const read = dayView(openDay, 33);
    expect(dayFromBody(validate(day, read))).toEqual({ opened: true, closedDayTreasurer: null });
  });
});

import type { ValidateFunction } from 'ajv';
import { describe, expect, it } from 'vitest';
import { MAX_PAYMENTS, MAX_PRINTS, MAX_SALE_PRODUCTS, MAX_VAT_RATE_SUMS } from '#schemas/fiscal.ts';
import * as validators from '#schemas/generated/validators.js';
import { validate } from '#shared/http/validation.ts';
import { rejection } from '../support/rejection.ts';

const [saleV15, saleV26, saleV33, day, balanceChange, journalUpload] = await Promise.all([
  validators.saleV15.load(),
  validators.saleV26.load(),
  validators.saleV33.load(),
  validators.day.load(),
  validators.balanceChange.load(),
  validators.journalUpload.load(),
]);

const INT32_MAX = 2147483647;

const line = () => ({ productIdentifier: 'coffee', deltaUnit: true, delta: 1, vat: 500, netto: 2000, brutto: 2500 });
const print = () => ({ receiptNumber: 1, printType: 'Normal' });
const payment = () => ({ paymentType: 'Cash', amount: 2500 });
const vatRateSum = () => ({ vatRate: 2500, vat: 500, netto: 2000, brutto: 2500 });

/** The smallest sale every version takes. */
const sale = (fields: Record<string, unknown> = {}) => ({
  identifier: null,
  saleState: 'Paid',
  refund: false,
  brutto: 2500,
  vat: 500,
  saleProducts: [line()],
  payments: [payment()],
  vatRateSums: [vatRateSum()],
  prints: [print()],
  ...fields,
});

/** `record` without `field`, as a client that leaves it out sends it. */
const without = (record: object, field: string) => Object.fromEntries(Object.entries(record).filter(([key]) => key !== field));

const versions: [string, ValidateFunction][] = [
  ['v15', saleV15],
  ['v26', saleV26],
  ['v33', saleV33],
];

describe('the sale schemas', () => {
  it.each(versions)('%s takes the smallest sale', (_, validator) => {
    expect(validate(validator, sale())).toEqual(sale());
  });

  it.each(['identifier', 'saleState', 'refund', 'brutto', 'vat', 'saleProducts', 'payments', 'vatRateSums', 'prints'])(
    'refuses a sale without %s: SHOULD_NOT_BE_NULL',
    (field) => {
      expect(rejection(saleV33, without(sale(), field))).toEqual({
        status: 400,
        exception: 'ValueNotValid',
        code: 'SHOULD_NOT_BE_NULL',
        details: { field },
      });
    },
  );

  it.each(['saleState', 'refund', 'brutto', 'vat', 'saleProducts', 'payments', 'vatRateSums', 'prints'])(
    'refuses a sale whose %s is null: SHOULD_NOT_BE_NULL',
    (field) => {
      expect(rejection(saleV26, sale({ [field]: null }))).toMatchObject({ code: 'SHOULD_NOT_BE_NULL', details: { field } });
    },
  );

  it('takes null in every other field of a sale', () => {
    const nulls = {
      sellerIdentifier: null,
      refundFor: null,
      absoluteDiscount: null,
      relativeDiscount: null,
      vanillaBrutto: null,
      discount: null,
      controlUnitId: null,
      day: null,
      treasurer: null,
      close: null,
    };
    expect(validate(saleV33, sale(nulls))).toEqual(sale(nulls));
  });

  it.each([
    ['saleProducts', MAX_SALE_PRODUCTS, line],
    ['payments', MAX_PAYMENTS, payment],
    ['prints', MAX_PRINTS, print],
    ['vatRateSums', MAX_VAT_RATE_SUMS, vatRateSum],
  ] as [string, number, () => object][])(
    'takes %s up to %i items and refuses one more: SIZE_SHOULD_BE_LESS_THEN',
    (field, max, item) => {
      const items = (count: number) => Array.from({ length: count }, item);
      expect(() => validate(saleV33, sale({ [field]: items(max) }))).not.toThrow();
      expect(rejection(saleV33, sale({ [field]: items(max + 1) }))).toEqual({
        status: 400,
        exception: 'ValueNotValid',
        code: 'SIZE_SHOULD_BE_LESS_THEN',
        details: { field, actualValue: max + 1, sizeMax: max },
      });
    },
  );

  it.each([
    ['sellerIdentifier', 1, 32],
    ['controlUnitId', 1, 20],
  ] as const)('takes %s of %i to %i characters: SIZE_SHOULD_BE_IN_RANGE', (field, min, max) => {
    expect(() => validate(saleV33, sale({ [field]: 'x'.repeat(max) }))).not.toThrow();
    for (const value of ['x'.repeat(min - 1), 'x'.repeat(max + 1)]) {
      expect(rejection(saleV33, sale({ [field]: value }))).toEqual({
        status: 400,
        exception: 'ValueNotValid',
        code: 'SIZE_SHOULD_BE_IN_RANGE',
        details: { field, actualValue: value.length, sizeMin: min, sizeMax: max },
      });
    }
  });

  it('takes a print control number of 1 to 100 characters', () => {
    const printed = (controlNumber: string) => sale({ prints: [{ ...print(), controlNumber }] });
    expect(() => validate(saleV33, printed('x'.repeat(100)))).not.toThrow();
    expect(rejection(saleV33, printed('x'.repeat(101)))).toMatchObject({
      code: 'SIZE_SHOULD_BE_IN_RANGE',
      details: { field: 'prints[0].controlNumber', actualValue: 101, sizeMin: 1, sizeMax: 100 },
    });
    expect(rejection(saleV33, printed(''))).toMatchObject({ code: 'SIZE_SHOULD_BE_IN_RANGE', details: { actualValue: 0 } });
  });

  it('takes a treasurer identifier only', () => {
    expect(() => validate(saleV33, sale({ treasurer: 'anna-1' }))).not.toThrow();
    expect(rejection(saleV33, sale({ treasurer: 'a:b' }))).toMatchObject({
      code: 'SHOULD_MATCH_PATTERN',
      details: { field: 'treasurer', actualValue: 'a:b' },
    });
    expect(rejection(saleV33, sale({ treasurer: 'x'.repeat(51) }))).toMatchObject({
      code: 'SIZE_SHOULD_BE_IN_RANGE',
      details: { field: 'treasurer', sizeMin: 1, sizeMax: 50 },
    });
  });

  /** Every money field of a sale, as a path and a body with that field set. */
  const moneyFields: [string, (value: number) => Record<string, unknown>][] = [
    ...['absoluteDiscount', 'relativeDiscount', 'vanillaBrutto', 'discount', 'brutto', 'vat'].map(
      (field): [string, (value: number) => Record<string, unknown>] => [field, (value) => sale({ [field]: value })],
    ),
    ...[
      'absoluteDiscount',
      'relativeDiscount',
      'vat',
      'netto',
      'brutto',
      'vanillaBrutto',
      'discount',
      'productBrutto',
      'effectiveBrutto',
    ].map((field): [string, (value: number) => Record<string, unknown>] => [
      `saleProducts[0].${field}`,
      (value) => sale({ saleProducts: [{ ...line(), [field]: value }] }),
    ]),
    ['payments[0].amount', (value) => sale({ payments: [{ ...payment(), amount: value }] })],
    ...['vanillaVat', 'vanillaNetto', 'vanillaBrutto', 'vat', 'netto', 'brutto'].map(
      (field): [string, (value: number) => Record<string, unknown>] => [
        `vatRateSums[0].${field}`,
        (value) => sale({ vatRateSums: [{ ...vatRateSum(), [field]: value }] }),
      ],
    ),
  ];

  it.each(moneyFields)('refuses a negative %s: VALUE_SHOULD_NOT_BE_NEGATIVE', (field, body) => {
    expect(rejection(saleV33, body(-1))).toEqual({
      status: 400,
      exception: 'ValueNotValid',
      code: 'VALUE_SHOULD_NOT_BE_NEGATIVE',
      details: { field, actualValue: -1, valueMin: 0 },
    });
  });

  it.each(moneyFields)('takes %s up to the largest int32 and refuses more: VALUE_SHOULD_BE_LESS_THEN', (field, body) => {
    expect(() => validate(saleV33, body(INT32_MAX))).not.toThrow();
    expect(rejection(saleV33, body(INT32_MAX + 1))).toMatchObject({
      code: 'VALUE_SHOULD_BE_LESS_THEN',
      details: { field, actualValue: INT32_MAX + 1, valueMax: INT32_MAX },
    });
  });

  it('takes any int32 delta, a negative one too', () => {
    const delta = (value: number) => sale({ saleProducts: [{ ...line(), delta: value }] });
    expect(() => validate(saleV33, delta(-2147483648))).not.toThrow();
    expect(rejection(saleV33, delta(-2147483649))).toMatchObject({
      code: 'VALUE_SHOULD_BE_GREATER_THEN',
      details: { field: 'saleProducts[0].delta', valueMin: -2147483648 },
    });
    expect(rejection(saleV33, delta(INT32_MAX + 1))).toMatchObject({
      code: 'VALUE_SHOULD_BE_LESS_THEN',
      details: { field: 'saleProducts[0].delta', valueMax: INT32_MAX },
    });
  });

  it('takes a sum VAT rate of 0 to 10000 hundredths of a percent', () => {
    const rate = (vatRate: number) => sale({ vatRateSums: [{ ...vatRateSum(), vatRate }] });
    expect(() => validate(saleV33, rate(0))).not.toThrow();
    expect(() => validate(saleV33, rate(10000))).not.toThrow();
    expect(rejection(saleV33, rate(10001))).toMatchObject({
      code: 'VALUE_SHOULD_BE_LESS_THEN',
      details: { field: 'vatRateSums[0].vatRate', actualValue: 10001, valueMax: 10000 },
    });
    expect(rejection(saleV33, rate(-1))).toMatchObject({
      code: 'VALUE_SHOULD_NOT_BE_NEGATIVE',
      details: { field: 'vatRateSums[0].vatRate', valueMin: 0 },
    });
  });

  it.each<[string, ValidateFunction]>([
    ['v26', saleV26],
    ['v33', saleV33],
  ])('%s takes a line VAT rate of 0 to 100 percent', (_, validator) => {
    const rate = (vatRate: number) => sale({ saleProducts: [{ ...line(), vatRate }] });
    expect(() => validate(validator, rate(100))).not.toThrow();
    expect(rejection(validator, rate(101))).toMatchObject({
      code: 'VALUE_SHOULD_BE_LESS_THEN',
      details: { field: 'saleProducts[0].vatRate', actualValue: 101, valueMax: 100 },
    });
    expect(rejection(validator, rate(-1))).toMatchObject({
      code: 'VALUE_SHOULD_NOT_BE_NEGATIVE',
      details: { field: 'saleProducts[0].vatRate' },
    });
  });

  it('v15 drops the fields of v26: day and the line VAT rate, unit price and effective brutto', () => {
    const extra = { productBrutto: 2500, vatRate: 25, effectiveBrutto: 2500 };
    expect(validate(saleV15, sale({ day: 3, saleProducts: [{ ...line(), ...extra }] }))).toEqual(sale());
    expect(validate(saleV26, sale({ day: 3, saleProducts: [{ ...line(), ...extra }] }))).toEqual(
      sale({ day: 3, saleProducts: [{ ...line(), ...extra }] }),
    );
  });

  it('refuses a refund of receipt 0: refundFor starts at 1', () => {
    expect(() => validate(saleV33, sale({ refund: true, refundFor: 1 }))).not.toThrow();
    expect(rejection(saleV33, sale({ refund: true, refundFor: 0 }))).toEqual({
      status: 400,
      exception: 'ValueNotValid',
      code: 'VALUE_SHOULD_BE_GREATER_THEN',
      details: { field: 'refundFor', actualValue: 0, valueMin: 1 },
    });
  });

  it('refuses a print numbered 0', () => {
    expect(rejection(saleV33, sale({ prints: [{ ...print(), receiptNumber: 0 }] }))).toMatchObject({
      code: 'VALUE_SHOULD_BE_GREATER_THEN',
      details: { field: 'prints[0].receiptNumber', valueMin: 1 },
    });
  });

  it('refuses a close time no Date can hold', () => {
    expect(() => validate(saleV33, sale({ close: 8640000000000000 }))).not.toThrow();
    expect(rejection(saleV33, sale({ close: 8640000000000001 }))).toMatchObject({
      code: 'VALUE_SHOULD_BE_LESS_THEN',
      details: { field: 'close', valueMax: 8640000000000000 },
    });
  });

  it.each<[string, ValidateFunction, string, string]>([
    ['v15', saleV15, 'Card', 'EmvStandalone'],
    ['v26', saleV26, 'ProviderD', 'EmvIntegrated'],
    ['v33', saleV33, 'EmvIntegrated', 'Card'],
  ])('%s takes the payment type %s and cannot read %s', (_, validator, known, unknown) => {
    const paid = (paymentType: string) => sale({ payments: [{ ...payment(), paymentType }] });
    expect(() => validate(validator, paid(known))).not.toThrow();
    expect(rejection(validator, paid(unknown))).toEqual({
      status: 400,
      exception: 'MessageNotReadable',
      code: null,
      details: { field: 'payments[0].paymentType', actualValue: unknown },
    });
  });

  it('cannot read an unknown sale state, print type or payment state', () => {
    expect(rejection(saleV33, sale({ saleState: 'Refunded' }))).toMatchObject({ exception: 'MessageNotReadable' });
    expect(rejection(saleV33, sale({ prints: [{ printType: 'Kopia' }] }))).toMatchObject({
      exception: 'MessageNotReadable',
      details: { field: 'prints[0].printType' },
    });
    expect(rejection(saleV33, sale({ payments: [{ ...payment(), paymentState: 'DONE' }] }))).toMatchObject({
      exception: 'MessageNotReadable',
      details: { field: 'payments[0].paymentState' },
    });
  });

  it('refuses a line without its figures: SHOULD_NOT_BE_NULL', () => {
    expect(rejection(saleV33, sale({ saleProducts: [without(line(), 'brutto')] }))).toMatchObject({
      code: 'SHOULD_NOT_BE_NULL',
      details: { field: 'saleProducts[0].brutto' },
    });
  });
});

describe('the day schema', () => {
  it('takes an empty day, and every field of a day as a list read shows it', () => {
    expect(validate(day, {})).toEqual({});
    const read = {
      id: 3,
      date: 20240131,
      dayNumber: 3,
      opened: false,
      reportPrinted: false,
      open: 1706688000000,
      close: 1706720000000,
      cash: 10000,
      cashAtClose: 10000,
      grandTotal: 500000,
      grandTotalRefund: 2500,
      closedDayTreasurer: 'anna-1',
      version: 12,
      modified: 1706720000000,
    };
    expect(validate(day, { ...read, unknown: 1 })).toEqual(read);
  });

  it('takes a closing treasurer identifier only', () => {
    expect(rejection(day, { closedDayTreasurer: 'a/b' })).toMatchObject({
      code: 'SHOULD_MATCH_PATTERN',
      details: { field: 'closedDayTreasurer' },
    });
  });
});

describe('the balance change schema', () => {
  it('takes a deposit or a withdrawal of an amount >= 0', () => {
    expect(validate(balanceChange, { amount: 0, action: 'DEPOSIT' })).toEqual({ amount: 0, action: 'DEPOSIT' });
    expect(() => validate(balanceChange, { amount: INT32_MAX, action: 'WITHDRAWAL' })).not.toThrow();
  });

  it('refuses a negative or too large amount', () => {
    expect(rejection(balanceChange, { amount: -1, action: 'DEPOSIT' })).toEqual({
      status: 400,
      exception: 'ValueNotValid',
      code: 'VALUE_SHOULD_NOT_BE_NEGATIVE',
      details: { field: 'amount', actualValue: -1, valueMin: 0 },
    });
    expect(rejection(balanceChange, { amount: INT32_MAX + 1, action: 'DEPOSIT' })).toMatchObject({
      code: 'VALUE_SHOULD_BE_LESS_THEN',
      details: { field: 'amount', valueMax: INT32_MAX },
    });
  });

  it.each(['amount', 'action'])('refuses a change without %s: SHOULD_NOT_BE_NULL', (field) => {
    expect(rejection(balanceChange, without({ amount: 100, action: 'DEPOSIT' }, field))).toMatchObject({
      code: 'SHOULD_NOT_BE_NULL',
      details: { field },
    });
  });

  it('cannot read another action', () => {
    expect(rejection(balanceChange, { amount: 1, action: 'deposit' })).toMatchObject({
      exception: 'MessageNotReadable',
      details: { field: 'action' },
    });
  });
});

describe('the e-journal upload schema', () => {
  it('takes any JSON object as data, as it is', () => {
    const data = { event: 'drawer-opened', nested: { list: [1, 'two', null] } };
    expect(validate(journalUpload, { data })).toEqual({ data });
  });

  it('refuses an upload without data, and cannot read data that is no object', () => {
    expect(rejection(journalUpload, {})).toMatchObject({ code: 'SHOULD_NOT_BE_NULL', details: { field: 'data' } });
    expect(rejection(journalUpload, { data: null })).toMatchObject({ code: 'SHOULD_NOT_BE_NULL', details: { field: 'data' } });
    expect(rejection(journalUpload, { data: [1] })).toMatchObject({ exception: 'MessageNotReadable' });
    expect(rejection(journalUpload, { data: 'text' })).toMatchObject({ exception: 'MessageNotReadable' });
  });
  it('takes a register event by its type, and a device event with or without DEVICE as its type', () => {
    const login = { type: 'LOGIN', created: 1, treasurer: null, data: {} };
    expect(validate(journalUpload, login)).toEqual(login);
    expect(validate(journalUpload, { type: 'DEVICE', data: { any: [1] } })).toEqual({ type: 'DEVICE', data: { any: [1] } });
    expect(validate(journalUpload, { data: { any: 1 }, extra: true })).toEqual({ data: { any: 1 } });
  });

  it('refuses an unknown type, or a field its data does not have, as a pattern mismatch', () => {
    expect(rejection(journalUpload, { type: 'LUNCH', created: 1, data: {} })).toMatchObject({
      status: 400,
      exception: 'ValueNotValid',
      code: 'SHOULD_MATCH_PATTERN',
      details: {
        field: 'type',
        actualValue: 'LUNCH',
        pattern: expect.stringMatching(/^\^\(DEVICE\|LOGIN\|.*\|CONTROL_PROGRAM_STATUS\)\$$/),
      },
    });
    expect(rejection(journalUpload, { type: 5, created: 1, data: {} })).toMatchObject({
      code: 'SHOULD_MATCH_PATTERN',
      details: { field: 'type', actualValue: 5 },
    });
    expect(rejection(journalUpload, { type: 'CLOCK_CHANGED', created: 1, data: { newTime: 2, oldTime: 1 } })).toMatchObject({
      code: 'SHOULD_MATCH_PATTERN',
      details: { field: 'data.oldTime', actualValue: 'oldTime', pattern: '^(newTime)$' },
    });
    expect(rejection(journalUpload, { type: 'LOGOUT', created: 1, data: { who: 'anna' } })).toMatchObject({
      code: 'SHOULD_MATCH_PATTERN',
      details: { field: 'data.who' },
    });
    expect(rejection(journalUpload, { type: 'CLOCK_CHANGED', data: { newTime: 2 } })).toMatchObject({
      code: 'SHOULD_NOT_BE_NULL',
      details: { field: 'created' },
    });
    expect(rejection(journalUpload, { type: 'CLOCK_CHANGED', created: 1, data: {} })).toMatchObject({
      code: 'SHOULD_NOT_BE_NULL',
      details: { field: 'data.newTime' },
    });
  });
});

import { describe, expect, it } from 'vitest';
import * as validators from '#schemas/generated/validators.js';
import { echo, patternMismatch } from '#shared/errors.ts';
import { fieldPath, toApiError, validate } from '#shared/http/validation.ts';
import { rejection } from '../support/rejection.ts';

const [sellerV26, sellerV33, tax] = await Promise.all([
  validators.sellerV26.load(),
  validators.sellerV33.load(),
  validators.tax.load(),
]);

describe('request body validation', () => {
  it('names array elements and nested fields the way a client writes them', () => {
    expect(fieldPath('/saleProducts/2/delta')).toBe('saleProducts[2].delta');
    expect(fieldPath('', 'name')).toBe('name');
    expect(fieldPath('/workHoursWeek/MONDAY', 'openTime')).toBe('workHoursWeek.MONDAY.openTime');
  });

  it('a missing required field is SHOULD_NOT_BE_NULL', () => {
    expect(rejection(tax, { name: 'Moms' })).toEqual({
      status: 400,
      exception: 'ValueNotValid',
      code: 'SHOULD_NOT_BE_NULL',
      details: { field: 'vat' },
    });
  });

  it('an explicit null in a required field is SHOULD_NOT_BE_NULL', () => {
    expect(rejection(tax, { name: null, vat: 1 })).toMatchObject({ code: 'SHOULD_NOT_BE_NULL', details: { field: 'name' } });
  });

  it('a length with both bounds is SIZE_SHOULD_BE_IN_RANGE with both bounds', () => {
    expect(rejection(tax, { name: '', vat: 1 })).toMatchObject({
      code: 'SIZE_SHOULD_BE_IN_RANGE',
      details: { field: 'name', actualValue: 0, sizeMin: 1, sizeMax: 32 },
    });
  });

  it('a length with an upper bound only is SIZE_SHOULD_BE_LESS_THEN', () => {
    expect(rejection(tax, { name: 'x', vat: 1, custom: 'c'.repeat(65536) })).toMatchObject({
      code: 'SIZE_SHOULD_BE_LESS_THEN',
      details: { field: 'custom', actualValue: 65536, sizeMax: 65535 },
    });
  });

  it('a length with a lower bound only is SIZE_SHOULD_BE_MORE_THEN', () => {
    const error = toApiError({
      keyword: 'minLength',
      instancePath: '/gcmRegistrationId',
      schemaPath: '#/properties/gcmRegistrationId/minLength',
      params: { limit: 1 },
      parentSchema: { minLength: 1 },
      data: '',
    });
    expect(error.code).toBe('SIZE_SHOULD_BE_MORE_THEN');
    expect(error.details).toEqual({ field: 'gcmRegistrationId', actualValue: 0, sizeMin: 1 });
  });

  it('an exact length is SIZE_SHOULD_BE_EQUAL_EXACTLY', () => {
    const body = { corporateId: '1', country: 'SWE', publicAccess: true, workHoursWeek: {} };
    expect(rejection(sellerV26, body)).toMatchObject({
      code: 'SIZE_SHOULD_BE_EQUAL_EXACTLY',
      details: { field: 'country', sizeMin: 2, sizeMax: 2 },
    });
  });

  it('counts characters, not UTF-16 units: 32 emoji fit a 32-character name', () => {
    expect(() => validate(tax, { name: '😀'.repeat(32), vat: 0 })).not.toThrow();
    expect(rejection(tax, { name: '😀'.repeat(33), vat: 0 })).toMatchObject({ code: 'SIZE_SHOULD_BE_IN_RANGE' });
  });

  it('a number above its maximum is VALUE_SHOULD_BE_LESS_THEN with valueMax', () => {
    expect(rejection(tax, { name: 'x', vat: 101 })).toMatchObject({
      code: 'VALUE_SHOULD_BE_LESS_THEN',
      details: { field: 'vat', actualValue: 101, valueMax: 100 },
    });
  });

  it('a negative number where zero is the minimum is VALUE_SHOULD_NOT_BE_NEGATIVE', () => {
    expect(rejection(tax, { name: 'x', vat: -1 })).toMatchObject({
      code: 'VALUE_SHOULD_NOT_BE_NEGATIVE',
      details: { valueMin: 0 },
    });
  });

  it('a number below another minimum is VALUE_SHOULD_BE_GREATER_THEN', () => {
    const body = {
      corporateId: '1',
      country: 'SE',
      publicAccess: true,
      workHoursWeek: { MONDAY: { openTime: -3e9, closeTime: 0 } },
    };
    expect(rejection(sellerV33, body)).toMatchObject({
      code: 'VALUE_SHOULD_BE_GREATER_THEN',
      details: { field: 'workHoursWeek.MONDAY.openTime', valueMin: -2147483648 },
    });
  });

  it('a string breaking its pattern is SHOULD_MATCH_PATTERN with the pattern', () => {
    const result = rejection(tax, { name: 'x', vat: 1, identifier: 'a:b' });
    expect(result).toMatchObject({ code: 'SHOULD_MATCH_PATTERN', details: { field: 'identifier', actualValue: 'a:b' } });
    expect(typeof result.details.pattern).toBe('string');
  });

  it.each([
    'PRN',
    'AUX',
    'CLOCK$',
    'NUL',
    'CON',
    'COM1',
    'LPT9',
    '.',
    '..',
    'a\\b',
    'a?',
    'a*',
    'a"',
    'a;b',
    'a|b',
    'a<',
    'b>',
    'x\u0001',
  ])('the reserved or forbidden identifier %j is refused', (identifier) => {
    expect(rejection(tax, { name: 'x', vat: 1, identifier })).toMatchObject({ code: 'SHOULD_MATCH_PATTERN' });
  });

  it.each(['CONSOLE', 'com', 'a.b', '...', 'Moms 25%', 'ÅÄÖ'])('the identifier %j is accepted', (identifier) => {
    expect(() => validate(tax, { name: 'x', vat: 1, identifier })).not.toThrow();
  });

  it('a value of the wrong JSON type cannot be read: MessageNotReadable', () => {
    expect(rejection(tax, { name: 'x', vat: '25' })).toMatchObject({ status: 400, exception: 'MessageNotReadable', code: null });
    expect(rejection(tax, { name: 'x', vat: 2.5 })).toMatchObject({ exception: 'MessageNotReadable' });
    expect(rejection(tax, [])).toMatchObject({ exception: 'MessageNotReadable' });
  });

  it('an unknown enumeration value cannot be read: MessageNotReadable', () => {
    const body = { corporateId: '1', country: 'SE', publicAccess: true, workHoursWeek: {}, currency: 'XXX' };
    expect(rejection(sellerV26, body)).toMatchObject({ exception: 'MessageNotReadable', details: { field: 'currency' } });
  });

  it('drops properties the version does not know instead of refusing them', () => {
    const body = { name: 'x', vat: 1, color: 5 };
    expect(validate(tax, body)).toEqual({ name: 'x', vat: 1 });
  });
});

describe('echo: what an error repeats of a value', () => {
  it('keeps a short string, a number, a boolean, null and undefined as they are', () => {
    expect([echo('Moms'), echo(12.5), echo(false), echo(null), echo(undefined)]).toEqual(['Moms', 12.5, false, null, undefined]);
  });

  it('cuts a string to its first 64 characters, counting code points, and marks the cut', () => {
    expect(echo('x'.repeat(64))).toBe('x'.repeat(64));
    expect(echo(`${'😀'.repeat(64)}more`)).toBe(`${'😀'.repeat(64)}…`);
  });

  it('gives an array or object as the first 64 characters of its JSON text', () => {
    expect(echo([1, 'a', { b: null }])).toBe('[1,"a",{"b":null}]');
    expect(echo({ name: 'x'.repeat(100) })).toBe(`{"name":"${'x'.repeat(55)}…`);
  });

  it('reads a value nested far deeper than the stack only as far as the prefix goes', () => {
    // Prepare
    let deep: unknown = 1;
    for (let level = 0; level < 200_000; level += 1) deep = [deep];

    // Act
    const echoed = echo(deep);

    // Assess
    expect(echoed).toBe(`${'['.repeat(64)}…`);
  });

  it('an error cuts the actualValue it is given, and a field path cuts a key a body chose', () => {
    expect(patternMismatch('name', 'y'.repeat(1_000), '^x$').details.actualValue).toBe(`${'y'.repeat(64)}…`);
    expect(fieldPath(`/buildInfo/${'k'.repeat(1_000)}`)).toBe(`buildInfo.${'k'.repeat(64)}…`);
  });
});

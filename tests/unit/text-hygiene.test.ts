import { describe, expect, it } from 'vitest';
import * as validators from '#schemas/generated/validators.js';
import { bodySchemas, sharedSchemas } from '#schemas/index.ts';
import { scalars } from '#schemas/scalars.ts';
import { ApiError } from '#shared/errors.ts';
import { pageParams } from '#shared/http/query.ts';
import { validate } from '#shared/http/validation.ts';
import { rejection } from '../support/rejection.ts';

const [activationOrder, order, tax] = await Promise.all([
  validators.activationOrder.load(),
  validators.order.load(),
  validators.tax.load(),
]);

type Schema = { [keyword: string]: unknown };

/** The patterned scalar definitions by name. */
const patterns: Record<string, string> = Object.fromEntries(
  Object.entries(scalars.$defs).flatMap(([name, def]) => ('pattern' in def ? [[name, def.pattern]] : [])),
);
const sharedById = new Map<string, Schema>(sharedSchemas.map((schema) => [schema.$id, schema]));
/** The scalar definitions that take tab, LF and CR. */
const MULTILINE_SCALARS = ['custom', 'multilineText'];
/** The multi-line fields of docs/decisions.md (Text hygiene): every other string is single-line. */
const MULTILINE_FIELDS = [
  'body',
  'comment',
  'custom',
  'description',
  'message',
  'productCustomization',
  'protectedHeaders',
  'workHours',
];

/** A value each patterned scalar accepts, to probe its pattern with one character replaced. */
const samples: Record<string, string> = {
  identifier: 'abc',
  corporateId: '5560360793',
  productionNumber: 'PN000001',
  deviceId: 'device-1',
  applicationPackage: 'com.example.pos',
  country: 'SE',
  cashRegisterName: 'Kassa 1',
  custom: 'abc',
  text: 'abc',
  multilineText: 'abc',
  base64: 'QUJD',
};

const codePoints = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => String.fromCharCode(from + i));
const lineBreaks = ['\t', '\n', '\r'];
const controls = [...codePoints(0x00, 0x1f), ...codePoints(0x7f, 0x9f)];
const loneSurrogates = ['\uD800', '\uDBFF', '\uDC00', '\uDFFF'];

const takesStrings = (schema: Schema) =>
  schema.type === 'string' || (Array.isArray(schema.type) && schema.type.includes('string'));
const scalarOf = (schema: Schema) => /^scalars#\/\$defs\/(\w+)$/.exec(String(schema.$ref ?? ''))?.[1];

/** Every subschema that can hold a string (object keys included), with where it sits. */
function* strings(schema: Schema, path: string): Generator<{ path: string; schema: Schema; property?: string }> {
  if (takesStrings(schema)) yield { path, schema, property: path.split('.').at(-1) };
  for (const [name, child] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
    yield* strings(child, `${path}.${name}`);
  }
  if (typeof schema.items === 'object') yield* strings(schema.items as Schema, `${path}[]`);
  if (typeof schema.additionalProperties === 'object') yield* strings(schema.additionalProperties as Schema, `${path}.*`);
  if (typeof schema.propertyNames === 'object') yield { path: `${path}{key}`, schema: schema.propertyNames as Schema };
  for (const keyword of ['allOf', 'anyOf', 'oneOf']) {
    for (const [index, child] of ((schema[keyword] ?? []) as Schema[]).entries())
      yield* strings(child, `${path}/${keyword}/${index}`);
  }
  for (const keyword of ['not', 'if', 'then', 'else']) {
    if (typeof schema[keyword] === 'object') yield* strings(schema[keyword] as Schema, `${path}/${keyword}`);
  }
}

const everyString = [...sharedSchemas, ...Object.values(bodySchemas)].flatMap((schema) => [
  ...strings(schema as unknown as Schema, schema.$id),
]);

describe('the text rule reaches every string of every body schema', () => {
  it('finds the strings it checks', () => {
    expect(everyString.length).toBeGreaterThan(100);
  });

  it('every string is an enumeration or refers to one, or refers to a patterned scalar', () => {
    const unruled = everyString
      .filter(({ schema }) => schema.enum === undefined && sharedById.get(String(schema.$ref))?.enum === undefined)
      .filter(({ schema }) => patterns[scalarOf(schema) ?? ''] === undefined)
      .map(({ path }) => path);
    expect(unruled).toEqual([]);
  });

  it('enumeration values are clean text themselves', () => {
    const text = new RegExp(scalars.$defs.text.pattern, 'u');
    const values = [...everyString.map(({ schema }) => schema), ...sharedById.values()].flatMap(
      (schema) => (schema.enum as unknown[] | undefined) ?? [],
    );
    expect(values.filter((value) => typeof value === 'string' && !text.test(value))).toEqual([]);
  });

  it('only the decided fields are multi-line', () => {
    const multiline = everyString.filter(({ schema }) => MULTILINE_SCALARS.includes(scalarOf(schema) ?? ''));
    expect([...new Set(multiline.map(({ property }) => property))].sort()).toEqual(MULTILINE_FIELDS);
  });
});

describe.each(Object.entries(patterns))('the %s scalar', (name, source) => {
  const pattern = new RegExp(source, 'u');
  const sample = samples[name] ?? '';
  const withChar = (char: string) => `${sample.slice(0, 1)}${char}${sample.slice(2)}`;

  it('has a sample it accepts', () => {
    expect(pattern.test(sample)).toBe(true);
  });

  it('refuses every control character but line breaks, and every lone surrogate', () => {
    const refused = [...controls.filter((char) => !lineBreaks.includes(char)), ...loneSurrogates];
    expect(refused.filter((char) => pattern.test(withChar(char)))).toEqual([]);
  });

  it(`${MULTILINE_SCALARS.includes(name) ? 'takes' : 'refuses'} tab, LF and CR`, () => {
    expect(lineBreaks.map((char) => pattern.test(withChar(char)))).toEqual(
      lineBreaks.map(() => MULTILINE_SCALARS.includes(name)),
    );
  });
});

describe('the generated validators', () => {
  const textPattern = scalars.$defs.text.pattern;

  it.each(['Mo\u0000ms', 'Mo\u001Bms', 'Mo\u007Fms', 'Mo\u0085ms', 'Mo\tms'])(
    'refuse the name %j: SHOULD_MATCH_PATTERN',
    (name) => {
      expect(rejection(tax, { vat: 25, name })).toEqual({
        status: 400,
        exception: 'ValueNotValid',
        code: 'SHOULD_MATCH_PATTERN',
        details: { field: 'name', actualValue: name, pattern: textPattern },
      });
    },
  );

  it('refuse a lone surrogate as JSON.parse yields it, and take a paired one', () => {
    const { name } = JSON.parse('{"name":"Mo\\ud800ms"}') as { name: string };
    expect(rejection(tax, { vat: 25, name })).toMatchObject({ code: 'SHOULD_MATCH_PATTERN', details: { field: 'name' } });
    expect(validate(tax, JSON.parse('{"vat":25,"name":"Moms \\ud83d\\ude00"}'))).toEqual({ vat: 25, name: 'Moms 😀' });
  });

  it('take line breaks in a multi-line field only', () => {
    expect(validate(tax, { vat: 25, name: 'Moms', custom: 'a\tb\r\nc' })).toMatchObject({ custom: 'a\tb\r\nc' });
    expect(rejection(tax, { vat: 25, name: 'Moms', custom: 'a\u0000' })).toMatchObject({
      code: 'SHOULD_MATCH_PATTERN',
      details: { field: 'custom', pattern: scalars.$defs.multilineText.pattern },
    });
  });

  it('name a nested field the way a client writes it', () => {
    const body = {
      treasurerName: 'Anna',
      orderItems: [
        { productIdentifier: 'p1', delta: 1, productCustomization: 'no onions\nextra cheese' },
        { productIdentifier: 'p2', delta: 1, productCustomization: 'x\u001B' },
      ],
    };
    expect(rejection(order, body)).toMatchObject({
      code: 'SHOULD_MATCH_PATTERN',
      details: { field: 'orderItems[1].productCustomization', pattern: scalars.$defs.multilineText.pattern },
    });
  });

  it('check the keys and values of a map (buildInfo)', () => {
    const body = (buildInfo: Record<string, string>) => ({
      installationOrderInfo: { deviceId: 'd1', applicationPackage: 'com.example.pos', buildInfo },
      country: 'SE',
      corporateId: '5560360793',
      activationDetailsInfo: { validFrom: 0, validTo: 1 },
      cashRegisterName: 'Kassa',
    });
    expect(() => validate(activationOrder, body({ model: 'Pixel 8' }))).not.toThrow();
    expect(rejection(activationOrder, body({ model: 'Pixel\u00008' }))).toMatchObject({
      code: 'SHOULD_MATCH_PATTERN',
      details: { field: 'installationOrderInfo.buildInfo.model' },
    });
    expect(rejection(activationOrder, body({ 'mo\u0000del': 'Pixel 8' }))).toMatchObject({ code: 'SHOULD_MATCH_PATTERN' });
  });

  it('keep the errors of enumerations and patterned fields for values without control characters', () => {
    expect(rejection(tax, { vat: 25, name: 'Moms', identifier: 'a:b' })).toMatchObject({
      code: 'SHOULD_MATCH_PATTERN',
      details: { field: 'identifier', pattern: scalars.$defs.identifier.pattern },
    });
    expect(rejection(tax, { vat: 25, name: '' })).toMatchObject({ code: 'SIZE_SHOULD_BE_IN_RANGE' });
  });
});

describe('the free-text query parameter like', () => {
  it('refuses control characters with SHOULD_MATCH_PATTERN and takes any other text', () => {
    expect(pageParams(new URLSearchParams({ like: 'Moms 25% 😀' })).like).toBe('Moms 25% 😀');
    try {
      pageParams(new URLSearchParams({ like: 'Mo\u0000ms' }));
      throw new Error('accepted');
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({
        status: 400,
        exception: 'ValueNotValid',
        code: 'SHOULD_MATCH_PATTERN',
        details: { field: 'like', actualValue: 'Mo\u0000ms', pattern: scalars.$defs.text.pattern },
      });
    }
  });
});

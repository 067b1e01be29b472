/**
 * Every property of the fiscal request bodies and of every answer says what it is and its unit, and has a type (issue
 * 27, the API reference): the sale, day, balance, e-journal and kd bodies of schemas/fiscal.ts and schemas/kd.ts, and
 * every schema of schemas/responses.ts (the fiscal answers, the activation, catalog and administration answers). The
 * walk reaches every `properties` entry at any depth (items, `then`, `oneOf`, nested objects); a property without a
 * `description`, or without a type (`{}`: `unknown` in the typed client), is named by its path.
 */
import { describe, expect, it } from 'vitest';
import { bodySchemas, responseSchemas } from '#schemas/index.ts';
import { KD_LOG_OUTCOMES } from '#shared/fiscal/model.ts';

/** The fiscal request bodies, and every answer. */
const SCHEMAS = {
  ...responseSchemas,
  saleV15: bodySchemas.saleV15,
  saleV26: bodySchemas.saleV26,
  saleV33: bodySchemas.saleV33,
  day: bodySchemas.day,
  balanceChange: bodySchemas.balanceChange,
  journalUpload: bodySchemas.journalUpload,
  kdV15: bodySchemas.kdV15,
  kdV26: bodySchemas.kdV26,
  kdV33: bodySchemas.kdV33,
} as const;

/** What gives a property a type; a property with none of them (`{}`) is `unknown` in the typed client. */
const TYPING_KEYWORDS = ['type', '$ref', 'enum', 'const', 'oneOf', 'anyOf', 'allOf'];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The path of every property under `node`, and whether it has a description. */
function propertiesOf(node: unknown, path: string): { path: string; described: boolean; typed: boolean }[] {
  if (Array.isArray(node)) return node.flatMap((item, index) => propertiesOf(item, `${path}[${index}]`));
  if (!isObject(node)) return [];
  const found: { path: string; described: boolean; typed: boolean }[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && isObject(value)) {
      for (const [name, property] of Object.entries(value)) {
        const described = isObject(property) && typeof property.description === 'string' && property.description.trim() !== '';
        const typed = isObject(property) && TYPING_KEYWORDS.some((keyword) => keyword in property);
        found.push({ path: `${path}.${name}`, described, typed });
        found.push(...propertiesOf(property, `${path}.${name}`));
      }
      // `if` names a property to test for it, not to describe it (journalUpload: `if: {properties: {type: true}}`).
    } else if (key !== 'if') found.push(...propertiesOf(value, `${path}/${key}`));
  }
  return found;
}

const all = Object.entries(SCHEMAS).flatMap(([name, schema]) => propertiesOf(schema, name));

describe('the fiscal bodies and every answer describe and type every property', () => {
  it(`${all.filter((property) => property.described).length} of ${all.length} properties are described`, () => {
    const undescribed = all.filter((property) => !property.described).map((property) => property.path);
    expect(undescribed).toEqual([]);
  });

  it(`${all.filter((property) => property.typed).length} of ${all.length} properties are typed`, () => {
    expect(all.filter((property) => !property.typed).map((property) => property.path)).toEqual([]);
  });

  it("names the Kd log's outcomes as the service records them", () => {
    expect(responseSchemas.kdLogRecord.properties.outcome.enum).toEqual(KD_LOG_OUTCOMES);
  });
});

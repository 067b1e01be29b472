/**
 * Every property of the fiscal schemas says what it is and its unit (issue 27, the API reference): the sale, day,
 * balance, e-journal and kd request bodies of schemas/fiscal.ts and schemas/kd.ts, and the fiscal answers and sales
 * statistics of schemas/fiscal-responses.ts. The walk reaches every `properties` entry at any depth (items, `then`, `oneOf`, nested
 * objects); a property without a `description` is named by its path. `undescribed` is the count the issue measures.
 */
import { describe, expect, it } from 'vitest';
import { bodySchemas, responseSchemas } from '#schemas/index.ts';
import { KD_LOG_OUTCOMES } from '#shared/fiscal/model.ts';

/** The fiscal schemas: request bodies and answers. */
const FISCAL_SCHEMAS = {
  saleV15: bodySchemas.saleV15,
  saleV26: bodySchemas.saleV26,
  saleV33: bodySchemas.saleV33,
  day: bodySchemas.day,
  balanceChange: bodySchemas.balanceChange,
  journalUpload: bodySchemas.journalUpload,
  kdV15: bodySchemas.kdV15,
  kdV26: bodySchemas.kdV26,
  kdV33: bodySchemas.kdV33,
  saleOverview: responseSchemas.saleOverview,
  dayMinified: responseSchemas.dayMinified,
  dayView: responseSchemas.dayView,
  report: responseSchemas.report,
  receipt: responseSchemas.receipt,
  journalEntry: responseSchemas.journalEntry,
  generatedJournal: responseSchemas.generatedJournal,
  amountResult: responseSchemas.amountResult,
  sequenceResult: responseSchemas.sequenceResult,
  kdResult: responseSchemas.kdResult,
  kdLogRecord: responseSchemas.kdLogRecord,
  taxStats: responseSchemas.taxStats,
  categoryStats: responseSchemas.categoryStats,
  productStats: responseSchemas.productStats,
  registerStats: responseSchemas.registerStats,
  salesStats: responseSchemas.salesStats,
  paymentTypeStats: responseSchemas.paymentTypeStats,
  dayStats: responseSchemas.dayStats,
} as const;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The path of every property under `node`, and whether it has a description. */
function propertiesOf(node: unknown, path: string): { path: string; described: boolean }[] {
  if (Array.isArray(node)) return node.flatMap((item, index) => propertiesOf(item, `${path}[${index}]`));
  if (!isObject(node)) return [];
  const found: { path: string; described: boolean }[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && isObject(value)) {
      for (const [name, property] of Object.entries(value)) {
        const described = isObject(property) && typeof property.description === 'string' && property.description.trim() !== '';
        found.push({ path: `${path}.${name}`, described });
        found.push(...propertiesOf(property, `${path}.${name}`));
      }
      // `if` names a property to test for it, not to describe it (journalUpload: `if: {properties: {type: true}}`).
    } else if (key !== 'if') found.push(...propertiesOf(value, `${path}/${key}`));
  }
  return found;
}

const all = Object.entries(FISCAL_SCHEMAS).flatMap(([name, schema]) => propertiesOf(schema, name));

describe('the fiscal schemas describe every property', () => {
  it(`${all.filter((property) => property.described).length} of ${all.length} properties are described`, () => {
    const undescribed = all.filter((property) => !property.described).map((property) => property.path);
    expect(undescribed).toEqual([]);
  });

  it("names the Kd log's outcomes as the service records them", () => {
    expect(responseSchemas.kdLogRecord.properties.outcome.enum).toEqual(KD_LOG_OUTCOMES);
  });
});

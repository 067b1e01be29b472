/**
 * What each sale line sold, frozen at the sale (docs/conventions.md §16): the line's `name`, `group`, `articleType`,
 * `quantity`, `salesUnit` and `unitPrice` as the register sent them, else as the stored sale already froze them, else
 * from the catalog at the write. A receipt, a report and the auditor's export show them whatever the catalog says later.
 */
import type { ProductBody } from '#schemas/types.ts';
import { keys } from '#shared/db/keys.ts';
import { readItems } from '#shared/db/reads.ts';
import { productCategories } from '#shared/domain/categories.ts';
import { valueNotValid } from '#shared/errors.ts';
import type { ArticleType, SaleProduct, SalesUnit } from '#shared/fiscal/model.ts';

/** What the catalog says of one product, as a line freezes it. */
export interface ProductFacts {
  name: string;
  group: string | null;
  articleType: ArticleType;
  salesUnit: SalesUnit;
}

type Line = Pick<SaleProduct, 'productIdentifier' | 'name' | 'group' | 'articleType' | 'salesUnit'>;

const lacksFacts = (line: Line) => line.name == null || line.group == null || line.articleType == null || line.salesUnit == null;

/**
 * The catalog's facts of the products that lines without their own facts name: one batch read of those products, and
 * the seller's categories only when such a line leaves its group out. A register that sends the facts costs no read.
 */
export async function catalogFacts(sellerId: string, lines: readonly Line[]): Promise<ReadonlyMap<string, ProductFacts>> {
  const wanted = [...new Set(lines.filter(lacksFacts).map((line) => line.productIdentifier))];
  if (wanted.length === 0) return new Map();
  const needsGroup = lines.some((line) => line.group == null);
  const [products, categories] = await Promise.all([
    readItems(wanted.map((id) => keys.catalog<ProductBody>(sellerId, 'PRODUCT', id))),
    needsGroup ? productCategories(sellerId) : new Map<string, string[]>(),
  ]);
  return new Map(
    products.map((product): [string, ProductFacts] => {
      const id = product.identifier ?? '';
      return [
        id,
        {
          name: product.name,
          // A product in two categories is frozen in the first by name, so a line counts in one group only.
          group: [...(categories.get(id) ?? [])].sort()[0] ?? null,
          articleType: product.articleType ?? 'GOODS',
          salesUnit: product.salesUnit,
        },
      ];
    }),
  );
}

const MILLI = 1000;

/** A quantity has at most three decimals (grams of a kilogram, metres to the millimetre). */
function checkQuantity(quantity: number, index: number): void {
  const scaled = quantity * MILLI;
  if (Math.abs(scaled - Math.round(scaled)) > 1e-6) {
    throw valueNotValid('SHOULD_MATCH_PATTERN', 'quantity has at most three decimals', {
      field: `saleProducts[${index}].quantity`,
      actualValue: quantity,
      pattern: '-?\\d+(\\.\\d{1,3})?',
    });
  }
}

/**
 * The lines with their facts frozen. `stored` is the sale as stored (a line at the same place naming the same product
 * keeps what it froze, so re-sending a printed sale without the facts changes nothing); `facts` is `catalogFacts`.
 */
export function freezeLines(
  lines: readonly SaleProduct[],
  stored: readonly SaleProduct[] | undefined,
  facts: ReadonlyMap<string, ProductFacts>,
): SaleProduct[] {
  return lines.map((line, index) => {
    if (line.quantity != null) checkQuantity(line.quantity, index);
    const before = stored?.[index]?.productIdentifier === line.productIdentifier ? stored[index] : undefined;
    // A line stored before the facts were kept (it has no articleType) stays as stored, with what facts the register
    // sends now: a printed sale of then, re-sent as stored, is the same sale.
    if (before !== undefined && before.articleType == null) return withoutMissingFacts(line);
    // A stored line's null name or group is what it froze, not a fact to fill from today's catalog.
    const fact = before === undefined ? facts.get(line.productIdentifier) : undefined;
    const quantity = line.quantity ?? before?.quantity ?? (line.deltaUnit ? line.delta : 1);
    return {
      ...line,
      name: line.name ?? (before ? (before.name ?? null) : (fact?.name ?? null)),
      group: line.group ?? (before ? (before.group ?? null) : (fact?.group ?? null)),
      articleType: line.articleType ?? before?.articleType ?? fact?.articleType ?? 'GOODS',
      quantity,
      salesUnit: line.salesUnit ?? before?.salesUnit ?? fact?.salesUnit ?? (line.deltaUnit ? 'Piece' : 'Price'),
      unitPrice: line.unitPrice ?? before?.unitPrice ?? line.productBrutto ?? unitPriceOf(line.vanillaBrutto, quantity),
    };
  });
}

const FACT_FIELDS = ['name', 'group', 'articleType', 'quantity', 'salesUnit', 'unitPrice'] as const;

/** The line without the facts it leaves out (null), as lines were stored before the facts were kept. */
const withoutMissingFacts = (line: SaleProduct): SaleProduct =>
  Object.fromEntries(
    Object.entries(line).filter(([field, value]) => value != null || !(FACT_FIELDS as readonly string[]).includes(field)),
  ) as SaleProduct;

/** The brutto of one unit before discounts: the line's undiscounted brutto over its quantity, to the hundredth. */
const unitPriceOf = (vanillaBrutto: number, quantity: number): number =>
  quantity === 0 ? vanillaBrutto : Math.round(vanillaBrutto / Math.abs(quantity));

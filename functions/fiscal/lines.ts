/**
 * What each sale line sold, frozen at the sale (docs/conventions.md §16): the line's `name`, `group`, `articleType`,
 * `quantity`, `salesUnit` and `unitPrice` as the register sent them, else as the stored sale already froze them, else
 * (for a line the register did not name) from the catalog at the write, else defaults. A receipt, a report and the auditor's export show them whatever the catalog says later.
 */
import type { ProductBody } from '#schemas/types.ts';
import { readItems } from '#shared/db/reads.ts';
import { productCategories } from '#shared/domain/categories.ts';
import { valueNotValid } from '#shared/errors.ts';
import type { ArticleType, SaleProduct, SalesUnit } from '#shared/fiscal/model.ts';
import { sellerKeys } from '#shared/domain/seller.ts';

/** What the catalog says of one product, as a line freezes it. */
export interface ProductFacts {
  name: string;
  group: string | null;
  articleType: ArticleType;
  salesUnit: SalesUnit;
}

type Line = Pick<SaleProduct, 'productIdentifier' | 'name'>;

/** A line the register names (`name`) carries the facts the register has: only an unnamed line is looked up. */
const unnamed = (line: Line) => line.name == null;

/** What a warm instance knows of one seller's catalog at one version of its stream: a product's facts, or null. */
interface Known {
  version: number;
  products: Map<string, ProductFacts | null>;
  categories?: ReadonlyMap<string, readonly string[]>;
}

/** Sellers whose catalog an instance keeps, the oldest dropped first: a bound on its memory. */
const KNOWN_SELLERS = 100;
const known = new Map<string, Known>();

/**
 * The catalog's facts of the products that unnamed lines name. A warm instance keeps what it read per seller while the
 * seller's stream stays at the same version (every catalog change moves it, a sale does not), so a register selling
 * the same products pays the reads once; else one batch read of the products it has not seen and, the first time,
 * the seller's categories. A register that names its lines costs the write no read. `version`: the seller's stream
 * version the request read (undefined: nothing is kept).
 */
export async function catalogFacts(
  sellerId: string,
  lines: readonly Line[],
  version: number | undefined,
): Promise<ReadonlyMap<string, ProductFacts>> {
  const wanted = [...new Set(lines.filter(unnamed).map((line) => line.productIdentifier))];
  if (wanted.length === 0) return new Map();
  const kept = known.get(sellerId);
  const state: Known = kept && kept.version === version ? kept : { version: version ?? -1, products: new Map() };
  const missing = wanted.filter((id) => !state.products.has(id));
  if (missing.length > 0) {
    const [products, categories] = await Promise.all([
      readItems(missing.map((id) => sellerKeys.catalog<ProductBody>(sellerId, 'PRODUCT', id))),
      state.categories ?? productCategories(sellerId),
    ]);
    state.categories = categories;
    for (const id of missing) state.products.set(id, null);
    for (const product of products) {
      const id = product.identifier ?? '';
      state.products.set(id, {
        name: product.name,
        // A product in two categories is frozen in the first by name, so a line counts in one group only.
        group: [...(categories.get(id) ?? [])].sort()[0] ?? null,
        articleType: product.articleType ?? 'GOODS',
        salesUnit: product.salesUnit,
      });
    }
  }
  if (version !== undefined) {
    known.delete(sellerId);
    known.set(sellerId, state);
    if (known.size > KNOWN_SELLERS) known.delete(known.keys().next().value as string);
  }
  return new Map(
    wanted.flatMap((id) => {
      const facts = state.products.get(id);
      return facts ? [[id, facts] as const] : [];
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
    const fact = before === undefined && unnamed(line) ? facts.get(line.productIdentifier) : undefined;
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

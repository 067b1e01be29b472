/** PAGE parameters (spec 1.7; their defaults and cap are read in shared/http/query.ts, docs/conventions.md §6). */
export interface Page {
  firstResult: number;
  maxResults: number;
  like: string | undefined;
}

/** LIST parameters: PAGE plus an ordering over the fields the list allows. */
export interface ListQuery<F extends string> extends Page {
  orderBy: F | undefined;
  orderDesc: boolean;
}

/**
 * One page of a list (LIST parameters, spec 1.7): `like` matches case-insensitively anywhere in
 * the searched fields, `orderBy` sorts by a field (then by `tiebreak` so pages are stable).
 */
export function pageOf<T, F extends string>(
  items: readonly T[],
  query: ListQuery<F>,
  options: {
    searched: (item: T) => readonly (string | null | undefined)[];
    field: (item: T, field: F) => unknown;
    tiebreak: (item: T) => string;
  },
): T[] {
  const needle = query.like?.toLowerCase();
  const matching =
    needle === undefined
      ? [...items]
      : items.filter((item) => options.searched(item).some((text) => text?.toLowerCase().includes(needle)));
  const direction = query.orderDesc ? -1 : 1;
  matching.sort((a, b) => {
    const byField = query.orderBy === undefined ? 0 : compare(options.field(a, query.orderBy), options.field(b, query.orderBy));
    return direction * (byField || byCodeUnits(options.tiebreak(a), options.tiebreak(b)));
  });
  return matching.slice(query.firstResult, query.firstResult + query.maxResults);
}

/** Key order as DynamoDB keeps sort keys, so a page read straight from a Query agrees with one sorted here. */
const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === undefined || a === null) return -1;
  if (b === undefined || b === null) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b));
}

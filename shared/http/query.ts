import type { ListQuery, Page } from '#shared/db/paging.ts';
import { scalars } from '#schemas/scalars.ts';
import { inconsistentData, parameterMissing, patternMismatch, typeMismatch } from '#shared/errors.ts';

const INT = /^-?\d{1,15}$/;
/** The single-line text rule of body strings, for free-text parameters (`like`). */
const TEXT = new RegExp(scalars.$defs.text.pattern, 'u');

/** An integer query or path parameter; absent -> `fallback`; not an integer -> 400 TypeMismatch. */
export function intParam(name: string, raw: string | null | undefined, fallback?: number): number | undefined {
  if (raw === null || raw === undefined || raw === '') return fallback;
  if (!INT.test(raw)) throw typeMismatch(name, 'an integer', raw);
  return Number(raw);
}

/** A required integer parameter. */
export function requiredInt(name: string, raw: string | null | undefined): number {
  const value = intParam(name, raw);
  if (value === undefined) throw parameterMissing(name);
  return value;
}

/** The `{versionFrom}/{versionTo}` of a diff path (their path rules have checked them). */
export const diffRange = (params: Readonly<Record<string, string>>) => ({
  from: requiredInt('versionFrom', params.versionFrom),
  to: requiredInt('versionTo', params.versionTo),
});

/** A boolean query parameter (`true`/`false`, any case); anything else -> 400 TypeMismatch. */
export function boolParam(name: string, raw: string | null | undefined, fallback: boolean): boolean {
  if (raw === null || raw === undefined || raw === '') return fallback;
  const lower = raw.toLowerCase();
  if (lower !== 'true' && lower !== 'false') throw typeMismatch(name, 'true or false', raw);
  return lower === 'true';
}

/** One of a fixed set of values; anything else -> 400 TypeMismatch. */
export function enumParam<T extends string>(name: string, raw: string | null | undefined, values: readonly T[]): T | undefined {
  if (raw === null || raw === undefined || raw === '') return undefined;
  const match = values.find((value) => value === raw);
  if (match === undefined) throw typeMismatch(name, `one of ${values.join(', ')}`, raw);
  return match;
}

/** Parameters zero or more (firstResult, maxResults, versions): negative -> 409 QUERY_PARAM_CANT_BE_NEGATIVE (docs/conventions.md §6). */
export function notNegative(name: string, value: number): number {
  if (value < 0) throw inconsistentData('QUERY_PARAM_CANT_BE_NEGATIVE', `${name} must not be negative`);
  return value;
}

export const DEFAULT_MAX_RESULTS = 100;
export const MAX_RESULTS_CAP = 1000;

/** A query parameter as a route declares it for the OpenAPI documents (`query` in shared/http/router.ts). */
export interface QueryParam {
  name: string;
  /** Its JSON Schema; bounds outside it have their own refusals (409 for negatives, as above). */
  schema: Readonly<Record<string, unknown>>;
  description: string;
  required?: boolean;
}

/** PAGE (spec 1.7): what `pageParams` reads. */
export const PAGE_QUERY: readonly QueryParam[] = [
  { name: 'firstResult', schema: { type: 'integer', minimum: 0, default: 0 }, description: 'Items to skip.' },
  {
    name: 'maxResults',
    schema: { type: 'integer', minimum: 0, maximum: MAX_RESULTS_CAP, default: DEFAULT_MAX_RESULTS },
    description: `Items at most (above ${MAX_RESULTS_CAP}: 409 SERVER_IS_OVERLOADED).`,
  },
  { name: 'like', schema: { type: 'string' }, description: 'Matches case-insensitively anywhere in the searched fields.' },
];

/** LIST (spec 1.7): what `listParams` reads, ordered by one of `orderFields`. */
export const listQuery = (orderFields: readonly string[]): readonly QueryParam[] => [
  ...PAGE_QUERY,
  { name: 'orderBy', schema: { type: 'string', enum: orderFields }, description: 'The field to order by.' },
  { name: 'orderDesc', schema: { type: 'boolean', default: false }, description: 'Newest or largest first.' },
];

/** A query parameter read by `intParam`, `boolParam`, `enumParam` or as text. */
export const queryParam = (name: string, schema: QueryParam['schema'], description: string, required = false): QueryParam => ({
  name,
  schema,
  description,
  ...(required ? { required } : {}),
});

export function pageParams(query: URLSearchParams): Page {
  const firstResult = notNegative('firstResult', intParam('firstResult', query.get('firstResult'), 0) ?? 0);
  const maxResults = notNegative('maxResults', intParam('maxResults', query.get('maxResults'), DEFAULT_MAX_RESULTS) ?? 0);
  if (maxResults > MAX_RESULTS_CAP) {
    throw inconsistentData('SERVER_IS_OVERLOADED', `maxResults may be at most ${MAX_RESULTS_CAP}`);
  }
  const like = query.get('like') ?? undefined;
  if (like !== undefined && !TEXT.test(like)) throw patternMismatch('like', like, scalars.$defs.text.pattern);
  return { firstResult, maxResults, like: like === '' ? undefined : like };
}

export function listParams<F extends string>(query: URLSearchParams, orderFields: readonly F[]): ListQuery<F> {
  return {
    ...pageParams(query),
    orderBy: enumParam('orderBy', query.get('orderBy'), orderFields),
    orderDesc: boolParam('orderDesc', query.get('orderDesc'), false),
  };
}

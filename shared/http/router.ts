import type { LazyValidator } from '#schemas/generated/validators.js';
import type { SchemaName } from '#schemas/index.ts';
import type { AccessRule } from '#shared/auth/access.ts';
import type { Credentials } from '#shared/auth/credentials.ts';
import type { Feature } from '#shared/auth/features.ts';
import type { Key } from '#shared/db/keys.ts';
import { type ApiError, type CodeOf, endpointNotFound, type Exception, methodNotSupported } from '#shared/errors.ts';
import { assertKnownParam } from './params.ts';
import type { ApiVersion } from '#shared/versions.ts';
import type { QueryParam } from './query.ts';
import type { ApiRequest, HttpMethod, LiveSellerRequest, ParamNames, RawBody, Reply } from './types.ts';

/**
 * The request body a route takes: one validator for every version, or one per version; `B` is what they all
 * produce. Validators load on first use, so a function's Init evaluates none.
 */
export type BodySpec<B> = LazyValidator<B> | Readonly<Partial<Record<ApiVersion, LazyValidator<B>>>>;

/**
 * Per-version validators whose bodies are views of one canonical type `B` (a v15 seller is a seller
 * with fewer fields): the compiler checks each version's type against `B`.
 */
export const perVersion = <B>(validators: Readonly<Partial<Record<ApiVersion, LazyValidator<B>>>>): BodySpec<B> => validators;

/** A body taken as bytes rather than JSON (image uploads): the media types accepted and the largest size (413 above). */
export interface RawBodySpec {
  mediaTypes: readonly string[];
  maxBytes: number;
}

/**
 * A response body as the OpenAPI documents show it (scripts/openapi.ts): a schema of `schemas/` by name, a list of
 * them, the view of the schema a body validator checks (an entity as its version shows it; `list`: several), or
 * bytes of one of the media types (an image, a PEM file, CSV; `orJson`: or that JSON instead). Named, not imported, so a function's bundle carries
 * no schema object.
 */
export type ResponseBody =
  | SchemaName
  | { list: SchemaName }
  | { view: BodySpec<unknown>; list?: true }
  | { media: readonly string[]; orJson?: SchemaName };

/** A success status and its body (`null`: none), one for every version or one per version. */
export type Responses = Readonly<
  Partial<Record<200 | 201 | 202 | 204, ResponseBody | Readonly<Partial<Record<ApiVersion, ResponseBody>>> | null>>
>;

/** A refusal a route answers besides the pipeline's own: an exception of shared/errors.ts and the codes it uses here. */
export type Refusal = { [E in Exception]: readonly [E, ...CodeOf<E>[]] }[Exception];

/** The refusal an error stands for (a refusal a route's entity names as a function). */
export const refusalOf = (error: ApiError): Refusal =>
  // An ApiError's exception and code were checked against each other where it was made.
  (error.code === null ? [error.exception] : [error.exception, error.code]) as Refusal;

/** A diff beyond the seller's or register's version, or from before its purge mark (docs/conventions.md §7). */
export const DIFF_REFUSALS: readonly Refusal[] = [
  ['InconsistentData', 'LOCAL_AND_SERVER_VERSIONS_INCONSISTENCY'],
  ['OutdatedVersion'],
];

/** What every route declares besides its body: method, path (after `/v{N}`), versions, who may call it. */
interface RouteHead<P extends string, A extends AccessRule = AccessRule> {
  /** The API reference's one line: what the operation does, in words (its path is shown beside it). */
  summary: string;
  /**
   * The API reference's description, from the specification and docs/conventions.md: what the operation does, who
   * may call it, what it changes. Its refusals are listed from `errors`, its feature from `feature`.
   */
  description: string;
  method: HttpMethod;
  /** The path template; its `{name}` parameters are the names the domain function may read. */
  path: P;
  versions: readonly ApiVersion[];
  /** Who may call it; a rule naming `liveSeller` hands the domain function the seller's counter (`LiveSellerRequest`). */
  access: A;
  /** A feature a register's activation must have to call the route (403 ACTIVATION_NO_FEATURE); users need none. */
  feature?: Feature;
  /** The largest JSON body the route takes, in bytes (413 above); `MAX_JSON_BODY_BYTES` when not set. */
  maxBodyBytes?: number;
  /** The query parameters the domain function reads (declared with their parser, shared/http/query.ts). */
  query?: readonly QueryParam[];
  /**
   * Whether the route honours entity tags (docs/conventions.md §5): `read` answers an ETag and 304 to `If-None-Match`,
   * `write` takes `If-Match` / `If-None-Match` (409 VersionConflict).
   */
  conditional?: 'read' | 'write';
  /**
   * The route honours an `Idempotency-Key` (docs/conventions.md §15): a fiscal write without an identifier of its own,
   * whose domain function keeps its answer under the key (`ApiRequest.idempotency`).
   */
  idempotent?: true;
  /** What the route answers on success; every route declares it (tests/unit/openapi.test.ts). */
  responses?: Responses;
  /** The refusals of the domain function (the pipeline's own, of credentials, parameters and bodies, go without saying). */
  errors?: readonly Refusal[];
}

/**
 * What a route's `readAhead` is shown: the request as it came, nothing checked yet but the rules of its path parameters
 * and its body (it is not called when they fail), and its credentials well formed (undefined: it presents none). Its
 * query is unchecked: a value named in a key must be checked first, or a malformed one could fail the batch.
 */
export interface AheadRequest<B, P extends string> {
  params: Readonly<Record<ParamNames<P>, string>>;
  body: B;
  headers: Readonly<Record<string, string | undefined>>;
  query: URLSearchParams;
  credentials: Credentials | undefined;
}

/**
 * The items a route's domain function reads by key first, read ahead in the one round trip that reads the credentials
 * and the seller's counter (shared/db/read-ahead.ts): a guess is harmless, as an item read ahead and not needed only
 * costs its read, and one needed and not read ahead is read when it is needed. A promise lets it load the domain
 * function's module first (`onFirstUse`), which the request needs next anyway.
 */
type ReadAhead<B, P extends string> = (request: AheadRequest<B, P>) => readonly Key[] | Promise<readonly Key[]>;

/** One endpoint as the route table keeps it: the definition with its types erased (`route`). */
export interface Route extends RouteHead<string> {
  body?: BodySpec<unknown>;
  readAhead?: ReadAhead<unknown, string>;
  /** Takes the body as bytes (`RawBody`) instead of JSON; a route has `body` or `raw`, not both. */
  raw?: RawBodySpec;
  /** The domain function that answers the route. */
  handle: (request: ApiRequest<unknown, string>) => Promise<Reply>;
}

/**
 * The domain function of a route: it takes the body and exactly the path parameters its template names, and the
 * seller's counter where its access rule has the pipeline read it (a function asking for it elsewhere does not compile).
 */
type Handler<B, P extends string, A extends AccessRule> = (
  request: ApiRequest<B, ParamNames<P>> & (A extends { liveSeller: object } ? Pick<LiveSellerRequest, 'sellerCounter'> : unknown),
) => Promise<Reply>;

/**
 * Declares a route. The body type comes from its validator, the path parameters from its template,
 * and the domain function must accept exactly those: a misspelt parameter, a body of another schema
 * or a body on a route that takes none does not compile. The table holds routes of every body and
 * path, so their types are erased here, the one place the compiler takes our word: the pipeline
 * validates the body with this route's own validator and matches this route's own template.
 */
export function route<P extends string, A extends AccessRule>(
  definition: RouteHead<P, A> & { body?: undefined; readAhead?: ReadAhead<undefined, P>; handle: Handler<undefined, P, A> },
): Route;
export function route<B, P extends string, A extends AccessRule>(
  definition: RouteHead<P, A> & { body: BodySpec<B>; readAhead?: ReadAhead<B, P>; handle: Handler<B, P, A> },
): Route;
export function route<B, P extends string, A extends AccessRule>(
  definition: RouteHead<P, A> & { body?: BodySpec<B>; readAhead?: ReadAhead<B, P>; handle: Handler<B, P, A> },
): Route {
  const { handle, readAhead, ...head } = definition;
  return {
    ...head,
    ...(readAhead ? { readAhead: (request) => readAhead(request as AheadRequest<B, P>) } : {}),
    handle: (request) => handle(request as LiveSellerRequest<B, ParamNames<P>>),
  };
}

/** Declares a route that takes its body as bytes (`RawBody`, image uploads). */
export function rawRoute<P extends string, A extends AccessRule>(
  definition: RouteHead<P, A> & { raw: RawBodySpec; handle: Handler<RawBody, P, A> },
): Route {
  const { handle, ...head } = definition;
  return { ...head, handle: (request) => handle(request as LiveSellerRequest<RawBody, ParamNames<P>>) };
}

/**
 * A module loader that imports once: an `import()` of a module already loaded still resolves its specifier and
 * looks it up in the loader's map, and the three of a sale POST (its module twice, its body's validator) took 8 % of the
 * CPU it spends besides its DynamoDB calls. A failed import is tried again.
 */
export function loadOnce<M>(load: () => Promise<M>): () => Promise<M> {
  let loaded: Promise<M> | undefined;
  return () =>
    (loaded ??= load().catch((error: unknown) => {
      loaded = undefined;
      throw error;
    }));
}

/**
 * A route's domain function loaded on first use: its module (and what only it imports) becomes a lazy
 * chunk, out of the function's Init. The function keeps its own type, so `route` checks it as ever.
 */
export function onFirstUse<M extends { [N in K]: (request: never) => Promise<Reply> }, K extends keyof M & string>(
  load: () => Promise<M>,
  name: K,
): M[K] {
  const module = loadOnce(load);
  const call = async (request: never) => (await module())[name](request);
  return call as M[K];
}

interface CompiledRoute {
  route: Route;
  segments: readonly string[];
  /** Literal segments win over parameters: `/sellers/x` before `/{sellerId}/x`. */
  rank: string;
}

export interface Match {
  route: Route;
  params: Readonly<Record<string, string>>;
}

const isParam = (segment: string) => segment.startsWith('{') && segment.endsWith('}');

/**
 * A route table compiled once per cold start. It refuses a route whose path names a parameter without a rule
 * (shared/http/params.ts), or that checks its seller without naming `{sellerId}`: checked in the one pass over
 * the segments that builds the table (a separate pass cost the catalog's 63 routes a quarter of a ms at Init).
 */
export class RouteTable {
  readonly #routes: CompiledRoute[];

  constructor(routes: readonly Route[]) {
    this.#routes = routes
      .map((route) => {
        const segments = route.path.split('/').slice(1);
        let rank = '';
        for (const segment of segments) {
          const param = isParam(segment);
          if (param) assertKnownParam(segment.slice(1, -1), route.path);
          rank += param ? '1' : '0';
        }
        if (route.access.liveSeller && !segments.includes('{sellerId}')) {
          throw new Error(`${route.path} checks its seller but names no {sellerId}`);
        }
        return { route, segments, rank };
      })
      // Code-unit order: the ranks are only 0s and 1s, and localeCompare would start ICU's collator at Init.
      .sort((a, b) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : 0));
  }

  /**
   * The route for a method and decoded path segments in one version; a path no route of the
   * version has is ENDPOINT_NOT_FOUND, a known path with another method is 405 (docs/conventions.md §1).
   */
  match(version: ApiVersion, method: string, segments: readonly string[], displayPath: string): Match {
    const allowed = new Set<string>();
    for (const candidate of this.#routes) {
      if (!candidate.route.versions.includes(version)) continue;
      const params = matchSegments(candidate.segments, segments);
      if (params === undefined) continue;
      if (candidate.route.method === method) return { route: candidate.route, params };
      allowed.add(candidate.route.method);
    }
    if (allowed.size > 0) throw methodNotSupported(method, [...allowed]);
    throw endpointNotFound(method, displayPath);
  }
}

function matchSegments(pattern: readonly string[], actual: readonly string[]): Record<string, string> | undefined {
  if (pattern.length !== actual.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, part] of pattern.entries()) {
    const value = actual[index] ?? '';
    if (isParam(part)) {
      if (value === '') return undefined;
      params[part.slice(1, -1)] = value;
    } else if (part !== value) return undefined;
  }
  return params;
}

import type { ValidateFunction } from 'ajv';
import type { AccessRule } from '#shared/auth/access.ts';
import type { Feature } from '#shared/auth/features.ts';
import { endpointNotFound, methodNotSupported } from '#shared/errors.ts';
import type { ApiVersion } from '#shared/versions.ts';
import type { ApiRequest, HttpMethod, Reply } from './types.ts';

/** The request body a route takes: one validator for every version, or one per version. */
export type BodySpec = ValidateFunction | Partial<Record<ApiVersion, ValidateFunction>>;

/** A body taken as bytes rather than JSON (image uploads): the media types accepted and the largest size (413 above). */
export interface RawBodySpec {
  mediaTypes: readonly string[];
  maxBytes: number;
}

/**
 * One endpoint: method, path (after `/v{N}`), the versions that have it, who may call it,
 * the body schema, and the domain function that answers it.
 */
export interface Route<B = unknown> {
  method: HttpMethod;
  path: string;
  versions: readonly ApiVersion[];
  access: AccessRule;
  /** A feature a register's activation must have to call the route (403 ACTIVATION_NO_FEATURE); users need none. */
  feature?: Feature;
  body?: BodySpec;
  /** Takes the body as bytes (`RawBody`) instead of JSON; a route has `body` or `raw`, not both. */
  raw?: RawBodySpec;
  /** The domain function that answers the route. */
  handle(request: ApiRequest<B>): Promise<Reply>;
}

/** Declares a route; the type parameter ties the domain function's body type to the route. */
export const route = <B = undefined>(definition: Route<B>): Route => definition as Route;

interface CompiledRoute {
  route: Route;
  segments: readonly string[];
  /** Literal segments win over parameters: `/sellers/x` before `/{sellerId}/x`. */
  rank: string;
}

export interface Match {
  route: Route;
  params: Record<string, string>;
}

const isParam = (segment: string) => segment.startsWith('{') && segment.endsWith('}');

/** A route table compiled once per cold start. */
export class RouteTable {
  readonly #routes: CompiledRoute[];

  constructor(routes: readonly Route[]) {
    this.#routes = routes
      .map((route) => {
        const segments = route.path.split('/').slice(1);
        return { route, segments, rank: segments.map((s) => (isParam(s) ? '1' : '0')).join('') };
      })
      // Code-unit order: the ranks are only 0s and 1s, and localeCompare would start ICU's collator at Init.
      .sort((a, b) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : 0));
  }

  /**
   * The route for a method and decoded path segments in one version; a path no route of the
   * version has is ENDPOINT_NOT_FOUND, a known path with another method is 405 (DESIGN.md pin 1).
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

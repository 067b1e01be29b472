import type { Principal } from '#shared/auth/principal.ts';
import type { Counter } from '#shared/db/streams.ts';
import type { IdempotencyKey } from '#shared/fiscal/kept-answers.ts';
import type { ApiVersion } from '#shared/versions.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** The names of a path template's parameters: `/{sellerId}/taxes/{identifier}` -> `'sellerId' | 'identifier'`. */
export type ParamNames<P extends string> = P extends `${string}{${infer N}}${infer R}` ? N | ParamNames<R> : never;

/**
 * A request as a route's domain function sees it: version resolved, credentials checked, body
 * validated. `B` is the body's type, `N` the names of the path parameters the function reads (its
 * route's template must have them all, or the route does not compile).
 */
export interface ApiRequest<B = unknown, N extends string = never> {
  version: ApiVersion;
  method: HttpMethod;
  params: Readonly<Record<N, string>>;
  query: URLSearchParams;
  /** Lower-cased header names. */
  headers: Readonly<Record<string, string | undefined>>;
  body: B;
  /** Present on every route that requires credentials. */
  principal: Principal | undefined;
  /** The seller's stream counter, on the routes whose access rule has the pipeline read it (`LiveSellerRequest`). */
  sellerCounter: Counter | undefined;
  /** The request's `Idempotency-Key`, on the routes that honour one (docs/conventions.md §15) when it is sent. */
  idempotency?: IdempotencyKey;
}

/**
 * A request on a route whose access rule names `liveSeller`: the pipeline read the seller's counter to check the seller
 * is live, and a domain function that needs the seller's version reads it here, not again.
 */
export interface LiveSellerRequest<B = unknown, N extends string = never> extends ApiRequest<B, N> {
  sellerCounter: Counter;
}

/** A request body taken as bytes (an image upload), as the client sent it. */
export interface RawBody {
  bytes: Buffer;
  /** The media type of its Content-Type: lower-cased, without parameters. */
  mediaType: string;
}

/** What a domain function answers; serialized in one place (`shared/http/response.ts`). */
export interface Reply {
  status: number;
  body?: unknown;
  /** A body that is not JSON (a PEM file): sent as is with this media type. */
  text?: { body: string; contentType: string };
  /** A binary body (an image): sent base64-encoded with `isBase64Encoded`, which API Gateway decodes. */
  binary?: { body: Buffer; contentType: string };
  headers?: Record<string, string>;
}

import type { Principal } from '#shared/auth/principal.ts';
import type { ApiVersion } from '#shared/versions.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A request as a route's domain function sees it: version resolved, credentials checked, body validated. */
export interface ApiRequest<B = unknown> {
  version: ApiVersion;
  method: HttpMethod;
  params: Readonly<Record<string, string>>;
  query: URLSearchParams;
  /** Lower-cased header names. */
  headers: Readonly<Record<string, string | undefined>>;
  body: B;
  /** Present on every route that requires credentials. */
  principal: Principal | undefined;
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

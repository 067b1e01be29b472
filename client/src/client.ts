import createClient, { type Client, type ClientOptions, type Middleware } from 'openapi-fetch';
import type { components as V33Components, paths as V33 } from './generated/v33.ts';
import type { paths as V15 } from './generated/v15.ts';
import type { paths as V26 } from './generated/v26.ts';

/** The paths of each API version, as its OpenAPI document (docs/openapi) declares them. */
export interface ApiPaths {
  15: V15;
  26: V26;
  33: V33;
}
export type ApiVersion = keyof ApiPaths;

/** A user signs in with Basic; a register with its activation's key (docs/conventions.md §2). */
export type Credentials = { username: string; password: string } | { apiKey: string };

/** The error body of every version (docs/conventions.md §3). */
export type ErrorBody = V33Components['schemas']['Error'];

export interface ClientConfig extends Omit<ClientOptions, 'baseUrl'> {
  /** The stack's root, e.g. `http://localhost:3000` or a stage's API URL; the version is in each path. */
  baseUrl: string;
  /** Sent with every request; none for the `noauth` routes. */
  auth?: Credentials;
}

/** A client of one API version whose paths, parameters, bodies and answers are typed from that version's document. */
export type CashRegisterClient<V extends ApiVersion> = Client<ApiPaths[V]>;

/** The header a set of credentials adds to a request. */
export function authorization(credentials: Credentials): [name: string, value: string] {
  if ('apiKey' in credentials) return ['X-Api-Key', credentials.apiKey];
  // btoa takes Latin-1 only; a username or password may be any UTF-8.
  const bytes = new TextEncoder().encode(`${credentials.username}:${credentials.password}`);
  return ['Authorization', `Basic ${btoa(String.fromCharCode(...bytes))}`];
}

/** Middleware that signs every request with `credentials`. */
export function withCredentials(credentials: Credentials): Middleware {
  const [name, value] = authorization(credentials);
  return {
    onRequest({ request }) {
      request.headers.set(name, value);
      return request;
    },
  };
}

/** A typed client for paths `P` (a version's generated `paths`, or a hand-typed route). */
export function clientOf<P extends object>({ baseUrl, auth, ...options }: ClientConfig): Client<P> {
  const client = createClient<P>({ baseUrl: baseUrl.replace(/\/+$/, ''), ...options });
  if (auth) client.use(withCredentials(auth));
  return client;
}

/** `createCashRegisterClient(33, { baseUrl, auth: { apiKey } })`: a typed client of API version `version`. */
export function createCashRegisterClient<V extends ApiVersion>(_version: V, config: ClientConfig): CashRegisterClient<V> {
  return clientOf<ApiPaths[V]>(config);
}

/**
 * The pinned error body of a failed call, when the answer has one: `error` (`<exception>JsonException`), `exception`,
 * `code`, `message` and `details`, a list of at most one `{field, code, message, params}` (docs/conventions.md §3).
 */
export function errorBodyOf(error: unknown): ErrorBody | undefined {
  if (typeof error !== 'object' || error === null || !('exception' in error)) return undefined;
  return typeof error.exception === 'string' ? (error as ErrorBody) : undefined;
}

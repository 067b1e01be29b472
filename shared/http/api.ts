import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import type { ValidateFunction } from 'ajv';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { insufficientRights } from '#shared/auth/access.ts';
import { authenticate, type Credentials, credentialsItem, credentialsOf } from '#shared/auth/credentials.ts';
import { config } from '#shared/config.ts';
import type { Key } from '#shared/db/keys.ts';
import { emptyUsage, metered } from '#shared/db/meter.ts';
import { withReadAhead } from '#shared/db/read-ahead.ts';
import { readAhead } from '#shared/db/reads.ts';
import { requireLiveSeller, sellerStream } from '#shared/domain/seller.ts';
import {
  ApiError,
  echo,
  endpointNotFound,
  entityTooLarge,
  forbidden,
  headerMissing,
  internalError,
  messageNotReadable,
  methodNotSupported,
} from '#shared/errors.ts';
import type { ApiVersion } from '#shared/versions.ts';
import { parseVersionSegment } from '#shared/versions.ts';
import { type CallerKind, log } from './log.ts';
import { idempotencyOf } from './idempotency.ts';
import { refuseDuringMaintenance, staleSwitch } from './maintenance-mode.ts';
import { checkPathParams } from './params.ts';
import { errorResult, ok, toResult } from './response.ts';
import { type BodySpec, type Match, type RawBodySpec, type Route, RouteTable } from './router.ts';
import type { ApiRequest, RawBody, Reply } from './types.ts';
import { validate } from './validation.ts';

export type HttpApiHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

/** The liveness route (docs/conventions.md §24): no version, no credentials, up while the maintenance switch is on. */
export const HEALTH_PATH = '/health';

/**
 * A route outside the API versions, by its exact path (`GET /health`; the fallback function's `/docs` pages):
 * GET only, no credentials, no table, answered while the maintenance switch is on.
 */
export type PlainRoute = () => Reply | Promise<Reply>;

/** What the request's log line says of it, filled in as the request is understood. */
interface Trace {
  version: string;
  route: string;
  caller: CallerKind;
}

/** The first request of this process paid for its Init (logged as `coldStart`). */
let coldStart = true;

/**
 * How long before the function's timeout a request still at work is answered: time for the answer to leave before
 * Lambda stops the function, also when busy cores run its timer late.
 */
const ANSWER_MARGIN_MS = 500;

/** A request that outlived its function's time; its work may still finish, so its outcome is unknown. */
class OutOfTimeError extends Error {
  override name = 'OutOfTimeError';
}

/**
 * Fails `ANSWER_MARGIN_MS` before the function's timeout (never without a Lambda context, as in tests in process).
 * Lambda would otherwise stop the function mid-request: a function error, which API Gateway answers with its own
 * 500 and the local stack used to answer with a 200 carrying the error object.
 */
function deadlineOf(context: Context): { passed: Promise<never>; clear(): void } {
  const remaining = typeof context.getRemainingTimeInMillis === 'function' ? context.getRemainingTimeInMillis() : undefined;
  if (remaining === undefined) return { passed: new Promise<never>(() => {}), clear: () => {} };
  let timer: NodeJS.Timeout | undefined;
  const passed = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new OutOfTimeError(`No answer within ${remaining} ms`)),
      Math.max(0, remaining - ANSWER_MARGIN_MS),
    );
  });
  return { passed, clear: () => clearTimeout(timer) };
}

/**
 * The one HTTP stack of every function (middy): header normalisation, then dispatch over the
 * group's route table (version, route, maintenance switch, credentials, access, parameters, body, domain
 * function), with every error turned into the pinned body here and nowhere else, and one log line per request.
 */
export function httpApi(routes: readonly Route[], plainRoutes: Readonly<Record<string, PlainRoute>> = {}): HttpApiHandler {
  const table = new RouteTable(routes);
  const plain = new Map<string, PlainRoute>([...Object.entries(plainRoutes), [HEALTH_PATH, health]]);
  const { maxResponseBytes } = config();
  /** The route's answer: a plain route's, or the versioned route's after the maintenance switch and `prepare`. */
  const dispatch = async (
    event: APIGatewayProxyEventV2,
    method: string,
    trace: Trace,
  ): Promise<APIGatewayProxyStructuredResultV2> => {
    const plainRoute = plain.get(event.rawPath);
    if (plainRoute) {
      trace.route = event.rawPath;
      if (method !== 'GET') throw methodNotSupported(method, ['GET']);
      return toResult(await plainRoute(), maxResponseBytes);
    }
    const match = matchRoute(table, event, method, trace);
    trace.route = `/v${match.version}${match.route.path}`;
    const body = bodyOnce(match, event);
    const checks = checksAhead(match, event.headers);
    // After matching: a path no route serves is 404 as ever, and the fallback function reads no table.
    await readAhead(await readsAhead(match, checks, event, body));
    await refuseDuringMaintenance();
    return toResult(await match.route.handle(await prepare(match, checks, event, body, trace)), maxResponseBytes);
  };
  // middy's own early timeout throws out of the handler, past the one place errors become answers: `deadlineOf` instead.
  return middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>({ timeoutEarlyInMillis: 0 })
    .use(httpHeaderNormalizer())
    .handler(async (event, context) => {
      const started = performance.now();
      const usage = emptyUsage();
      const trace: Trace = { version: 'none', route: 'unmatched', caller: 'anonymous' };
      const method = event.requestContext.http.method.toUpperCase();
      const deadline = deadlineOf(context);
      let result: APIGatewayProxyStructuredResultV2;
      let failure: unknown;
      try {
        result = await Promise.race([metered(() => withReadAhead(() => dispatch(event, method, trace)), usage), deadline.passed]);
      } catch (error) {
        // Out of time is a 500 like any unexpected failure, never a success: whether its write happened is unknown.
        failure = error;
        result = errorResult(error instanceof ApiError ? error : internalError(error));
      } finally {
        deadline.clear();
      }
      log.request({
        requestId: event.requestContext.requestId,
        lambdaRequestId: context.awsRequestId,
        functionName: context.functionName,
        coldStart,
        ...trace,
        method,
        status: result.statusCode ?? 200,
        ms: Math.round(performance.now() - started),
        dynamodb: usage,
        error: failure,
      });
      coldStart = false;
      return result;
    });
}

/** `GET /health`: the function answers, nothing else is checked (no table, no credentials). */
const health: PlainRoute = () => ok({ status: 'UP' });

function matchRoute(
  table: RouteTable,
  event: APIGatewayProxyEventV2,
  method: string,
  trace: Trace,
): Match & { version: ApiVersion } {
  const segments = decodeSegments(event.rawPath);
  const version = parseVersionSegment(segments[0]);
  if (version === undefined) throw endpointNotFound(method, event.rawPath);
  trace.version = `v${version}`;
  return { ...table.match(version, method, segments.slice(1), event.rawPath), version };
}

/**
 * Credentials, access, path parameters and body, in that order: an anonymous caller learns nothing about validation.
 * The credentials and path parameters `checksAhead` checked are answered here, at their turn.
 */
async function prepare(
  { route, params: matched, version }: Match & { version: ApiVersion },
  checks: Checks,
  event: APIGatewayProxyEventV2,
  bodyOf: () => Promise<unknown>,
  trace: Trace,
): Promise<ApiRequest> {
  const { headers } = event;
  const principal = checks.credentials
    ? await authenticate(answer(checks.credentials), Date.now(), event.requestContext.http.sourceIp)
    : undefined;
  if (principal) trace.caller = principal.kind;
  const { sellerIdOf } = route.access;
  const params =
    sellerIdOf && matched.sellerId !== undefined ? { ...matched, sellerId: sellerIdOf(principal, matched.sellerId) } : matched;
  if (!(await route.access.allows(principal, params))) throw insufficientRights();
  if (route.feature && principal?.kind === 'activation' && !principal.features.includes(route.feature)) {
    throw forbidden('ACTIVATION_NO_FEATURE', `The activation lacks the feature ${route.feature}`);
  }
  // A seller id the route reads another way (`sellerIdOf`) is checked as it now reads; the matched one was checked ahead.
  if (params.sellerId === matched.sellerId) answer(checks.params);
  else checkPathParams(params);
  const sellerCounter = route.access.liveSeller
    ? await requireLiveSeller(params.sellerId ?? '', route.access.liveSeller)
    : undefined;
  const body = await bodyOf();
  const idempotency = route.idempotent
    ? idempotencyOf(headers, {
        method: route.method,
        rawPath: event.rawPath,
        rawQueryString: event.rawQueryString,
        body: bodyBytes(event),
      })
    : undefined;
  return {
    version,
    method: route.method,
    params,
    query: new URLSearchParams(event.rawQueryString ?? ''),
    headers,
    body,
    principal,
    sellerCounter,
    ...(idempotency ? { idempotency } : {}),
  };
}

/**
 * The request's body, read and validated at most once: before the reads when its route names items by it
 * (`readsAhead`), else at its turn in `prepare`, which is also where a refusal of it is thrown.
 */
function bodyOnce({ route, version }: Match & { version: ApiVersion }, event: APIGatewayProxyEventV2): () => Promise<unknown> {
  let body: Promise<unknown> | undefined;
  const read = async () =>
    route.raw
      ? readRaw(event, event.headers, route.raw)
      : route.body === undefined
        ? undefined
        : readJson(
            event,
            event.headers,
            await bodyValidator(route.body, version),
            route.maxBodyBytes ?? config().maxJsonBodyBytes,
          );
  return () => (body ??= read());
}

/** A check made before its turn: what it found, or the refusal `answer` throws at its turn. */
type Checked<T> = { passed: true; value: T } | { passed: false; refusal: unknown };

function check<T>(run: () => T): Checked<T> {
  try {
    return { passed: true, value: run() };
  } catch (refusal) {
    return { passed: false, refusal };
  }
}

function answer<T>(checked: Checked<T>): T {
  if (!checked.passed) throw checked.refusal;
  return checked.value;
}

/**
 * What is checked of a request once, before its reads: they depend on it (`readsAhead`), and `prepare` answers each
 * check at its turn, so parsing the credentials (hashing an API key) and checking the path parameters are not redone.
 */
interface Checks {
  /** The credentials presented; undefined on a route that takes none. */
  credentials: Checked<Credentials> | undefined;
  /** The path parameters as matched. */
  params: Checked<void>;
}

function checksAhead({ route, params }: Match, headers: Record<string, string | undefined>): Checks {
  return {
    credentials: route.access.credentials ? check(() => credentialsOf(headers)) : undefined,
    params: check(() => checkPathParams(params)),
  };
}

/**
 * The items a request reads by key before its domain function decides anything, read together in one strongly
 * consistent BatchGetItem (shared/db/read-ahead.ts): the maintenance switch when this process's copy is stale, the API
 * key presented, the counter of the seller the path names (the live-seller check) and what the route names
 * (`Route.readAhead`). Nothing is revealed before the checks pass: the items are only read here. With malformed
 * credentials, parameters or body it reads no item of the route's (the checks refuse them, in their order).
 */
async function readsAhead(
  { route, params }: Match,
  checks: Checks,
  { headers, rawQueryString }: APIGatewayProxyEventV2,
  bodyOf: () => Promise<unknown>,
): Promise<Key[]> {
  if (checks.credentials?.passed === false || !checks.params.passed) return staleSwitch();
  const credentials = checks.credentials?.value;
  const item = credentials && credentialsItem(credentials);
  // A body its checks will refuse names nothing.
  const body = route.readAhead
    ? await bodyOf().then(
        (value) => ({ value }),
        () => undefined,
      )
    : undefined;
  // Only a route that reads ahead is shown the query, so no other request parses it here as well as in `prepare`.
  const named =
    body && route.readAhead
      ? await route.readAhead({
          params,
          body: body.value,
          headers,
          query: new URLSearchParams(rawQueryString ?? ''),
          credentials,
        })
      : undefined;
  return [
    ...staleSwitch(),
    ...(item ? [item] : []),
    ...(route.access.liveSeller && params.sellerId !== undefined ? [sellerStream(params.sellerId).counter] : []),
    ...(named ?? []),
  ];
}

/** Path segments after the leading slash, percent-decoded; a malformed escape names no endpoint. */
function decodeSegments(rawPath: string): string[] {
  return rawPath
    .split('/')
    .slice(1)
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        throw endpointNotFound('', rawPath);
      }
    });
}

function bodyValidator(spec: BodySpec<unknown>, version: ApiVersion): Promise<ValidateFunction> {
  const validator = 'load' in spec ? spec : spec[version];
  if (!validator) throw new Error(`Route has no body schema for v${version}`);
  return validator.load();
}

/**
 * How deep a JSON body may nest arrays and objects (docs/conventions.md §3). The deepest body any schema takes nests 4
 * levels (a restaurant's opening hours); the limit keeps what is parsed, validated and echoed far from the stack's depth.
 */
export const MAX_JSON_DEPTH = 32;

/**
 * Fatal: bytes that are not UTF-8 refuse the body instead of becoming U+FFFD. A BOM is kept, so JSON.parse refuses it as
 * before. One decoder for every body: a decode without `stream` keeps nothing for the next one.
 */
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The JSON body: Content-Type required, size capped (413), strict UTF-8, depth capped and parsed (400 MessageNotReadable),
 * validated.
 */
function readJson(
  event: APIGatewayProxyEventV2,
  headers: Record<string, string | undefined>,
  validator: ValidateFunction,
  limit: number,
): unknown {
  const raw = bodyBytes(event);
  if (raw.length > limit) throw entityTooLarge(limit);
  const contentType = headers['content-type'];
  if (contentType === undefined) throw headerMissing('Content-Type');
  if (!/^application\/([\w.+-]*\+)?json\s*(;|$)/i.test(contentType)) {
    throw messageNotReadable(`Content-Type ${echo(contentType)} is not supported; send application/json`);
  }
  if (raw.length === 0) throw messageNotReadable('Required request body is missing');
  let text: string;
  try {
    text = UTF8.decode(raw);
  } catch {
    throw messageNotReadable('The body is not valid UTF-8');
  }
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    throw messageNotReadable(`The body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`, {
      depthMax: MAX_JSON_DEPTH,
    });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw messageNotReadable('The body is not valid JSON');
  }
  return validate(validator, parsed);
}

/**
 * Whether `text` opens more than `max` arrays or objects at once, counting brackets outside strings: one pass, no
 * recursion, before JSON.parse builds a value that validation or serialisation would walk. Exact for valid JSON;
 * whatever it says of invalid JSON, JSON.parse refuses that too.
 */
function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === BACKSLASH) index += 1;
      else if (char === QUOTE) inString = false;
    } else if (char === QUOTE) inString = true;
    else if (char === OPEN_ARRAY || char === OPEN_OBJECT) {
      depth += 1;
      if (depth > max) return true;
    } else if (char === CLOSE_ARRAY || char === CLOSE_OBJECT) depth -= 1;
  }
  return false;
}
/** `"`, `\\`, `[`, `]`, `{`, `}` as UTF-16 code units. */
const [QUOTE, BACKSLASH, OPEN_ARRAY, CLOSE_ARRAY, OPEN_OBJECT, CLOSE_OBJECT] = [0x22, 0x5c, 0x5b, 0x5d, 0x7b, 0x7d] as const;

/** The body's bytes. API Gateway base64-encodes a binary body (isBase64Encoded) and omits an empty one; serverless-offline sends null. */
function bodyBytes(event: APIGatewayProxyEventV2): Buffer {
  return event.body ? Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8') : Buffer.alloc(0);
}

/** A raw body (an image): size capped (413), Content-Type required (400 HttpHeaderMissing) and one the route takes, not empty. */
function readRaw(event: APIGatewayProxyEventV2, headers: Record<string, string | undefined>, spec: RawBodySpec): RawBody {
  const bytes = bodyBytes(event);
  if (bytes.length > spec.maxBytes) throw entityTooLarge(spec.maxBytes);
  const contentType = headers['content-type'];
  if (contentType === undefined) throw headerMissing('Content-Type');
  const mediaType = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  if (!spec.mediaTypes.includes(mediaType)) {
    throw messageNotReadable(`Content-Type ${echo(contentType)} is not supported; send one of ${spec.mediaTypes.join(', ')}`, {
      contentType: echo(contentType),
    });
  }
  if (bytes.length === 0) throw messageNotReadable('Required request body is missing');
  return { bytes, mediaType };
}

/**
 * Builds the OpenAPI 3.1 document of each API version from the route tables (`routes` of every
 * `functions/<group>/handler.ts`) and `schemas/`: nothing in the documents is written by hand. What the pipeline
 * refuses by itself (credentials, access, parameters, bodies, sizes) comes from the route's declaration; what its
 * domain function answers comes from the route's `responses` and `errors` (shared/http/router.ts).
 */
import { readdirSync } from 'node:fs';
import * as validators from '#schemas/generated/validators.js';
import { bodyExamples, errorExamples, type Example, responseExamples, viewExample } from '#schemas/examples.ts';
import { type BodySchemaName, bodySchemas, responseSchemas, type SchemaName, sharedSchemas } from '#schemas/index.ts';
import { scalars } from '#schemas/scalars.ts';
import { access } from '#shared/auth/access.ts';
import { CODES, EXCEPTIONS, type Exception } from '#shared/errors.ts';
import { IDEMPOTENCY_KEY_PATTERN } from '#shared/http/idempotency.ts';
import type { QueryParam } from '#shared/http/query.ts';
import type { BodySpec, ResponseBody, Route } from '#shared/http/router.ts';
import { API_VERSIONS, type ApiVersion } from '#shared/versions.ts';
import { CONVENTIONS_PAGE, DEFAULT_SERVER_URL, SERVER_DESCRIPTION, TAG_DESCRIPTIONS } from './tags.ts';

type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json | undefined };
type JsonObject = { [key: string]: Json | undefined };

/** A route of a group (the folder under functions/, the operation's tag). */
export interface GroupRoute {
  group: string;
  route: Route;
}

/** Every route of every group, in folder order: a group another branch adds is documented by regenerating. */
export async function loadRoutes(): Promise<GroupRoute[]> {
  // A route table's module builds its handler at import, which reads the configuration.
  process.env.TABLE_NAME ??= 'openapi';
  const root = new URL('../../functions/', import.meta.url);
  const groups = readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const all: GroupRoute[] = [];
  for (const group of groups) {
    const module: { routes?: unknown } = await import(new URL(`${group}/handler.ts`, root).href);
    if (Array.isArray(module.routes)) for (const route of module.routes as Route[]) all.push({ group, route });
  }
  return all;
}

/** Routes that declare no `responses`: documented with a bare `default` answer, and refused by the freshness test. */
export const undocumented = (routes: readonly GroupRoute[]): string[] =>
  routes.filter(({ route }) => route.responses === undefined).map(({ route }) => `${route.method} ${route.path}`);

/** `scalars#/$defs/x` and `tax` as references into the document's components. */
function toComponents(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(toComponents);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$id') continue;
    if (key === '$ref' && typeof value === 'string') {
      const [name, pointer = ''] = value.split('#');
      out.$ref = `#/components/schemas/${name}${pointer}`;
    } else out[key] = toComponents(value ?? null);
  }
  return out;
}

/**
 * A request schema as an answer shows it: every field present, `null` where the entity has none (`present` in
 * shared/versions.ts), and a tombstone in a diff null but for its identifier. So nothing is required, every type
 * admits null, and fields the answer adds (its version, its dates) are allowed.
 */
function asView(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(asView);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'required' || key === 'additionalProperties' || key === '$id') continue;
    if (key === 'type') out.type = [...new Set([...(Array.isArray(value) ? value : [value]), 'null'])] as Json;
    else if (key === 'enum' && Array.isArray(value)) out.enum = value.includes(null) ? value : [...value, null];
    else if (key === '$ref' && typeof value === 'string' && !value.includes('#')) out.$ref = `${value}View`;
    // Field names are no keywords: a field called `type` (the e-journal upload's) keeps its schema.
    else if (key === 'properties' && value !== null && typeof value === 'object' && !Array.isArray(value))
      out.properties = Object.fromEntries(Object.entries(value).map(([name, field]) => [name, asView(field ?? null)]));
    else out[key] = asView(value ?? null);
  }
  return out;
}

/**
 * A request schema's view as the answer's root: every field of the version present (`present` in shared/versions.ts),
 * so all are required, and the answer itself is never null; its fields stay nullable as `asView` makes them.
 */
function rootView(schema: Json): Json {
  const view = asView(schema);
  if (!isJsonObject(view)) return view;
  const { type, properties } = view;
  return {
    ...view,
    ...(Array.isArray(type) ? { type: type.filter((name) => name !== 'null') } : {}),
    ...(isJsonObject(properties) ? { required: Object.keys(properties) } : {}),
  };
}

const isJsonObject = (value: Json | undefined): value is { readonly [key: string]: Json | undefined } =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const isBodySchema = (name: string): name is keyof typeof bodySchemas => name in bodySchemas;
const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });
/** The component of a response schema: a request body's view (`<name>View`) or a response's own. */
const responseRef = (name: SchemaName) => schemaRef(isBodySchema(name) ? `${name}View` : name);

/** A media type's `examples`, named; a list shows each example as a list of one. */
function mediaExamples(named: Readonly<Record<string, Example<unknown>>>, list = false): JsonObject {
  const entries = Object.entries(named).map(([name, { summary, value }]) => [
    name,
    { summary, value: (list ? [value] : value) as Json },
  ]);
  return entries.length > 0 ? { examples: Object.fromEntries(entries) } : {};
}

/** The example of a response schema: a request body's view or a response's own (schemas/examples.ts). */
function responseExample(name: SchemaName): Record<string, Example> {
  const example = isBodySchema(name) ? viewExample(name) : responseExamples[name];
  return example ? { [name]: example } : {};
}

/** Each generated validator by identity, to name a route's body schema. */
const validatorNames = new Map<unknown, string>(Object.entries(validators).map(([name, validator]) => [validator, name]));

const sellerIdSchema = {
  type: 'string',
  description: 'The country code followed directly by the corporate id (docs/conventions.md §9).',
  pattern: '^[A-Z]{2}.+$',
  examples: ['SE5560360793'],
};
const count = { type: 'integer', minimum: 0 };
const scalar = (name: keyof typeof scalars.$defs) => ({ type: 'string', ...scalars.$defs[name] });

/** The schema of each path parameter (its rule is in shared/http/params.ts); one not named here is a string. */
function pathParamSchema(name: string, version: ApiVersion): JsonObject {
  switch (name) {
    case 'sellerId':
      return sellerIdSchema;
    case 'cash':
      return scalar('cashRegisterName');
    case 'productionNumber':
    case 'deviceId':
    case 'applicationPackage':
      return scalar(name);
    case 'versionFrom':
    case 'versionTo':
    case 'activationId':
    case 'vendorId':
    case 'orderId':
    case 'dayId':
    case 'dayIdentifier':
      return count;
    case 'token':
      return {
        type: 'string',
        description: "A digital receipt's token: 128 random bits in base64url (docs/conventions.md §16); any other is 404.",
        examples: ['3q2-7wAAAAD_____AAAAAA'],
      };
    case 'pictureVersion':
      return version === 15 ? { type: 'string', enum: ['current', 'version'] } : count;
    default:
      return scalar('identifier');
  }
}

/** The exceptions (with their codes, null for none) a status may carry. */
type Refusals = Map<number, Map<Exception, Set<string | null>>>;

function refuse(refusals: Refusals, exception: Exception, codes: readonly (string | null)[]): void {
  const status = EXCEPTIONS[exception];
  const byException = refusals.get(status) ?? new Map<Exception, Set<string | null>>();
  refusals.set(status, byException);
  const set = byException.get(exception) ?? new Set<string | null>();
  byException.set(exception, set);
  for (const code of codes) set.add(code);
}

const AUTH_CODES = [
  'AUTHORIZATION_DATA_IS_NOT_VALID',
  'WRONG_USERNAME_OR_PASSWORD',
  'TOO_MANY_WRONG_PASSWORDS',
  'INSUFFICIENT_ACCESS_RIGHTS',
  'ACTIVATION_STILL_ISSUED',
  'ACTIVATION_CLOSED_ALREADY',
  'WRONG_ACTIVATION_PERIOD',
  'SELLER_NOT_FOUND',
] as const;
const VALUE_CODES = [...CODES.ValueNotValid];

/** What the pipeline refuses by itself for this route (shared/http/api.ts, docs/conventions.md §1-6), then the route's own. */
function refusalsOf(route: Route, hasBody: boolean): Refusals {
  const refusals: Refusals = new Map();
  const params = route.path.match(/\{\w+\}/g) ?? [];
  if (route.access.credentials) {
    refuse(refusals, 'Unauthorized', [null]);
    refuse(refusals, 'Forbidden', AUTH_CODES);
  }
  if (route.feature) refuse(refusals, 'Forbidden', ['ACTIVATION_NO_FEATURE']);
  if (params.length > 0) {
    refuse(refusals, 'ValueNotValid', VALUE_CODES);
    if (params.some((param) => pathParamSchema(param.slice(1, -1), 33) === count)) {
      refuse(refusals, 'TypeMismatch', [null]);
      refuse(refusals, 'InconsistentData', ['QUERY_PARAM_CANT_BE_NEGATIVE']);
    }
  }
  if (route.access.liveSeller) {
    const missing = route.access.liveSeller('');
    refuse(refusals, missing.exception, [missing.code]);
  }
  if (route.query?.length) {
    refuse(refusals, 'TypeMismatch', [null]);
    refuse(refusals, 'ValueNotValid', VALUE_CODES);
    refuse(refusals, 'InconsistentData', ['QUERY_PARAM_CANT_BE_NEGATIVE']);
    if (route.query.some((param) => param.name === 'maxResults')) {
      refuse(refusals, 'InconsistentData', ['QUERY_PARAM_CANT_BE_NEGATIVE', 'SERVER_IS_OVERLOADED']);
    }
    if (route.query.some((param) => param.required)) refuse(refusals, 'RequestParameterMissing', [null]);
  }
  if (route.body || route.raw) {
    refuse(refusals, 'HttpHeaderMissing', [null]);
    refuse(refusals, 'MessageNotReadable', [null]);
    refuse(refusals, 'RequestEntityTooLarge', [null]);
  }
  if (route.body) refuse(refusals, 'ValueNotValid', VALUE_CODES);
  if (route.conditional) refuse(refusals, 'InvalidETagFormat', [null]);
  if (route.conditional === 'write') refuse(refusals, 'VersionConflict', [null]);
  if (route.idempotent) {
    refuse(refusals, 'ValueNotValid', ['SHOULD_MATCH_PATTERN']);
    refuse(refusals, 'VersionConflict', [null]);
  }
  if (hasBody) refuse(refusals, 'InconsistentData', ['SERVER_IS_OVERLOADED']);
  // An exception named without codes may carry any of its codes.
  for (const [exception, ...codes] of route.errors ?? []) {
    refuse(
      refusals,
      exception,
      codes.length > 0 ? codes : [null, ...((CODES as Partial<Record<Exception, readonly string[]>>)[exception] ?? [])],
    );
  }
  refuse(refusals, 'InternalServerError', [null]);
  refuse(refusals, 'ServiceUnavailable', [null]);
  return refusals;
}

const ERROR_HEADERS: Partial<Record<number, JsonObject>> = {
  401: { 'WWW-Authenticate': { description: 'Basic realm="cash-register", charset="UTF-8"', schema: { type: 'string' } } },
  403: {
    'Retry-After': {
      description: 'With TOO_MANY_WRONG_PASSWORDS: seconds until this address may try a password for the username again.',
      schema: { type: 'integer' },
    },
  },
  503: { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } } },
};

/** The shared error responses of a document, named by what they carry, so two operations with the same refusals share one. */
class ErrorResponses {
  readonly components: JsonObject = {};

  ref(status: number, byException: Map<Exception, Set<string | null>>): JsonObject {
    const exceptions = [...byException.keys()].sort();
    const codes = [...new Set([...byException.values()].flatMap((set) => [...set]))].sort((a, b) =>
      a === null ? -1 : b === null ? 1 : a < b ? -1 : a > b ? 1 : 0,
    );
    const name = `${exceptions.join('Or')}${codes.some((code) => code !== null) ? `_${this.#key(codes)}` : ''}`;
    this.components[name] ??= {
      description: exceptions
        .map((exception) => {
          const named = [...(byException.get(exception) ?? [])].filter((code) => code !== null);
          return named.length > 0 ? `${exception} (${named.join(', ')})` : exception;
        })
        .join('; '),
      ...(ERROR_HEADERS[status] ? { headers: ERROR_HEADERS[status] } : {}),
      content: {
        'application/json': {
          schema: {
            allOf: [schemaRef('Error')],
            properties: {
              error: { enum: exceptions.map((exception) => `${exception}JsonException`) },
              exception: { enum: exceptions },
              code: { enum: codes },
            },
          },
          ...mediaExamples(
            Object.fromEntries(
              exceptions.flatMap((exception) => {
                const listed = byException.get(exception) ?? new Set();
                const example = errorExamples[exception].find(({ value }) => listed.has(value.code));
                return example ? [[`${exception}${example.value.code === null ? '' : `_${example.value.code}`}`, example]] : [];
              }),
            ),
          ),
        },
      },
    };
    return { $ref: `#/components/responses/${name}` };
  }

  /** A short stable key of a set of codes (the names can be long). */
  #key(codes: readonly (string | null)[]): string {
    let hash = 0;
    for (const char of JSON.stringify(codes)) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
    return hash.toString(36);
  }
}

const errorSchema = {
  type: 'object',
  description:
    'The error body of every version (docs/conventions.md §3): `error` is the exception with the suffix `JsonException`, ' +
    '`details` lists what the error tells of the value at fault (none, or one item).',
  required: ['error', 'exception', 'code', 'message', 'details'],
  additionalProperties: false,
  properties: {
    error: { type: 'string', enum: Object.keys(EXCEPTIONS).map((exception) => `${exception}JsonException`) },
    exception: { type: 'string', enum: Object.keys(EXCEPTIONS) },
    code: { type: ['string', 'null'] },
    message: { type: 'string' },
    details: { type: 'array', maxItems: 1, items: schemaRef('ErrorDetail') },
  },
  examples: [
    {
      error: 'ValueNotValidJsonException',
      exception: 'ValueNotValid',
      code: 'SIZE_SHOULD_BE_IN_RANGE',
      message: 'name has the wrong size',
      details: [
        {
          field: 'name',
          code: 'SIZE_SHOULD_BE_IN_RANGE',
          message: 'name has the wrong size',
          params: { actualValue: 0, sizeMin: 1, sizeMax: 32 },
        },
      ],
    },
  ],
};

const errorDetailSchema = {
  type: 'object',
  description:
    "One item of an error's `details` (docs/conventions.md §3): `field` is the offending value's path into the body, or " +
    "the name of the path or query parameter or header at fault (null when the error is about no one value); `code` and `message` are the error's; " +
    "`params` holds the rest: ValueNotValid's `actualValue`, `pattern`, `sizeMin`, `sizeMax`, `valueMin`, `valueMax`, and " +
    "the other exceptions' own (`sizeMax`, `depthMax`, `printType`, `returnCode`, `relation`, `expected`, ...).",
  required: ['field', 'code', 'message', 'params'],
  additionalProperties: false,
  properties: {
    field: { type: ['string', 'null'] },
    code: { type: ['string', 'null'] },
    message: { type: 'string' },
    params: { type: 'object' },
  },
};

const replayedHeader = {
  'Idempotent-Replayed': {
    description: '`true` on the repeat of a request already answered: the first answer again, nothing written.',
    schema: { type: 'string', enum: ['true'] },
  },
};
const etagHeader = { ETag: { description: 'The entity\'s version as a strong tag `"<n>"`.', schema: { type: 'string' } } };

/** The body of a success answer in one version. */
function successContent(route: Route, body: ResponseBody, version: ApiVersion): JsonObject {
  const json = (name: SchemaName, schema: Json, list: boolean) => ({
    'application/json': {
      schema: list ? { type: 'array', items: schema } : schema,
      ...mediaExamples(responseExample(name), list),
    },
  });
  if (typeof body === 'string') return json(body, responseRef(body), false);
  if ('view' in body) {
    const name = validatorName(route, body.view, version);
    return json(name, schemaRef(`${name}View`), body.list === true);
  }
  if ('list' in body) return json(body.list, responseRef(body.list), true);
  return {
    ...Object.fromEntries(body.media.map((media) => [media, { schema: { type: 'string', contentMediaType: media } }])),
    ...(body.orJson ? json(body.orJson, responseRef(body.orJson), false) : {}),
  };
}

const isPerVersion = (spec: object): spec is Readonly<Partial<Record<ApiVersion, ResponseBody>>> =>
  API_VERSIONS.some((version) => String(version) in spec);

/** `GET /{sellerId}/taxes/{identifier}` -> `getBySellerIdTaxesByIdentifier`. */
function operationId(route: Route): string {
  const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
  const words = route.path
    .split('/')
    .filter(Boolean)
    .map((segment) =>
      segment.startsWith('{')
        ? `By${capital(segment.slice(1, -1))}`
        : segment
            .split(/[^A-Za-z0-9]/)
            .map(capital)
            .join(''),
    );
  return route.method.toLowerCase() + words.join('');
}

function security(route: Route): Json {
  if (!route.access.credentials) return [];
  // A register may send its key as X-Api-Key or as Basic credentials without a colon.
  if ([access.register, access.ownRegister, access.ownRegisterSrv4pos].some((rule) => rule === route.access)) {
    return [{ apiKey: [] }, { basic: [] }];
  }
  if (route.access === access.user || route.access === access.hyperAdmin || route.access === access.administrator) {
    return [{ basic: [] }];
  }
  return [{ basic: [] }, { apiKey: [] }];
}

function requestBody(route: Route, version: ApiVersion): JsonObject | undefined {
  if (route.raw) {
    return {
      required: true,
      description: `At most ${route.raw.maxBytes} bytes.`,
      content: Object.fromEntries(
        route.raw.mediaTypes.map((media) => [media, { schema: { type: 'string', contentMediaType: media } }]),
      ),
    };
  }
  if (!route.body) return undefined;
  const name = validatorName(route, route.body, version);
  return {
    required: true,
    content: { 'application/json': { schema: schemaRef(name), ...mediaExamples(bodyExamples[name]) } },
  };
}

/** The schema a body validator checks in a version. */
function validatorName(route: Route, spec: BodySpec<unknown>, version: ApiVersion): BodySchemaName {
  const name = validatorNames.get('load' in spec ? spec : spec[version]);
  if (name === undefined || !isBodySchema(name))
    throw new Error(`${route.method} ${route.path}: no body schema of v${version} in schemas/generated`);
  return name;
}

const queryParameter = (param: QueryParam): JsonObject => ({
  name: param.name,
  in: 'query',
  required: param.required ?? false,
  description: param.description,
  schema: param.schema as Json,
});

/**
 * Who may call a route, by its access rule (shared/auth/access.ts); a rule not named here fails the build, so a new
 * rule gets its sentence.
 */
const CALLERS = new Map<unknown, string>([
  [access.anyone, 'Anyone may call it, with no credentials.'],
  [access.authenticated, 'Any user or register with valid credentials may call it; what it answers depends on who calls.'],
  [access.user, 'Called by a user (Basic credentials), not a register; what it answers depends on the user.'],
  [access.register, 'Called by a register, with its activation key (X-Api-Key).'],
  [access.hyperAdmin, 'Only the hyper admin may call it.'],
  [access.administrator, 'Called by the hyper admin, or by a software-vendor user for its own vendor.'],
  [
    access.seller,
    "Called by a user with access to the path's seller (the hyper admin, a software-vendor user whose application the " +
      'seller runs, a user connected to the seller) or by a register (X-Api-Key) of that seller; a deleted seller is 404.',
  ],
  [
    access.sellerReference,
    "Called by a user with access to the path's seller or by a register (X-Api-Key) of that seller; a missing seller " +
      'is 404 ReferenceNotFound.',
  ],
  [
    access.ownRegister,
    "Called by a register (X-Api-Key) of the path's seller, and of the path's register where the path names one.",
  ],
  [
    access.ownRegisterSrv4pos,
    "Called by a register (X-Api-Key) of the path's seller, which the path may name in any letter case or by its " +
      'corporate id alone.',
  ],
  [
    access.sellerRecord,
    'Called by a user with access to the seller (the hyper admin, a software-vendor user whose application the seller ' +
      'runs, a user connected to it) or by a register (X-Api-Key) of that seller.',
  ],
]);

/**
 * The operation's description: the route's own, then who may call it, the feature a register's activation needs and
 * whether it honours an Idempotency-Key. Its refusals are its responses.
 */
export function describeRoute(route: Route): string {
  const callers = CALLERS.get(route.access);
  if (callers === undefined) throw new Error(`${route.method} ${route.path}: no sentence for its access rule (CALLERS)`);
  return [
    route.description,
    callers,
    route.feature
      ? `A register's activation needs the feature ${route.feature} (403 ACTIVATION_NO_FEATURE without it); users need none.`
      : undefined,
    route.idempotent
      ? 'Honours an Idempotency-Key: a retry with the same key and request answers the first answer again and writes nothing.'
      : undefined,
  ]
    .filter((paragraph) => paragraph !== undefined)
    .join('\n\n');
}

function operation(group: string, route: Route, version: ApiVersion, errors: ErrorResponses): JsonObject {
  const parameters: JsonObject[] = (route.path.match(/\{\w+\}/g) ?? []).map((param) => {
    const name = param.slice(1, -1);
    return { name, in: 'path', required: true, schema: pathParamSchema(name, version) };
  });
  parameters.push(...(route.query ?? []).map(queryParameter));
  const tagList = (description: string) => ({ description, schema: { type: 'string' } });
  if (route.conditional === 'read') {
    parameters.push({
      name: 'If-None-Match',
      in: 'header',
      required: false,
      ...tagList('`*` or a list of `"<n>"`: 304 when one is current.'),
    });
  }
  if (route.conditional === 'write') {
    parameters.push(
      {
        name: 'If-Match',
        in: 'header',
        required: false,
        ...tagList('`*` or a list of `"<n>"`: 409 VersionConflict unless one is current.'),
      },
      {
        name: 'If-None-Match',
        in: 'header',
        required: false,
        ...tagList('`*`: create only (409 VersionConflict when it exists).'),
      },
    );
  }
  if (route.idempotent) {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'Any 1 to 255 printable ASCII characters, new for each write: a repeat with the same key and request answers the ' +
        'first answer again (`Idempotent-Replayed: true`) and writes nothing; the key with another request is 409 ' +
        'VersionConflict. Kept 24 hours, per register.',
      schema: { type: 'string', pattern: IDEMPOTENCY_KEY_PATTERN },
    });
  }
  const responses: JsonObject = {};
  let hasBody = false;
  if (route.responses === undefined) responses.default = { description: 'Not documented yet.' };
  for (const [status, spec] of Object.entries(route.responses ?? {})) {
    const body = spec !== null && typeof spec === 'object' && isPerVersion(spec) ? spec[version] : spec;
    hasBody ||= body !== null && body !== undefined;
    responses[status] = {
      description: status === '204' ? 'Done; no body.' : status === '202' ? 'Accepted; no body.' : 'Success.',
      ...(route.conditional === 'read' && status === '200' ? { headers: etagHeader } : {}),
      ...(route.idempotent && status !== '204' ? { headers: replayedHeader } : {}),
      ...(body === null || body === undefined ? {} : { content: successContent(route, body, version) }),
    };
  }
  if (route.conditional === 'read') responses['304'] = { description: 'Not modified since the tag given.', headers: etagHeader };
  const refusals = refusalsOf(route, hasBody);
  for (const status of [...refusals.keys()].sort())
    responses[String(status)] = errors.ref(status, refusals.get(status) ?? new Map());
  const body = requestBody(route, version);
  return {
    operationId: operationId(route),
    summary: route.summary,
    description: describeRoute(route),
    tags: [group],
    security: security(route),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body ? { requestBody: body } : {}),
    responses,
  };
}

/** The components every document shares: the request schemas, their views and the response schemas. */
function schemaComponents(): JsonObject {
  const schemas: JsonObject = { Error: errorSchema, ErrorDetail: errorDetailSchema };
  for (const schema of sharedSchemas) {
    schemas[schema.$id] = toComponents(schema as Json);
    schemas[`${schema.$id}View`] = toComponents(asView(schema as Json));
  }
  for (const [name, schema] of Object.entries(bodySchemas)) {
    schemas[name] = toComponents(schema as Json);
    schemas[`${name}View`] = toComponents(rootView(schema as Json));
  }
  // Sorted: a module namespace lists its exports in name order under Node, in source order under Vite.
  for (const name of Object.keys(responseSchemas).sort()) {
    // A response named `<body>View` replaces that body's generated view on purpose (`dayView`: the day exactly, not
    // the loose view); one named as anything else the documents hold would replace it unseen.
    if (name in schemas && !(name.endsWith('View') && name.slice(0, -'View'.length) in schemas)) {
      throw new Error(`schemas/responses.ts: ${name} is already the name of a request schema`);
    }
    schemas[name] = responseSchemas[name as keyof typeof responseSchemas] as Json;
  }
  return schemas;
}

const ORDER = ['get', 'put', 'post', 'delete'];

/** A group's sentence (scripts/openapi/tags.ts); a group without one fails the build. */
function tagDescription(group: string): string {
  const description = TAG_DESCRIPTIONS[group];
  if (description === undefined) throw new Error(`functions/${group} has no description in scripts/openapi/tags.ts`);
  return description;
}

/** The document of one API version. */
export function buildDocument(routes: readonly GroupRoute[], version: ApiVersion): JsonObject {
  const errors = new ErrorResponses();
  const paths: Record<string, JsonObject> = {};
  for (const { group, route } of routes) {
    if (!route.versions.includes(version)) continue;
    const item = (paths[`/v${version}${route.path}`] ??= {});
    item[route.method.toLowerCase()] = operation(group, route, version, errors);
  }
  const sorted = Object.fromEntries(
    Object.keys(paths)
      .sort()
      .map((path) => {
        const item = paths[path] ?? {};
        return [path, Object.fromEntries(ORDER.filter((method) => method in item).map((method) => [method, item[method]]))];
      }),
  );
  return {
    openapi: '3.1.0',
    info: {
      title: `Cash register back end, API v${version}`,
      version: `v${version}`,
      description:
        'Generated by `npm run openapi` from schemas/ and the route tables; do not edit. The conventions every endpoint ' +
        `follows (errors, entity tags, lists, sync) are [docs/conventions.md](${CONVENTIONS_PAGE}), served beside this page.`,
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: DEFAULT_SERVER_URL, description: SERVER_DESCRIPTION }],
    tags: [...new Set(routes.filter(({ route }) => route.versions.includes(version)).map(({ group }) => group))].map((name) => ({
      name,
      description: tagDescription(name),
    })),
    paths: sorted,
    components: {
      schemas: schemaComponents(),
      responses: errors.components,
      securitySchemes: {
        basic: {
          type: 'http',
          scheme: 'basic',
          description:
            'A user, base64 of `username:password`; or a register, base64 of its activation key alone, without a colon (docs/conventions.md §2).',
        },
        apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key', description: "A register's activation key." },
      },
    },
  };
}

/** Every version's document as the committed file holds it. */
export async function buildDocuments(): Promise<{ files: Map<string, string>; undocumented: string[] }> {
  const routes = await loadRoutes();
  const files = new Map<string, string>();
  for (const version of API_VERSIONS)
    files.set(`v${version}.json`, `${JSON.stringify(buildDocument(routes, version), null, 2)}\n`);
  return { files, undocumented: undocumented(routes) };
}

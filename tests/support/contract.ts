/**
 * Contract tests: every answer the e2e suite receives is checked against the OpenAPI document of its version
 * (docs/openapi, kept fresh by tests/unit/openapi.test.ts), so the documents and the service cannot drift apart.
 * The route is found as the router finds it (literal segments before parameters); its operation must list the
 * status, and the body must match that status's schema, or carry one of its media types where it is no JSON.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { parseVersionSegment } from '#shared/versions.ts';

interface MediaType {
  schema?: object;
}
interface Response {
  $ref?: string;
  content?: Record<string, MediaType>;
}
interface Operation {
  responses: Record<string, Response>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { responses: Record<string, Response> };
}
interface Template {
  path: string;
  segments: string[];
  rank: string;
}
interface Loaded {
  document: Document;
  ajv: Ajv2020;
  templates: Template[];
  validators: Map<string, ValidateFunction>;
}

/** What a test observed of one exchange. */
export interface Exchange {
  method: string;
  path: string;
  status: number;
  contentType: string;
  text: string;
  body: unknown;
}

const loaded = new Map<number, Loaded>();
const isParam = (segment: string) => segment.startsWith('{') && segment.endsWith('}');
const pointer = (...parts: string[]) => parts.map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

function load(version: number): Loaded {
  const known = loaded.get(version);
  if (known) return known;
  const document = JSON.parse(readFileSync(new URL(`../../docs/openapi/v${version}.json`, import.meta.url), 'utf8')) as Document;
  // The document is one schema resource, so its `#/components/...` references resolve; its other keywords are not ours.
  const ajv = new Ajv2020({ strict: false, validateSchema: false, validateFormats: false, allowUnionTypes: true });
  ajv.addSchema(document, 'openapi');
  const templates = Object.keys(document.paths)
    .map((path) => {
      const segments = path.split('/').slice(2);
      return { path, segments, rank: segments.map((segment) => (isParam(segment) ? '1' : '0')).join('') };
    })
    .sort((a, b) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : 0));
  const entry = { document, ajv, templates, validators: new Map<string, ValidateFunction>() };
  loaded.set(version, entry);
  return entry;
}

function matches(template: Template, segments: readonly string[]): boolean {
  return (
    template.segments.length === segments.length &&
    template.segments.every((part, index) => (isParam(part) ? segments[index] !== '' : part === segments[index]))
  );
}

function decode(path: string): string[] | undefined {
  try {
    return path.split('/').slice(1).map(decodeURIComponent);
  } catch {
    return undefined;
  }
}

const GENERIC = { 404: 'an unknown endpoint', 405: 'a method the path does not have' } as const;

/** The reason the exchange breaks its document, or undefined when it keeps it. */
export function contractViolation(exchange: Exchange): string | undefined {
  const { method, status } = exchange;
  const path = exchange.path.split('?')[0] ?? '';
  const segments = decode(path);
  const version = parseVersionSegment(segments?.[0]);
  const said = `${method} ${path} answered ${status}`;
  const unknown = (expected: 404 | 405) => {
    if (status !== expected && status !== 404) return `${said}; it names ${GENERIC[expected]}, which answers ${expected}`;
    return undefined;
  };
  if (segments === undefined || version === undefined) return unknown(404);
  const { document, ajv, templates, validators } = load(version);
  const candidates = templates.filter((template) => matches(template, segments.slice(1)));
  const template = candidates.find((candidate) => document.paths[candidate.path]?.[method.toLowerCase()]);
  if (template === undefined) return unknown(candidates.length > 0 ? 405 : 404);
  const operation = document.paths[template.path]?.[method.toLowerCase()];
  const listed = operation?.responses[String(status)] ?? operation?.responses.default;
  const where = `${method.toUpperCase()} ${template.path} in docs/openapi/v${version}.json`;
  if (listed === undefined) {
    const statuses = Object.keys(operation?.responses ?? {}).join(', ');
    return `${said} (${exchange.text.slice(0, 300)}), a status ${where} does not list (it lists ${statuses})`;
  }
  const name = listed.$ref?.split('/').pop();
  const response = name === undefined ? listed : document.components.responses[name];
  const base =
    name === undefined
      ? ['#', 'paths', template.path, method.toLowerCase(), 'responses', String(status)]
      : ['#', 'components', 'responses', name];
  const content = response?.content;
  if (content === undefined) {
    return exchange.text === '' ? undefined : `${said} with a body, where ${where} has none for ${status}`;
  }
  const mediaType = (exchange.contentType.split(';')[0] ?? '').trim().toLowerCase();
  if (content['application/json'] && (mediaType === 'application/json' || Object.keys(content).length === 1)) {
    if (mediaType !== 'application/json') return `${said} with Content-Type ${exchange.contentType}, not JSON as ${where} says`;
    const ref = `openapi${pointer(...base, 'content', 'application/json', 'schema')}`;
    let validate = validators.get(ref);
    if (validate === undefined) {
      validate = ajv.compile({ $ref: ref });
      validators.set(ref, validate);
    }
    if (validate(exchange.body)) return undefined;
    const problems = (validate.errors ?? [])
      .map((error) => `${error.instancePath || '(body)'} ${error.message ?? ''}`)
      .join('; ');
    return `${said}, and its body breaks the ${status} schema of ${where}: ${problems}\nbody: ${exchange.text.slice(0, 500)}`;
  }
  return Object.keys(content).includes(mediaType)
    ? undefined
    : `${said} with Content-Type ${exchange.contentType}, not one of ${Object.keys(content).join(', ')} as ${where} says`;
}

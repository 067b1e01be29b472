import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { bodyExamples } from '#schemas/examples.ts';
import * as validators from '#schemas/generated/validators.js';
import { buildDocuments, loadRoutes } from '../../scripts/openapi/build.ts';

const run = promisify(execFile);
const dir = new URL('../../docs/openapi/', import.meta.url);
const VERSIONS = ['v15', 'v26', 'v33'] as const;

type Node = { [key: string]: unknown };
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);
const pointer = (parts: readonly string[]) => parts.map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');
const readDocument = (version: string): Node => JSON.parse(readFileSync(new URL(`${version}.json`, dir), 'utf8')) as Node;

/** Every media type object of a document (an object with `schema`), with its JSON pointer. */
function mediaTypes(node: unknown, path: string[] = []): { at: string[]; media: Node }[] {
  if (!isNode(node)) return [];
  if (path.at(-2) === 'content' && isNode(node.schema)) return [{ at: path, media: node }];
  return Object.entries(node).flatMap(([key, value]) => mediaTypes(value, [...path, key]));
}

const examplesOf = (media: Node): [string, unknown][] =>
  Object.entries(isNode(media.examples) ? media.examples : {}).map(([name, example]) => [
    name,
    isNode(example) ? example.value : undefined,
  ]);

describe('OpenAPI documents (docs/openapi)', () => {
  it('document every route and are what `npm run openapi` writes', async () => {
    const { files, undocumented } = await buildDocuments();
    expect(undocumented, 'routes without `responses` (shared/http/router.ts)').toEqual([]);
    for (const [name, text] of files) {
      expect(readFileSync(new URL(name, dir), 'utf8') === text, `docs/openapi/${name} is stale: run npm run openapi`).toBe(true);
    }
  });

  it('pass redocly lint with no errors', { timeout: 120_000 }, async () => {
    const files = ['v15.json', 'v26.json', 'v33.json'].map((name) => new URL(name, dir).pathname);
    // Offline: no telemetry, no update check.
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
    const result = await run('node_modules/.bin/redocly', ['lint', ...files, '--format=summary'], { env }).then(
      ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, output: error.stdout + error.stderr }),
    );
    expect(result.output).not.toMatch(/^error /m);
    expect(result.code, result.output).toBe(0);
  });

  it('illustrate every request body with an example the service accepts', async () => {
    const names = Object.keys(bodyExamples) as (keyof typeof bodyExamples)[];
    for (const name of names) {
      // The service's own validators (schemas/generated), as strict as a request.
      const validate = await validators[name].load();
      const examples = Object.entries(bodyExamples[name]);
      expect(examples.length, `${name} has no example`).toBeGreaterThan(0);
      for (const [key, { value }] of examples) {
        expect(validate(value) ? [] : validate.errors, `schemas/examples.ts ${name}.${key}`).toEqual([]);
      }
    }
    for (const version of VERSIONS) {
      const bodies = mediaTypes(readDocument(version).paths, ['paths']).filter(({ at }) => at.at(-3) === 'requestBody');
      expect(bodies.length).toBeGreaterThan(0);
      for (const { at, media } of bodies.filter(({ at }) => at.at(-1) === 'application/json')) {
        expect(examplesOf(media).length, `${version} ${at.join(' ')} has no example`).toBeGreaterThan(0);
      }
    }
  });

  it('give every example a value its schema admits, and every error response an example per exception', () => {
    for (const version of VERSIONS) {
      const document = readDocument(version);
      // The document is one schema resource, so its `#/components/...` references resolve; its other keywords are not ours.
      const ajv = new Ajv2020({ strict: false, validateSchema: false, validateFormats: false, allowUnionTypes: true });
      ajv.addSchema(document, 'openapi');
      let count = 0;
      for (const { at, media } of mediaTypes(document)) {
        const examples = examplesOf(media);
        if (examples.length === 0) continue;
        const validate = ajv.compile({ $ref: `openapi#/${pointer([...at, 'schema'])}` });
        for (const [name, value] of examples) {
          count += 1;
          expect(validate(value) ? [] : validate.errors, `${version} ${at.join(' ')} example ${name}`).toEqual([]);
        }
      }
      expect(count).toBeGreaterThan(0);
      const responses = isNode(document.components) && isNode(document.components.responses) ? document.components.responses : {};
      for (const [name, response] of Object.entries(responses)) {
        const media: Node = mediaTypes(response)[0]?.media ?? {};
        const schema = isNode(media.schema) && isNode(media.schema.properties) ? media.schema.properties : {};
        const exceptions = isNode(schema.exception) && Array.isArray(schema.exception.enum) ? schema.exception.enum : [];
        const shown = examplesOf(media).map(([, value]) => (isNode(value) ? value.exception : undefined));
        expect(shown, `${version} components/responses/${name}`).toEqual(exceptions);
      }
    }
  });

  it('describe an operation in words: its summary, its description, who may call it, its feature and Idempotency-Key', () => {
    // Act
    const paths = readDocument('v33').paths as Record<string, Record<string, { summary: string; description: string }>>;
    const email = paths['/v33/email']?.post;
    const tags = readDocument('v33').tags as { name: string; description: string }[];

    // Assess
    expect(email?.summary).toBe("Sends a message to the vendor's support");
    expect(email?.description.split('\n\n').slice(1)).toEqual([
      'Called by a register, with its activation key (X-Api-Key).',
      "A register's activation needs the feature SUPPORT (403 ACTIVATION_NO_FEATURE without it); users need none.",
      'Honours an Idempotency-Key: a retry with the same key and request answers the first answer again and writes nothing.',
    ]);
    expect(email?.description.split('\n\n')[0]).toMatch(/^Sends one message .*\.$/);
    expect(tags.length).toBeGreaterThan(0);
    for (const { name, description } of tags) expect(description, name).toMatch(/^[A-Z].{20,}\.$/);
    expect(readDocument('v33').servers).toEqual([{ url: 'http://localhost:3000', description: expect.any(String) as string }]);
  });

  // Every group with routes (the fallback and maintenance have none).
  const DESCRIBED = [
    'activations',
    'catalog',
    'control-units',
    'devices',
    'email',
    'fiscal',
    'gateway',
    'images',
    'kd',
    'registrations',
    'restaurants',
    'sellers',
    'stats',
    'users',
    'vendors',
  ];

  it.each(DESCRIBED.map((group) => ({ group })))(
    'give every route of $group a one-line summary in words and a description without paths or section numbers',
    async ({ group }) => {
      // Act
      const routes = (await loadRoutes()).filter((entry) => entry.group === group).map(({ route }) => route);

      // Assess
      expect(routes.length).toBeGreaterThan(0);
      for (const { method, path, summary, description } of routes) {
        const name = `${method} ${path}`;
        expect(summary, name).toMatch(/^[A-Z][^\n/{}]{5,80}$/);
        expect(description, name).toMatch(/^[A-Z(`"][^\n]{20,}[.)]$/);
        expect(description, name).not.toMatch(/§|\{sellerId\}|\/v\d\d\//);
      }
    },
  );
});

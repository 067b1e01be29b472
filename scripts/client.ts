/**
 * Writes the typed client's types, client/src/generated/v15.ts, v26.ts and v33.ts, from docs/openapi (openapi-typescript).
 * `--check` fails when the committed types differ from what the documents give, as `npm run openapi -- --check` does
 * for the documents themselves; `npm run client:build` then compiles the package (client/tsconfig.json).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';
import { API_VERSIONS } from '#shared/versions.ts';

const docs = new URL('../docs/openapi/', import.meta.url);
const outDir = new URL('../client/src/generated/', import.meta.url);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };
const isObject = (value: Json | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The documents constrain scalars OpenAPI 3.1 style, a `$ref` beside `type` (`{"type": ["string", "null"], "$ref":
 * ".../scalars/$defs/text"}`), and openapi-typescript reads only the `$ref`: the field would be `unknown`. For the
 * types only, such a node becomes what it means: a constraint-only target merged with its siblings, and a typed
 * target that the siblings make nullable `anyOf [target, null]`.
 */
function typedRefs(node: Json, root: JsonObject): Json {
  if (Array.isArray(node)) return node.map((item) => typedRefs(item, root));
  if (!isObject(node)) return node;
  const { $ref, ...siblings } = node;
  const walked = Object.fromEntries(Object.entries(siblings).map(([key, value]) => [key, typedRefs(value, root)]));
  if (typeof $ref !== 'string' || Object.keys(siblings).length === 0) return $ref === undefined ? walked : node;
  const target = $ref
    .slice(2)
    .split('/')
    .reduce<Json | undefined>((at, key) => (isObject(at) ? at[key] : undefined), root);
  if (!isObject(target)) return node;
  if (target.type === undefined && target.properties === undefined) return { ...target, ...walked };
  const nullable = Array.isArray(siblings.type) && siblings.type.includes('null');
  // The field's own description stays: it says what the field holds, the target only what kind of value it is.
  const described: JsonObject = typeof siblings.description === 'string' ? { description: siblings.description } : {};
  return nullable ? { anyOf: [{ $ref }, { type: 'null' }], ...described } : { ...described, $ref };
}

const files = new Map<string, string>();
for (const version of API_VERSIONS) {
  const document = JSON.parse(readFileSync(new URL(`v${version}.json`, docs), 'utf8')) as JsonObject;
  // Error details and other open objects are records of anything, not of nothing.
  const ast = await openapiTS(typedRefs(document, document) as unknown as OpenAPI3, { emptyObjectsUnknown: true });
  files.set(`v${version}.ts`, `${COMMENT_HEADER}${astToString(ast)}`);
}

if (process.argv.includes('--check')) {
  const stale = [...files].filter(([name, text]) => {
    try {
      return readFileSync(new URL(name, outDir), 'utf8') !== text;
    } catch {
      return true;
    }
  });
  if (stale.length > 0) {
    console.error(
      `client/src/generated is stale (${stale.map(([name]) => name).join(', ')}): run \`npm run client:generate\` and commit the result.`,
    );
    process.exit(1);
  }
  console.log('client/src/generated is up to date.');
} else {
  mkdirSync(outDir, { recursive: true });
  for (const [name, text] of files) writeFileSync(new URL(name, outDir), text);
  console.log(`Wrote ${[...files.keys()].join(', ')} to client/src/generated/.`);
}

/**
 * Writes docs/openapi/v15.json, v26.json and v33.json from the route tables and schemas/ (scripts/openapi/build.ts).
 * `--check` fails when the committed documents differ from what they produce, or a route declares no `responses`.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { buildDocuments } from './openapi/build.ts';

const outDir = new URL('../docs/openapi/', import.meta.url);
const { files, undocumented } = await buildDocuments();
if (undocumented.length > 0) {
  console.error(`Routes without \`responses\` (shared/http/router.ts):\n  ${undocumented.join('\n  ')}`);
}
if (process.argv.includes('--check')) {
  mkdirSync(outDir, { recursive: true });
  const existing = readdirSync(outDir);
  const stale = [...files].filter(
    ([name, text]) => !existing.includes(name) || readFileSync(new URL(name, outDir), 'utf8') !== text,
  );
  if (stale.length > 0) {
    console.error(
      `docs/openapi is stale (${stale.map(([name]) => name).join(', ')}): run \`npm run openapi\` and commit the result.`,
    );
    process.exit(1);
  }
  if (undocumented.length > 0) process.exit(1);
  console.log('docs/openapi is up to date.');
} else {
  mkdirSync(outDir, { recursive: true });
  for (const [name, text] of files) writeFileSync(new URL(name, outDir), text);
  console.log(`Wrote ${[...files.keys()].join(', ')} to docs/openapi/.`);
}

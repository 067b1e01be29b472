/**
 * `npm run -s validate-export -- <export.xml>`: validates an SKVFS 2021:16 journal export against Skatteverket's
 * schemas in docs/skvfs2021-16, as `xmllint --noout --schema docs/skvfs2021-16/validate_wrapper.xsd <export.xml>`
 * does (scripts/export-schemas.ts), and says so on standard error as xmllint does: `<export.xml> validates`, exit 0;
 * xmllint's complaints and `<export.xml> fails to validate`, exit 1; 2: usage or an unreadable file.
 */
import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { schemaProblems } from './export-schemas.ts';
import { fail } from './offline-verification.ts';

const [file, ...rest] = process.argv.slice(2);
if (file === undefined || rest.length > 0) fail('usage: npm run -s validate-export -- <export.xml>', 2);
let xml: Buffer;
try {
  // Relative to where the command was typed: `npm run` starts scripts at the package's root and names that folder INIT_CWD.
  xml = readFileSync(resolve(process.env.INIT_CWD || process.cwd(), file));
} catch (error) {
  fail(`${file}: ${(error as Error).message}`, 2);
}
const name = basename(file);
const problems = await schemaProblems(xml, { fileName: name });
if (problems === null) {
  console.error(`${file} validates`);
} else {
  // xmllint names the file as it was typed; the validation saw only its base name.
  const named = problems
    .split('\n')
    .map((line) => (line.startsWith(`${name}:`) || line === `${name} fails to validate` ? file + line.slice(name.length) : line));
  console.error(named.join('\n').trimEnd());
  process.exitCode = 1;
}

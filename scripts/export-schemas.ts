/**
 * Skatteverket's SKVFS 2021:16 schemas as the judge of an export: libxml2's xmllint compiled to WebAssembly
 * (`xmllint-wasm`), so validating needs no system xmllint. Its verdicts and messages are those of `xmllint --noout
 * --schema` (libxml2 2.13 here, 2.9.14 in Debian 12's libxml2-utils: the same on valid exports and on each broken one
 * tried); a 32.5 MB export takes about 1.5 s, native xmllint 0.8 s, on this machine.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { memoryPages, validateXML } from 'xmllint-wasm';

/** The repository's copy of the schemas (docs/skvfs2021-16): its wrapper imports the two files of Skatteverket. */
export const DOCS_WRAPPER = fileURLToPath(new URL('../docs/skvfs2021-16/validate_wrapper.xsd', import.meta.url));

/**
 * WebAssembly memory the validation may grow to: libxml2 holds the whole document as a tree, 128 MiB sufficed for
 * 32.5 MB and 64 MiB did not; the memory is taken as the tree grows, so a generous cap costs a small document nothing.
 */
const MAX_MEMORY = 2 * memoryPages.GiB;

/**
 * xmllint's complaints about `xml` against the schemas whose wrapper is `wrapper` (the files it imports are read
 * from beside it), each line naming the document `fileName`; null when the document validates.
 */
export async function schemaProblems(
  xml: string | Uint8Array,
  { wrapper = DOCS_WRAPPER, fileName = 'export.xml' }: { wrapper?: string; fileName?: string } = {},
): Promise<string | null> {
  const wrapperText = readFileSync(wrapper, 'utf8');
  // The wrapper's imports, by the names they are loaded under (xmllint-wasm reads no file of its own).
  const imported = [...wrapperText.matchAll(/schemaLocation="([^"]+)"/g)].map(([, location]) => location ?? '');
  const result = await validateXML({
    xml: [{ fileName, contents: xml }],
    schema: [{ fileName: 'validate_wrapper.xsd', contents: wrapperText }],
    preload: imported.map((location) => ({
      fileName: location,
      contents: readFileSync(join(dirname(wrapper), location), 'utf8'),
    })),
    maxMemoryPages: MAX_MEMORY,
  });
  return result.valid ? null : result.rawOutput;
}

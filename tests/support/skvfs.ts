/**
 * Skatteverket's own schemas (SKVFS 2021:16, ../shared/skvfs2021-16, with their provenance) as the oracle of every
 * export a test makes: libxml2's xmllint, as WebAssembly (scripts/export-schemas.ts), validates the document against
 * them, outside our code.
 */
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { schemaProblems as problemsAgainst } from '../../scripts/export-schemas.ts';

const WRAPPER = fileURLToPath(new URL('../../../shared/skvfs2021-16/validate_wrapper.xsd', import.meta.url));

/** xmllint's verdict on `xml`: null when valid, else its complaints. */
export function schemaProblems(xml: string): Promise<string | null> {
  return problemsAgainst(xml, { wrapper: WRAPPER });
}

/** Fails the test unless `xml` is valid against Skatteverket's schemas. */
export async function expectValidExport(xml: string): Promise<void> {
  expect(await schemaProblems(xml)).toBeNull();
}

/**
 * Skatteverket's own schemas (SKVFS 2021:16, ../shared/skvfs2021-16, with their provenance) as the oracle of every
 * export a test makes: `xmllint` (Debian's libxml2-utils) validates the document against them, outside our code.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

const WRAPPER = fileURLToPath(new URL('../../../shared/skvfs2021-16/validate_wrapper.xsd', import.meta.url));

/** xmllint's verdict on `xml`: null when valid, else its complaints. */
export function schemaProblems(xml: string): string | null {
  const file = join(mkdtempSync(join(tmpdir(), 'skvfs-')), 'export.xml');
  writeFileSync(file, xml, 'utf8');
  try {
    execFileSync('xmllint', ['--noout', '--schema', WRAPPER, file], { stdio: ['ignore', 'pipe', 'pipe'] });
    return null;
  } catch (error) {
    const { stderr } = error as { stderr?: Buffer };
    return stderr?.toString('utf8') ?? String(error);
  }
}

/** Fails the test unless `xml` is valid against Skatteverket's schemas. */
export function expectValidExport(xml: string): void {
  expect(schemaProblems(xml)).toBeNull();
}

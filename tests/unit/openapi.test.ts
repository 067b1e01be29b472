import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { buildDocuments } from '../../scripts/openapi/build.ts';

const run = promisify(execFile);
const dir = new URL('../../docs/openapi/', import.meta.url);

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
});

/**
 * The floors' lint rule (eslint.config.js, docs/architecture.md) names the files that still break a rule of their
 * floor. ESLint keeps an exception forever once its file is mended; these tests fail instead, so it is removed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint, type Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import { root } from '../../scripts/build.ts';

const { default: config } = (await import(pathToFileURL(join(root, 'eslint.config.js')).href)) as { default: Linter.Config[] };
const exceptions = config
  .filter(({ name }) => name?.startsWith('floors/exception/'))
  .flatMap(({ files }) => (files ?? []).map(String));
const eslint = new ESLint({ cwd: root });
const architecture = readFileSync(join(root, 'docs/architecture.md'), 'utf8');

describe('the exceptions to the floors', () => {
  it('are found in the lint config, each for one file', () => {
    // Assess: a rename of the config objects would leave the tests below with nothing to check
    expect(config.filter(({ name }) => name?.startsWith('floors/')).length).toBeGreaterThan(10);
    expect(exceptions.every((file) => !file.includes('*'))).toBe(true);
  });

  it.each(exceptions)('%s is still needed: without its exception the file breaks its floor', async (file) => {
    // Prepare
    expect(existsSync(join(root, file)), `${file} is gone: remove its exception from eslint.config.js`).toBe(true);
    const text = readFileSync(join(root, file), 'utf8');

    // Act: the same text, linted as a file of the same folder that no exception names
    const [result] = await eslint.lintText(text, { filePath: join(root, dirname(file), 'floor-probe.ts') });

    // Assess
    const broken = (result?.messages ?? []).filter(({ ruleId }) => ruleId === 'no-restricted-imports');
    expect(broken.length, `${file} keeps its floor now: remove its exception from eslint.config.js`).toBeGreaterThan(0);
  });

  it.each(exceptions)('%s is listed in docs/architecture.md', (file) => {
    expect(architecture.includes(`\`${file}\``), `name ${file} under "Exceptions" in docs/architecture.md`).toBe(true);
  });
});

describe('the floors', () => {
  // What the exceptions let through, once: the engines below import nothing of the records and HTTP above them.
  it.each([
    ['shared/db', "import { sellerKeys } from '#shared/domain/seller.ts';"],
    ['shared/db', "import type { ApiKeyRecord } from '#shared/auth/api-keys.ts';"],
    ['shared/versioned', "import type { Reply } from '#shared/http/types.ts';"],
    ['shared/fiscal', "import { replayOf } from '#shared/http/idempotency.ts';"],
  ])('a file of %s may not say %s', async (folder, line) => {
    // Act
    const [result] = await eslint.lintText(`${line}\n`, { filePath: join(root, folder, 'floor-probe.ts') });

    // Assess
    const broken = (result?.messages ?? []).filter(({ ruleId }) => ruleId === 'no-restricted-imports');
    expect(broken.map(({ message }) => message.includes('docs/architecture.md'))).toEqual([true]);
  });
});

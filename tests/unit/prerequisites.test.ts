/**
 * `npm test` checks the machine first (scripts/prerequisites.ts): without Java, Chromium or zsh it stops at once with
 * README's install line, and that line, .ci/run's installs and `npm start`'s Java package name the same packages.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { JAVA_PACKAGE } from '../../infra/local/dynamodb.ts';
import { INSTALL_LINE, PREREQUISITES } from '../../scripts/prerequisites.ts';

const SCRIPT = new URL('../../scripts/prerequisites.ts', import.meta.url).pathname;
const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

describe('the prerequisites of npm test', () => {
  it('are checked before anything else npm test runs', () => {
    const { scripts } = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    expect(scripts.test?.startsWith('node scripts/prerequisites.ts && ')).toBe(true);
  });

  it('stop npm test within seconds with the install line when a program is missing', () => {
    // No PATH: neither java nor zsh is found (node is named by its path).
    const started = Date.now();
    const run = spawnSync(process.execPath, [SCRIPT], { env: { PATH: '' }, encoding: 'utf8' });
    expect({ status: run.status, stdout: run.stdout }).toEqual({ status: 1, stdout: '' });
    expect(run.stderr).toContain('a Java runtime (DynamoDB Local)');
    expect(run.stderr).toContain('zsh (tests/e2e/quickstart.test.ts)');
    expect(run.stderr.trimEnd().split('\n').at(-1)).toBe(`  ${INSTALL_LINE}`);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('name the same packages in README, .ci/run and npm start', () => {
    const quickStart = read('README.md').split('\n## ')[1] ?? '';
    expect(quickStart.startsWith('Quick start')).toBe(true);
    expect(quickStart).toContain(`\`${INSTALL_LINE}\``);
    const installed = [...read('.ci/run').matchAll(/missing\+=\(([^)]+)\)/g)].map(([, name]) => name);
    expect(installed).toEqual(PREREQUISITES.map((item) => item.debianPackage));
    expect(PREREQUISITES[0]?.debianPackage).toBe(JAVA_PACKAGE);
  });
});

/** `npm run simulate`'s options, as a user asks for them (no stack: --help and a bad option exit before any request). */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

async function simulate(env: NodeJS.ProcessEnv, ...args: string[]) {
  return run(process.execPath, ['scripts/simulate.ts', ...args], { env: { ...process.env, ...env } }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      stdout: error.stdout,
      stderr: error.stderr,
    }),
  );
}

describe('npm run simulate -- --help', () => {
  it('prints every option and exits 0; the base it names follows PORT, as npm start does', async () => {
    const { code, stdout } = await simulate({ PORT: '3123' }, '--help');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^usage: npm run simulate -- /);
    for (const option of [
      '--base',
      '--registers',
      '--days',
      '--sales',
      '--user',
      '--password',
      '--control-unit',
      '--json',
      '--help',
    ]) {
      expect(stdout).toContain(option);
    }
    expect(stdout).toContain('default http://localhost:3123');
  });

  it('refuses an unknown option with the usage, exit 2', async () => {
    const { code, stderr } = await simulate({}, '--bogus');
    expect(code).toBe(2);
    expect(stderr).toMatch(/Unknown option '--bogus'\nusage: npm run simulate -- /);
  });
});

/** `npm run simulate` against the test stack: every step of every register succeeds and the summary counts them. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import type { Summary } from '../../scripts/simulate/simulator.ts';
import { simulatorOf, startUnit } from '../support/edge.ts';

const run = promisify(execFile);

/** Runs the simulator's CLI as a user would, with the admin from the environment; answers its exit code and JSON summary. */
async function simulate(password: string, ...args: string[]) {
  const env = { ...process.env, ADMIN_USERNAME: inject('admin').username, ADMIN_PASSWORD: password };
  const cli = ['scripts/simulate.ts', '--base', inject('baseUrl'), '--json', ...args];
  const { code, stdout } = await run(process.execPath, cli, { env }).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (error: { code: number; stdout: string }) => error,
  );
  return { code, summary: JSON.parse(stdout) as Summary };
}

describe('npm run simulate', () => {
  it('walks 2 registers through 2 days of 3 sales each with 0 errors', { timeout: 120_000 }, async () => {
    const { code, summary } = await simulate(inject('admin').password, '--registers', '2', '--days', '2', '--sales', '3');

    expect(summary).toMatchObject({
      registers: 2,
      activated: 2,
      codesVerified: 2,
      sales: 12,
      replayedSales: 0,
      receipts: 12,
      controlCodes: 0,
      daysClosed: 4,
      zReports: 4,
      journalsVerified: 2,
      errors: {},
      failures: [],
    });
    expect(code).toBe(0);
    expect(summary.operations['POST /v33/{sellerId}/registrations/{cash}/sales']?.calls).toBe(12);
  });

  it(
    'signs every Normal receipt through a control unit with --control-unit: one kd per receipt, each registered once at the unit',
    { timeout: 120_000 },
    async () => {
      const { serial } = await startUnit();

      const { code, summary } = await simulate(
        inject('admin').password,
        '--registers',
        '2',
        '--days',
        '1',
        '--sales',
        '3',
        '--control-unit',
        serial,
      );

      expect(summary).toMatchObject({
        sales: 6,
        receipts: 6,
        controlCodes: 6,
        daysClosed: 2,
        zReports: 2,
        journalsVerified: 2,
        errors: {},
      });
      expect(code).toBe(0);
      expect(simulatorOf(serial).counters()).toMatchObject({ registered: 6, repeats: 0, refused: 0 });
    },
  );

  it(
    'fails as a smoke test should: exit 1 and the refusal counted by status, exception and code',
    { timeout: 60_000 },
    async () => {
      const { code, summary } = await simulate('not-the-password', '--registers', '1', '--days', '1');

      expect(summary.errors).toEqual({ '403 Forbidden WRONG_USERNAME_OR_PASSWORD': 1 });
      expect(code).toBe(1);
    },
  );
});

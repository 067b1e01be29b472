/** `npm run create-admin`: the first hyper admin of a deployed stage, made against the table DynamoDB Local holds for stage `local`. */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { root } from '../../scripts/build.ts';
import { expectError, v } from '../support/http.ts';

const run = (env: Record<string, string>, args = ['--stage', 'local']) =>
  promisify(execFile)(process.execPath, ['scripts/create-admin.ts', ...args], {
    cwd: root,
    env: { ...process.env, DYNAMODB_ENDPOINT: inject('dynamoEndpoint'), ...env },
  }).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout + error.stderr }),
  );

describe('npm run create-admin', () => {
  it('creates a hyper admin once from ADMIN_USERNAME / ADMIN_PASSWORD; a second run changes nothing', async () => {
    const username = `ops-${randomUUID().slice(0, 8)}`;
    const password = 'a-long-secret-password';

    const first = await run({ ADMIN_USERNAME: username, ADMIN_PASSWORD: password });
    const second = await run({ ADMIN_USERNAME: username, ADMIN_PASSWORD: 'another-long-password' });

    expect(first).toEqual({ code: 0, stdout: `Created hyper admin ${username} in cash-register-local-2.\n` });
    expect(second.stdout).toContain('exists already');
    const me = await v(33).get('/auth/user', { as: { basic: [username, password] } });
    expect(me.body).toMatchObject({ username, role: 'ROLE_HYPER_ADMIN' });
    expectError(
      await v(33).get('/auth/user', { as: { basic: [username, 'another-long-password'] } }),
      403,
      'Forbidden',
      'WRONG_USERNAME_OR_PASSWORD',
    );
  });

  it('refuses to run without a stage or with a short password (exit 2), and never echoes the password', async () => {
    const noStage = await run({ ADMIN_USERNAME: 'x', ADMIN_PASSWORD: 'a-long-secret-password' }, []);
    const short = await run({ ADMIN_USERNAME: 'x', ADMIN_PASSWORD: 'short' });
    expect([noStage.code, short.code]).toEqual([2, 2]);
    expect(noStage.stdout).not.toContain('a-long-secret-password');
  });
});

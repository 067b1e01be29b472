import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/local/processes.ts';
import { root } from '../../scripts/build.ts';

const admin = { username: 'boss', password: 'boss-password' };
const authorization = `Basic ${Buffer.from(`${admin.username}:${admin.password}`).toString('base64')}`;

interface Started {
  child: ChildProcess;
  /** What it printed until it was up. */
  output: string;
  /** What it has printed so far. */
  printed: () => string;
  baseUrl: string;
  dynamoEndpoint: string;
}

/** `npm start` as a newcomer runs it (scripts/start.ts is what the npm script runs). */
async function start(port: number, dataDir: string, ...args: string[]): Promise<Started> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    ADMIN_USERNAME: admin.username,
    ADMIN_PASSWORD: admin.password,
  };
  delete env.DYNAMODB_ENDPOINT;
  delete env.TABLE_NAME;
  const child = spawn(process.execPath, ['scripts/start.ts', ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start did not come up:\n${output}`)), 120_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Press Ctrl-C')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${output}`)));
  });
  const baseUrl = /Base URL:\s+(\S+)/.exec(output)?.[1] ?? '';
  const dynamoEndpoint = /DynamoDB:\s+(http:\/\/[\d.:]+)/.exec(output)?.[1] ?? '';
  return { child, output, printed: () => output, baseUrl, dynamoEndpoint };
}

/** Ctrl-C, and the exit code once everything has stopped. */
function interrupt(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill('SIGINT');
  });
}

const reachable = (url: string) =>
  fetch(url).then(
    () => true,
    () => false,
  );

const dataDirs: string[] = [];
afterAll(async () => {
  for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
});

describe('npm start', () => {
  it('serves the API on PORT with the admin it prints, stops everything on Ctrl-C, and DATA_DIR keeps the data', async () => {
    const port = await freePort();
    const dataDir = await mkdtemp(join(tmpdir(), 'cash-register-data-'));
    dataDirs.push(dataDir);
    const seller = { corporateId: '5569999999', country: 'SE', publicAccess: true, workHoursWeek: {}, name: 'Persisted' };

    const first = await start(port, dataDir, '--verbose');
    expect(first.baseUrl).toBe(`http://localhost:${port}`);
    expect(first.output).toContain(`Admin:     ${admin.username} / ${admin.password}`);
    expect(first.output).toContain(`E-mail:    ${join(dataDir, 'outbox')}`);
    expect(first.output).toContain(`API docs:  ${first.baseUrl}/docs`);
    const docs = await fetch(`${first.baseUrl}/docs`);
    expect({ status: docs.status, type: docs.headers.get('content-type') }).toEqual({
      status: 200,
      type: 'text/html; charset=utf-8',
    });
    const created = await fetch(`${first.baseUrl}/v33/sellers/SE5569999999`, {
      method: 'PUT',
      headers: { Authorization: authorization, 'Content-Type': 'application/json' },
      body: JSON.stringify(seller),
    });
    expect(created.status).toBe(201);
    const reread = await fetch(`${first.baseUrl}/v33/sellers/SE5569999999`, { headers: { Authorization: authorization } });
    expect(reread.status).toBe(200);
    // Each request's log line carries its own API Gateway request id, as in AWS (infra/local/offline-events.ts).
    const requestIds = first
      .printed()
      .split('\n')
      .filter((line) => line.includes('"requestId"') && line.includes('/v33/sellers/{sellerId}"'))
      .map((line) => (JSON.parse(line.slice(line.indexOf('{'))) as { requestId: string }).requestId);
    expect(requestIds).toHaveLength(2);
    expect(new Set(requestIds).size).toBe(2);
    expect(await interrupt(first.child)).toBe(0);
    expect(await reachable(first.baseUrl)).toBe(false);
    expect(await reachable(first.dynamoEndpoint)).toBe(false);

    // Without --verbose: the banner alone before it serves, then one short line per request, nothing at the stop.
    const second = await start(port, dataDir);
    expect(second.output).not.toContain('invocations');
    expect(second.output).toContain(`Requests:  one line each below`);
    const read = await fetch(`${second.baseUrl}/v33/sellers/SE5569999999`, { headers: { Authorization: authorization } });
    expect(read.status).toBe(200);
    expect(await read.text()).toMatch(/^\{.*"name":"Persisted".*\}\n$/);
    expect(await interrupt(second.child)).toBe(0);
    const served = second.printed().slice(second.output.length).split('\n').filter(Boolean);
    expect(served.map((line) => line.replace(/^\d\d:\d\d:\d\d /, '').replace(/ \d+ ms /, ' <ms> '))).toEqual([
      'GET /v33/sellers/{sellerId} 200 <ms> user',
      'Stopping...',
    ]);
  }, 300_000);
});

/**
 * The README's quick start as a newcomer pastes it: its blocks, line by line, into an interactive bash and then into
 * an interactive zsh (macOS's shell, `interactivecomments` off), both against one new `npm start` (in memory, so it
 * starts empty; its defaults: the admin admin / admin, the unit SIMCU000000000001) on a PORT of its own. The zsh
 * paste is the second: it meets the first paste's seller, application and registers in the stack and its files in
 * the checkout, and does all the same again. Nothing either paste writes shows in `git status`; `npm start` says
 * nothing of an error from its start to its stop, and a SIGINT to the npm process alone stops all it started.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/local/processes.ts';
import { root } from '../../scripts/build.ts';

/** The lines of the quick start's blocks after the first (`npm install`, `npm start`), in order. */
async function quickStartLines(): Promise<string[]> {
  const readme = await readFile(join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('\n## ', readme.indexOf('## Quick start') + 1));
  const blocks = [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? '');
  return blocks.slice(1).flatMap((block) => block.trimEnd().split('\n'));
}

interface Started {
  child: ChildProcess;
  /** All it has printed so far. */
  printed: () => string;
}

/**
 * `npm start` itself (npm, then scripts/start.ts) on `port` with its defaults, in a process group of its own as a
 * process manager would start it; resolves once it prints its banner.
 */
async function npmStart(port: number): Promise<Started> {
  const unset = new Set(['DYNAMODB_ENDPOINT', 'TABLE_NAME', 'ADMIN_USERNAME', 'ADMIN_PASSWORD', 'CONTROL_UNITS', 'DATA_DIR']);
  const env: NodeJS.ProcessEnv = {
    ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !unset.has(name))),
    PORT: String(port),
  };
  const child = spawn('npm', ['start'], { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  groups.push(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (output.includes('Press Ctrl-C')) {
        clearInterval(timer);
        resolve();
      }
    }, 100);
    child.once('exit', (code) => {
      clearInterval(timer);
      reject(new Error(`npm start exited with ${code}:\n${output}`));
    });
  });
  return { child, printed: () => output };
}

/** A SIGINT to the npm process alone (as a process manager stops it, not a terminal's Ctrl-C to the whole group), once it has exited. */
function interrupt(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill('SIGINT');
  });
}

interface Pasted {
  stdout: string;
  stderr: string;
}

/** Types the lines into the shell as a paste does: one after the other on its standard input, then `exit`. */
function paste(shell: 'bash' | 'zsh', lines: string[], env: NodeJS.ProcessEnv): Promise<Pasted> {
  const args = shell === 'bash' ? ['--norc', '--noprofile', '-i'] : ['-i'];
  const child = spawn(shell, args, { cwd: root, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(`${lines.join('\n')}\nexit\n`);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', () => resolve({ stdout, stderr }));
  });
}

/** The refusals among the answers printed: `<exception>: <message>`. */
const refusals = (stdout: string) =>
  [...stdout.matchAll(/"exception":"(\w+)","code":[^,]*,"message":"([^"]*)"/g)].map(
    ([, exception, message]) => `${exception}: ${message}`,
  );

const gitStatus = () => execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: root, encoding: 'utf8' });

/** Whether anything answers HTTP at `url`. */
const answers = (url: string) =>
  fetch(url).then(
    () => true,
    () => false,
  );

const folders: string[] = [];
/** The process groups started; whatever a failed stop left of them is killed at the end. */
const groups: ChildProcess[] = [];
afterAll(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
  for (const { pid } of groups) {
    try {
      if (pid !== undefined) process.kill(-pid, 'SIGKILL');
    } catch {
      // The group is gone: it stopped as it should.
    }
  }
});

describe("the README's quick start", () => {
  it('works pasted into bash and then again into zsh, against one stack, and leaves git status as it was', async () => {
    const lines = await quickStartLines();
    expect(lines.some((line) => /(^|\s)#/.test(line))).toBe(false);
    const statusBefore = gitStatus();
    // zsh as a new user's: no startup file of the machine's user (and no first-run wizard), interactivecomments off.
    const zdotdir = await mkdtemp(join(tmpdir(), 'quickstart-zsh-'));
    folders.push(zdotdir);
    await writeFile(join(zdotdir, '.zshrc'), '');

    const port = await freePort();
    const stack = await npmStart(port);
    const pastes = new Map<'bash' | 'zsh', Pasted>();
    try {
      for (const shell of ['bash', 'zsh'] as const) {
        pastes.set(shell, await paste(shell, lines, { ...process.env, PORT: String(port), ZDOTDIR: zdotdir }));
      }
    } finally {
      await interrupt(stack.child);
    }
    // npm start: stopped, everything it started with it; a short banner, a short line per request, no error.
    const printed = stack.printed();
    const dynamoDb = /DynamoDB: +(http:\/\/\S+),/.exec(printed)?.[1] ?? '';
    expect(dynamoDb).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect({ api: await answers(`http://localhost:${port}/health`), dynamoDb: await answers(dynamoDb) }).toEqual({
      api: false,
      dynamoDb: false,
    });
    const served = printed.slice(printed.indexOf('Press Ctrl-C'));
    expect(printed.slice(0, printed.indexOf('Press Ctrl-C')).split('\n').length).toBeLessThan(20);
    expect(served.split('\n').filter((line) => line.length > 200)).toEqual([]);
    expect(served.match(/.*(\berror\b|failed|ECONNREFUSED|Exception).*/gi)).toBeNull();

    const registers = new Set<string>();
    for (const [shell, { stdout, stderr }] of pastes) {
      // What the shell or curl would say of a line they misread: a comment run as a command, a word taken for a URL.
      expect({
        shell,
        errors: stderr.match(
          /.*(command not found|curl: \(\d+\)|no matches found|parse error|event not found|File exists|No such file).*/g,
        ),
      }).toEqual({ shell, errors: null });
      // The activation code and the e-journal verified offline, the export valid, the one refusal the README shows.
      expect({ shell, verified: stdout.match(/^(valid|invalid).*$/gm)?.map((line) => line.split(' ')[0]) }).toEqual({
        shell,
        verified: ['valid', 'valid'],
      });
      expect(stderr).toContain('.quickstart/journal-export.xml validates');
      expect(stdout).toContain('{"status":"UP"}');
      expect({ shell, refusals: refusals(stdout).map((refusal) => refusal.replace(/\d+/, '<N>')) }).toEqual({
        shell,
        refusals: ['VersionConflict: Order <N> was already paid through the gateway with another amount'],
      });
      // Each paste day-closes registers of its own: its first receipt, its first Z report.
      expect({ shell, receipts: stdout.match(/^Kvitto nr +\d+$/gm) }).toEqual({
        shell,
        receipts: ['Kvitto nr                                1', 'Kvitto nr                                1'],
      });
      expect({ shell, reports: stdout.match(/^Löpnummer +\d+$/gm) }).toEqual({
        shell,
        reports: ['Löpnummer                                1'],
      });
      // The taxes are written under their own identifiers: a second paste writes them again, adds none.
      expect({ shell, taxes: new Set([...stdout.matchAll(/"identifier":"([^"]+)","vat":/g)].map(([, id]) => id)) }).toEqual({
        shell,
        taxes: new Set(['standard', 'food']),
      });
      for (const [, name] of stdout.matchAll(/"cashRegisterName": ?"([^"]+)"/g)) registers.add(name ?? '');
    }
    expect([...registers].map((name) => name.replace(/\d+$/, '<N>')).sort()).toEqual([
      'CU-<N>',
      'CU-<N>',
      'Kassa-<N>',
      'Kassa-<N>',
    ]);
    // The second paste found the application described and printed it instead of describing it again.
    const description = '{"applicationPackage":"se.kassa.pos"';
    expect(pastes.get('bash')?.stdout).not.toContain(description);
    expect(pastes.get('zsh')?.stdout).toContain(description);
    expect(gitStatus()).toBe(statusBefore);
  }, 600_000);
});

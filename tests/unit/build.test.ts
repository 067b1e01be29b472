/**
 * The build's output folder (scripts/build.ts): after bundle() it holds exactly that build's files, so no
 * stale chunk is packaged, while a parallel build's file in flight is left alone; the SDKs loaded on first
 * use are files of their own.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { bundle } from '../../scripts/build.ts';

const folders: string[] = [];

afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const filesIn = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();

describe('bundle()', () => {
  it("leaves the folder with its build's files: stale chunks and a dead build's temporary go, a live build's stays", async () => {
    // Prepare
    const outdir = mkdtempSync(join(tmpdir(), 'build-test-'));
    folders.push(outdir);
    mkdirSync(join(outdir, 'chunks'));
    const deadPid = spawnSync(process.execPath, ['-e', '']).pid;
    const livePid = process.ppid;
    for (const name of ['chunks/chunk-STALE.mjs', 'old.mjs', `handler.mjs.${deadPid}.tmp`, `handler.mjs.${livePid}.tmp`]) {
      writeFileSync(join(outdir, name), '');
    }

    // Act
    const built = await bundle('functions/fallback/handler.ts', outdir);

    // Assess
    const written = built.files.map((file) => relative(outdir, file.path));
    expect(written).toContain('handler.mjs');
    expect(written.some((file) => file.startsWith('chunks/'))).toBe(true);
    expect(filesIn(outdir)).toEqual([...written, `handler.mjs.${livePid}.tmp`].sort());
  });
});

describe('isolated SDKs', () => {
  it.each([
    ['images', 's3-sdk', ['DeleteObjectCommand', 'GetObjectCommand', 'NoSuchKey', 'PutObjectCommand', 'S3Client']],
    ['activations', 'kms-sdk', ['GetPublicKeyCommand', 'KMSClient', 'SignCommand']],
    ['kd', 'iot-sdk', ['IoTDataPlaneClient', 'PublishCommand']],
  ])(
    '%s loads %s on first use: a file of its own, named #sdk/<module> and found from the entry and from a chunk alike',
    async (name, module, exports) => {
      // Prepare
      const outdir = mkdtempSync(join(tmpdir(), 'build-test-'));
      folders.push(outdir);
      const file = `sdk/${module}.mjs`;

      // Act: the bundle, and a module in chunks/ that names the SDK as the bundle's code does.
      const built = await bundle(`functions/${name}/handler.ts`, outdir);
      writeFileSync(join(outdir, 'chunks/probe.mjs'), `export const sdk = await import("#sdk/${module}");`);
      const { sdk } = (await import(pathToFileURL(join(outdir, 'chunks/probe.mjs')).href)) as { sdk: Record<string, unknown> };

      // Assess
      const text = (path: string) => readFileSync(join(outdir, path), 'utf8');
      const scripts = built.files.map((output) => relative(outdir, output.path)).filter((path) => path.endsWith('.mjs'));
      expect(scripts).toContain(file);
      expect(scripts.filter((path) => text(path).includes(`"#sdk/${module}"`)).length).toBeGreaterThan(0);
      expect(Object.keys(sdk).sort()).toEqual(exports);
    },
  );
});

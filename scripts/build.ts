/**
 * Bundles every function (`functions/<group>/handler.ts`) with esbuild into `.build/<group>/`: `handler.mjs`,
 * the chunks it imports (`chunks/`, loaded at Init when imported statically, on first use when by `import()`),
 * and their source maps. Minified ESM for the Node.js 22 Lambda runtime, dependencies included. One definition
 * for every group: a new folder under functions/ is built, measured and budgeted the same way.
 */
import { readdirSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions, type Metafile, type OutputFile } from 'esbuild';

export const root = fileURLToPath(new URL('..', import.meta.url));

/** The endpoint groups: one folder with a handler.ts each under functions/. */
export const functionNames = () =>
  readdirSync(new URL('../functions', import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

/** Where a function's bundle is written. */
export const functionDir = (name: string) => join(root, '.build', name);

/** The module the bundles load in place of the SDK's default credential chain (read its comment: Lambda only). */
export const LAMBDA_CREDENTIALS = './scripts/build/lambda-credentials.ts';

/**
 * How a bundle is built. `lambda` is the project's build. `plain` is the build as the project first had it
 * (esbuild's defaults for node, one file, sources inside the map): kept only so the bench can set today's
 * figures beside it in the same run.
 */
export type Variant = 'lambda' | 'plain';

function options(variant: Variant): BuildOptions {
  const common: BuildOptions = {
    absWorkingDir: root,
    bundle: true,
    minify: true,
    sourcemap: 'linked',
    format: 'esm',
    platform: 'node',
    target: 'node22',
    legalComments: 'none',
    entryNames: '[name]',
    outExtension: { '.js': '.mjs' },
    // Bundled CommonJS dependencies call require(); give the ES module one.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    logLevel: 'warning',
  };
  if (variant === 'plain') return common;
  return {
    ...common,
    // esbuild's node default prefers `main`: the SDK's CommonJS builds, whose require()s pull whole barrels
    // that cannot be tree-shaken. Their ES builds (`module`) can.
    mainFields: ['module', 'main'],
    // import() becomes a chunk loaded on first use (KMS, S3: shared/signing, shared/images), not at Init.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    // Stack traces stay mapped (NODE_OPTIONS=--enable-source-maps) without Node parsing megabytes of
    // embedded sources at Init.
    sourcesContent: false,
    alias: { '@aws-sdk/credential-provider-node': LAMBDA_CREDENTIALS },
  };
}

/** What a bundle loads: at Init (the entry and its static imports) and later (lazy chunks), in bytes of JavaScript. */
export interface BundleSizes {
  initBytes: number;
  lazyBytes: number;
}

export interface Compiled extends BundleSizes {
  files: OutputFile[];
  /** The entry's file: `<outdir>/handler.mjs`. */
  entry: string;
}

/** The outputs `from` loads: with `kinds` of imports, transitively, itself included. */
function loaded(metafile: Metafile, from: string, kinds: readonly string[]): Set<string> {
  const found = new Set<string>();
  const visit = (path: string) => {
    if (found.has(path)) return;
    found.add(path);
    for (const { path: imported, kind } of metafile.outputs[path]?.imports ?? []) {
      if (kinds.includes(kind) && imported in metafile.outputs) visit(imported);
    }
  };
  visit(from);
  return found;
}

/** Builds one entry point in memory into `outdir` (its entry file `handler.mjs`); writes nothing. */
export async function compile(entry: string, outdir: string, variant: Variant = 'lambda'): Promise<Compiled> {
  const result = await build({
    ...options(variant),
    entryPoints: [{ in: entry, out: 'handler' }],
    outdir,
    metafile: true,
    write: false,
  });
  const entryOutput = relative(root, join(resolve(root, outdir), 'handler.mjs'));
  // esbuild makes a chunk of every import() it reads, even one in an export tree shaking drops (a validator
  // this function never names): such a chunk nothing loads is left out.
  const reachable = loaded(result.metafile, entryOutput, ['import-statement', 'dynamic-import']);
  const init = loaded(result.metafile, entryOutput, ['import-statement']);
  let initBytes = 0;
  let lazyBytes = 0;
  for (const path of reachable) {
    if (!path.endsWith('.mjs')) continue;
    const { bytes } = result.metafile.outputs[path] ?? { bytes: 0 };
    if (init.has(path)) initBytes += bytes;
    else lazyBytes += bytes;
  }
  const kept = (file: OutputFile) => reachable.has(relative(root, file.path).replace(/\.map$/, ''));
  return { files: result.outputFiles.filter(kept), entry: resolve(root, entryOutput), initBytes, lazyBytes };
}

const listFiles = (dir: string): string[] => {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
};

/** A file another build is writing (`<file>.<pid>.tmp` of a live process): the tests build the same folders in parallel. */
function inFlight(path: string): boolean {
  const pid = Number(/\.(\d+)\.tmp$/.exec(path)?.[1]);
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Builds one entry point into `outdir`, which then holds this build's files and nothing else, so no stale
 * chunk is packaged. Each file is written beside its target and renamed over it, chunks before the entry,
 * and stale files are removed only after: a running serverless-offline (the e2e stack, while the template
 * test packages) never loads half a bundle or misses a chunk. Unchanged sources give identical file names.
 */
export async function bundle(entry: string, outdir: string, variant: Variant = 'lambda'): Promise<Compiled> {
  const compiled = await compile(entry, outdir, variant);
  const ordered = [...compiled.files].sort((a, b) => Number(a.path === compiled.entry) - Number(b.path === compiled.entry));
  for (const file of ordered) {
    await mkdir(dirname(file.path), { recursive: true });
    const temporary = `${file.path}.${process.pid}.tmp`;
    await writeFile(temporary, file.contents);
    await rename(temporary, file.path);
  }
  const written = new Set(compiled.files.map((file) => file.path));
  const stale = listFiles(resolve(root, outdir)).filter((path) => !written.has(path) && !inFlight(path));
  await Promise.all(stale.map((path) => rm(path, { force: true })));
  return compiled;
}

/** Builds every function into `.build/<group>/`; answers each one's bundle by group. */
export async function buildAll(): Promise<Map<string, Compiled>> {
  const bundles = functionNames().map(
    async (name) => [name, await bundle(`functions/${name}/handler.ts`, functionDir(name))] as const,
  );
  return new Map(await Promise.all(bundles));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildAll();
  console.log(`Built ${functionNames().join(', ')} into .build/.`);
}

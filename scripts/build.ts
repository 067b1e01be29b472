/**
 * Bundles every function (`functions/<group>/handler.ts`) with esbuild into `.build/<group>/`: `handler.mjs`,
 * the chunks it imports (`chunks/`, loaded at Init when imported statically, on first use when by `import()`),
 * and their source maps. Minified ESM for the Node.js 22 Lambda runtime, dependencies included. One definition
 * for every group: a new folder under functions/ is built, measured and budgeted the same way.
 */
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions, type Metafile, type OutputFile, type Plugin } from 'esbuild';

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

/**
 * SDK clients loaded by `import()` on first use (S3 for image bytes, KMS for signing, SES for e-mail, the IoT data plane for kd) become files of their
 * own, `sdk/<module>.mjs` beside the entry, each bundled whole with everything it needs. Split as ordinary
 * chunks, the code they share with the DynamoDB client (parts of `@smithy/core`) would move into a chunk
 * loaded at Init, and every cold start would pay for a client few requests use. Each is a small module
 * naming just the SDK parts its adapter uses (`shared/images/s3-sdk.ts`, `shared/signing/kms-sdk.ts`, `shared/mail/ses-sdk.ts`, `shared/iot/iot-sdk.ts`,
 * `shared/kd/ssm-sdk.ts`).
 * The bundles name them `#sdk/<module>`, which the function folder's own package.json (`SDK_IMPORTS`) maps to
 * the file: Node resolves it the same from the entry and from a chunk, so an adapter may sit in a lazy chunk.
 */
const ISOLATED_SDKS = /\/(s3-sdk|kms-sdk|ses-sdk|iot-sdk|ssm-sdk|s3-upload-sdk|lambda-sdk)\.ts$/;
const sdkFile = (module: string) => `sdk/${module}.mjs`;
const SDK_SPECIFIER = /^#sdk\/([a-z0-9-]+)$/;

/** The function folder's package.json: ES modules, and `#sdk/<module>` mapped to `sdk/<module>.mjs`. */
const SDK_IMPORTS = JSON.stringify({ type: 'module', imports: { '#sdk/*': `./${sdkFile('*')}` } });

const isolatedSdks: Plugin = {
  name: 'isolated-sdks',
  setup(builder) {
    builder.onResolve({ filter: ISOLATED_SDKS }, (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      const module = ISOLATED_SDKS.exec(args.path)?.[1] ?? '';
      return { path: `#sdk/${module}`, external: true };
    });
  },
};

/** Where each isolated SDK module lives, by its name. */
const SDK_SOURCES: Record<string, string> = {
  's3-sdk': 'shared/images/s3-sdk.ts',
  'kms-sdk': 'shared/signing/kms-sdk.ts',
  'ses-sdk': 'shared/mail/ses-sdk.ts',
  'iot-sdk': 'shared/iot/iot-sdk.ts',
  'ssm-sdk': 'shared/kd/ssm-sdk.ts',
  's3-upload-sdk': 'shared/exports/s3-upload-sdk.ts',
  'lambda-sdk': 'shared/exports/lambda-sdk.ts',
};

/**
 * Node gives an ES module a builtin by reading every one of its exports, getters included: `import('node:http')`,
 * which the SDK makes on its first request to an http endpoint (DynamoDB Local), runs http's WebSocket getter and so
 * loads undici, tens of milliseconds of a first response spent on nothing. The bundles take these builtins as
 * `process.getBuiltinModule()` gives them, their getters left lazy: the default export and the plain values named
 * (importing a getter by name fails the build, so none is read at load).
 */
const BUILTINS_AS_IS = /^(node:)?(http)$/;

const builtinsAsIs: Plugin = {
  name: 'builtins-as-is',
  setup(builder) {
    builder.onResolve({ filter: BUILTINS_AS_IS }, (args) => ({ path: args.path.replace(/^node:/, ''), namespace: 'builtin' }));
    builder.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => {
      const specifier = JSON.stringify(`node:${args.path}`);
      const values = Object.entries(Object.getOwnPropertyDescriptors(process.getBuiltinModule(`node:${args.path}`)))
        .filter(([name, descriptor]) => 'value' in descriptor && /^[A-Za-z_$][\w$]*$/.test(name) && name !== 'default')
        .map(([name]) => `export const ${name} = builtin.${name};`);
      return {
        contents: [`const builtin = process.getBuiltinModule(${specifier});`, 'export default builtin;', ...values].join('\n'),
      };
    });
  },
};

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

/** The project's build of one isolated SDK module (`ISOLATED_SDKS`): one self-contained file, no chunks. */
async function compileSdk(module: string, outdir: string): Promise<{ files: OutputFile[]; bytes: number }> {
  const source = SDK_SOURCES[module];
  if (!source) throw new Error(`No source for the isolated SDK module ${module}`);
  const result = await build({
    ...options('lambda'),
    plugins: [builtinsAsIs],
    splitting: false,
    entryPoints: [source],
    outfile: join(resolve(root, outdir), sdkFile(module)),
    metafile: true,
    write: false,
  });
  const bytes = Object.entries(result.metafile.outputs)
    .filter(([path]) => path.endsWith('.mjs'))
    .reduce((sum, [, output]) => sum + output.bytes, 0);
  return { files: result.outputFiles, bytes };
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
    ...(variant === 'lambda' ? { plugins: [isolatedSdks, builtinsAsIs] } : {}),
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
  const files = result.outputFiles.filter(kept);
  const sdks = isolatedImports(result.metafile, reachable);
  for (const module of sdks) {
    const sdk = await compileSdk(module, outdir);
    files.push(...sdk.files);
    lazyBytes += sdk.bytes;
  }
  if (sdks.length > 0) files.push(textFile(join(resolve(root, outdir), 'package.json'), SDK_IMPORTS));
  return { files, entry: resolve(root, entryOutput), initBytes, lazyBytes };
}

/**
 * The isolated SDKs the reachable outputs load.
 */
function isolatedImports(metafile: Metafile, reachable: ReadonlySet<string>): string[] {
  const specifiers = new Set<string>();
  for (const path of reachable) {
    for (const { path: imported, external } of metafile.outputs[path]?.imports ?? []) {
      const name = SDK_SPECIFIER.exec(imported)?.[1];
      if (external && name) specifiers.add(name);
    }
  }
  return [...specifiers];
}

/** A file of the build that esbuild did not write. */
function textFile(path: string, text: string): OutputFile {
  const contents = new TextEncoder().encode(text);
  return { path, contents, text, hash: createHash('sha256').update(contents).digest('hex') };
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

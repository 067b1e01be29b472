/**
 * Bundles every function (`functions/<group>/handler.ts`) with esbuild into
 * `.build/<group>/handler.mjs`: minified ESM for the Node.js 22 Lambda runtime, dependencies included.
 */
import { readdirSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export const root = fileURLToPath(new URL('..', import.meta.url));

/** The endpoint groups: one folder with a handler.ts each under functions/. */
export const functionNames = () =>
  readdirSync(new URL('../functions', import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

/**
 * Bundles one entry point to `outfile`; shared by the build and the benchmark's floor bundle. Each file
 * is written beside its target and renamed over it, so a running serverless-offline never loads half a bundle.
 */
export async function bundle(entry: string, outfile: string): Promise<void> {
  const result = await build({
    entryPoints: [entry],
    outfile,
    absWorkingDir: root,
    bundle: true,
    minify: true,
    sourcemap: 'linked',
    format: 'esm',
    platform: 'node',
    target: 'node22',
    legalComments: 'none',
    // Bundled CommonJS dependencies call require(); give the ES module one.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    logLevel: 'warning',
    write: false,
  });
  for (const file of result.outputFiles) {
    await mkdir(dirname(file.path), { recursive: true });
    const temporary = `${file.path}.${process.pid}.tmp`;
    await writeFile(temporary, file.contents);
    await rename(temporary, file.path);
  }
}

export async function buildAll(): Promise<void> {
  await Promise.all(functionNames().map((name) => bundle(`functions/${name}/handler.ts`, `.build/${name}/handler.mjs`)));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildAll();
  console.log(`Built ${functionNames().join(', ')} into .build/.`);
}

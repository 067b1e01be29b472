import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { config } from '#shared/config.ts';
import type { PlainRoute } from '#shared/http/api.ts';
import { okText } from '#shared/http/response.ts';
import { API_VERSIONS } from '#shared/versions.ts';

/**
 * The API reference's pages by path: the overview, one page per version and the interface conventions
 * (docs/conventions.md), each a file scripts/docs.ts writes.
 */
export const DOCS_PAGES: Readonly<Record<string, string>> = {
  '/docs': 'index.html',
  '/docs/conventions': 'conventions.html',
  ...Object.fromEntries(API_VERSIONS.map((version) => [`/docs/v${version}`, `v${version}.html`])),
};

/**
 * The pages as routes when `DOCS_DIR` names their folder (the local stack sets it); without it /docs stays
 * `404 ENDPOINT_NOT_FOUND`, as in AWS, where a static host serves them (docs/decisions.md). Read on every
 * request: `npm run docs` may rewrite them under a running stack.
 */
export function docsRoutes(dir = config().docsDir): Record<string, PlainRoute> {
  if (dir === undefined) return {};
  return Object.fromEntries(
    Object.entries(DOCS_PAGES).map(([path, file]) => [
      path,
      async () => okText(await readFile(join(dir, file), 'utf8'), 'text/html; charset=utf-8'),
    ]),
  );
}

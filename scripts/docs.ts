/**
 * `npm run docs [-- --out <dir>] [--server <base URL>]`: the API reference as static pages, built from the committed OpenAPI documents
 * (docs/openapi, written by `npm run openapi`) and README.md, into `.build/docs/` by default:
 * - `v15.html`, `v26.html`, `v33.html`: one self-contained page per version (Redoc through `redocly build-docs
 *   --inlineBundle`): scripts, styles and the document are inside the file, and the page asks no other host for anything;
 * - `index.html`: the overview, with README's "What differs between versions" (the one hand-kept copy) and the
 *   operations each version lacks, counted from the documents.
 * - `conventions.html`: docs/conventions.md as HTML, the conventions every operation follows, linked from every page.
 * The documents name `npm start`'s default server; `--server <url>` (and the local stack, its own base URL) names
 * the one the pages are served beside, so a reader's "Try it" and examples go to the running stack.
 * Not committed: `npm start` and the tests build them at every start (docs/decisions.md, "The API reference pages").
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { API_VERSIONS, type ApiVersion } from '#shared/versions.ts';
import { CONVENTIONS_PAGE, DEFAULT_SERVER_URL, SERVER_DESCRIPTION } from './openapi/tags.ts';
import { DOCS_PAGES } from '../functions/fallback/docs.ts';
import { root } from './build.ts';

/** Where the pages are built unless told otherwise; the local stack serves this folder at /docs. */
export const DOCS_BUILD_DIR = join(root, '.build', 'docs');

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** What the pages read of an OpenAPI document. */
export interface OpenApiDocument {
  info: { title: string };
  servers?: { url: string; description?: string }[];
  paths: Record<string, Partial<Record<(typeof METHODS)[number], { operationId: string; summary?: string; tags: string[] }>>>;
}

export interface Operation {
  method: string;
  /** As the document names it, version included: `/v33/{sellerId}/taxes`. */
  path: string;
  operationId: string;
  summary: string;
  tag: string;
}

export const openApiDocument = (version: ApiVersion): OpenApiDocument =>
  JSON.parse(readFileSync(join(root, 'docs', 'openapi', `v${version}.json`), 'utf8')) as OpenApiDocument;

/** Every operation of a document, in its order. */
export const operationsOf = (document: OpenApiDocument): Operation[] =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const operation = item[method];
      return operation
        ? [
            {
              method: method.toUpperCase(),
              path,
              operationId: operation.operationId,
              summary: operation.summary ?? '',
              tag: operation.tags[0] ?? '',
            },
          ]
        : [];
    }),
  );

/** The document naming `serverUrl` as its server (the committed ones name `npm start`'s default). */
export const withServer = <D extends OpenApiDocument>(document: D, serverUrl: string): D => ({
  ...document,
  servers: [
    { url: serverUrl, description: serverUrl === DEFAULT_SERVER_URL ? SERVER_DESCRIPTION : 'The stack serving this page.' },
  ],
});

/**
 * The document with every citation of the conventions in its descriptions (`docs/conventions.md §9`) made a link to
 * the section on the page served beside it; the committed documents keep the plain citation, which reads the same in
 * the repository and in the typed client's comments.
 */
export function linkConventions<D extends OpenApiDocument>(
  document: D,
  conventions = readFileSync(join(root, 'docs', 'conventions.md'), 'utf8'),
): D {
  const anchors = new Map(
    [...conventions.matchAll(/^## (\d+)\. .*$/gm)].map(([heading, number]) => [number, anchorOf(heading.slice(3))]),
  );
  const link = (citation: string, section: string | undefined) => {
    const anchor = section === undefined ? undefined : anchors.get(section);
    if (section !== undefined && anchor === undefined) throw new Error(`${citation} cites a section docs/conventions.md lacks`);
    return `[${citation}](${CONVENTIONS_PAGE}${anchor === undefined ? '' : `#${anchor}`})`;
  };
  return JSON.parse(JSON.stringify(document), (key, value: unknown) =>
    key === 'description' && typeof value === 'string' ? value.replace(/(?<!\[)docs\/conventions\.md(?: §(\d+))?/g, link) : value,
  ) as D;
}

/** The URL path of a version's page (functions/fallback/docs.ts serves it). */
export const pagePath = (version: ApiVersion) => `/docs/v${version}`;

/** A page's file in the output folder. */
const fileOf = (path: string) => {
  const file = DOCS_PAGES[path];
  if (file === undefined) throw new Error(`No docs page at ${path} (functions/fallback/docs.ts)`);
  return file;
};

/**
 * Redoc's sidebar shows Redocly's logo from Redocly's CDN, and no option turns it off: the page shows the same
 * word from an inline image instead, so it makes no request. The browser test (tests/e2e/docs-page.test.ts)
 * records every request the page makes, so another such asset in a later Redoc fails it.
 */
const REDOCLY_LOGO = /https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(?:-full)?\.svg/g;
const INLINE_LOGO = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" width="56" height="14"><text x="0" y="11" font-family="sans-serif" font-size="12" fill="#0044d4">Redocly</text></svg>',
)}`;

/** One version's page, written by `redocly build-docs` offline: no telemetry, no update check, the bundle inlined. */
async function buildPage(version: ApiVersion, workDir: string, serverUrl: string): Promise<string> {
  const output = join(workDir, `v${version}.html`);
  const source = join(workDir, `v${version}.json`);
  const document = linkConventions(withServer(openApiDocument(version), serverUrl));
  writeFileSync(source, JSON.stringify(document));
  try {
    await promisify(execFile)(
      process.execPath,
      [
        join(root, 'node_modules/.bin/redocly'),
        'build-docs',
        source,
        '--output',
        output,
        '--inlineBundle',
        '--title',
        document.info.title,
      ],
      { cwd: root, env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
    );
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`redocly build-docs failed for v${version}:\n${stdout}${stderr}`, { cause: error });
  }
  return readFileSync(output, 'utf8').replace(REDOCLY_LOGO, INLINE_LOGO);
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** README's inline Markdown: code spans, bold, and links (a file of the repository becomes its name: the pages serve no files). */
const inline = (markdown: string) =>
  escapeHtml(markdown)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/\[([^\]]+)\]\(([^)]+)\)/g, (_, text: string, href: string) =>
      /^https?:\/\//.test(href) || href.startsWith('#') ? `<a href="${href}">${text}</a>` : text,
    );

const cells = (row: string) =>
  row
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((cell) => cell.trim());

/** The body of README's section `heading` (paragraphs and tables) as HTML; a missing section fails the build. */
export function readmeSection(heading: string, readme = readFileSync(join(root, 'README.md'), 'utf8')): string {
  const lines = readme.split('\n');
  const start = lines.findIndex((line) => /^#+ /.test(line) && line.replace(/^#+ /, '') === heading);
  if (start < 0) throw new Error(`README.md has no section "${heading}"; the docs overview shows it`);
  const end = lines.findIndex((line, index) => index > start && /^#+ /.test(line));
  const blocks = lines
    .slice(start + 1, end < 0 ? undefined : end)
    .join('\n')
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter(Boolean);
  return blocks
    .map((block) => {
      const rows = block.split('\n');
      return rows.every((row) => row.startsWith('|')) ? tableHtml(rows) : `<p>${inline(rows.join(' '))}</p>`;
    })
    .join('\n');
}

/** A heading's anchor as GitHub makes it: `## 3. Error body` -> `3-error-body`. */
export const anchorOf = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .trim()
    .replace(/\s/g, '-');

/**
 * The Markdown of docs/conventions.md as HTML: headings (with GitHub's anchors), paragraphs, lists (one level of
 * nesting), tables and fenced code; links to repository files become their names, as in the overview.
 */
export function markdownHtml(markdown: string): string {
  const out: string[] = [];
  const lines = markdown.split('\n');
  let index = 0;
  /** The lines of a block: up to a blank line (or, for a list item, the next item). */
  const take = (more: (line: string) => boolean) => {
    const block: string[] = [];
    while (index < lines.length && (lines[index] ?? '').trim() !== '' && more(lines[index] ?? ''))
      block.push(lines[index++] ?? '');
    return block;
  };
  while (index < lines.length) {
    const line = lines[index] ?? '';
    const heading = /^(#{1,4}) (.*)$/.exec(line);
    if (line.trim() === '') index++;
    else if (heading) {
      const [, hashes = '#', text = ''] = heading;
      out.push(`<h${hashes.length} id="${anchorOf(text)}">${inline(text)}</h${hashes.length}>`);
      index++;
    } else if (line.startsWith('```')) {
      const code: string[] = [];
      index++;
      while (index < lines.length && !(lines[index] ?? '').startsWith('```')) code.push(lines[index++] ?? '');
      index++;
      out.push(`<pre><code>${escapeHtml(code.join('\n'))}</code></pre>`);
    } else if (line.startsWith('|')) out.push(tableHtml(take((row) => row.startsWith('|'))));
    else if (/^\s*(?:[-*]|\d+\.) /.test(line)) {
      const items = take(() => true);
      out.push(listHtml(items));
    } else out.push(`<p>${inline(take((row) => !/^(#|```|\|)/.test(row)).join(' '))}</p>`);
  }
  return out.join('\n');
}

/** A list's lines as nested lists: an item starts with `-`, `*` or `1.`; deeper indentation nests. */
function listHtml(rows: readonly string[]): string {
  const indentOf = (row: string) => row.length - row.trimStart().length;
  const marker = /^\s*(?:[-*]|\d+\.) /;
  const base = indentOf(rows[0] ?? '');
  const ordered = /^\s*\d+\. /.test(rows[0] ?? '');
  const items: { text: string[]; nested: string[] }[] = [];
  for (const row of rows) {
    const item = items.at(-1);
    if (marker.test(row) && indentOf(row) <= base) items.push({ text: [row.replace(marker, '')], nested: [] });
    else if (item && (item.nested.length > 0 || marker.test(row))) item.nested.push(row);
    else item?.text.push(row.trim());
  }
  const tag = ordered ? 'ol' : 'ul';
  return `<${tag}>\n${items
    .map(({ text, nested }) => `<li>${inline(text.join(' '))}${nested.length > 0 ? `\n${listHtml(nested)}` : ''}</li>`)
    .join('\n')}\n</${tag}>`;
}

/** A Markdown table's rows (the second, the alignment row, is skipped) as an HTML table. */
function tableHtml(rows: readonly string[]): string {
  const [head = '', , ...body] = rows;
  const th = cells(head).map((cell) => `<th>${inline(cell)}</th>`);
  const tr = body.map(
    (row) =>
      `<tr>${cells(row)
        .map((cell) => `<td>${inline(cell)}</td>`)
        .join('')}</tr>`,
  );
  return `<table>\n<thead><tr>${th.join('')}</tr></thead>\n<tbody>\n${tr.join('\n')}\n</tbody>\n</table>`;
}

/** docs/conventions.md as a page beside the reference, linking back to it. */
export function conventionsPage(markdown = readFileSync(join(root, 'docs', 'conventions.md'), 'utf8')): string {
  return htmlPage(
    'interface conventions',
    `<p><a href="/docs">API reference</a>: ${API_VERSIONS.map((version) => `<a href="${pagePath(version)}">v${version}</a>`).join(' ')}</p>
${markdownHtml(markdown)}`,
    `
  pre { background: #f0f2f5; padding: .6rem; overflow-x: auto; }
  pre code { background: none; padding: 0; }`,
  );
}

/** Each operation (method and path without the version) that some version lacks, with the versions that have it. */
export function partialOperations(documents: ReadonlyMap<ApiVersion, OpenApiDocument>): Map<string, ApiVersion[]> {
  const versionsOf = new Map<string, ApiVersion[]>();
  for (const [version, document] of documents) {
    for (const { method, path } of operationsOf(document)) {
      const key = `${method} ${path.replace(/^\/v\d+/, '')}`;
      versionsOf.set(key, [...(versionsOf.get(key) ?? []), version]);
    }
  }
  const partial = [...versionsOf].filter(([, versions]) => versions.length < documents.size);
  return new Map(partial.sort(([a], [b]) => a.replace(/^\w+ /, '').localeCompare(b.replace(/^\w+ /, '')) || a.localeCompare(b)));
}

const STYLE = `
  body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 72rem; padding: 0 1rem; color: #1f2933; line-height: 1.5; }
  table { border-collapse: collapse; margin: 1rem 0; }
  th, td { border: 1px solid #d9dee3; padding: .3rem .6rem; text-align: left; vertical-align: top; }
  th { background: #f5f7fa; }
  code { background: #f0f2f5; padding: 0 .2rem; border-radius: 3px; font-size: .9em; }
  .versions a { font-size: 1.2rem; font-weight: 600; }
  td.yes { color: #1e8449; } td.no { color: #9aa5b1; }
  summary { cursor: pointer; }`;

/** A page of our own beside the reference: its title after the service's name, its body, and style beyond STYLE. */
const htmlPage = (title: string, body: string, style = '') => `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Cash-register back end: ${title}</title>
<style>${STYLE}${style}
</style>
</head>
<body>
${body}
</body>
</html>
`;

/** The overview page: links to each version's page, README's differences, and the operations some version lacks. */
export function overviewPage(documents: ReadonlyMap<ApiVersion, OpenApiDocument>): string {
  const versions = [...documents.keys()];
  const links = [...documents].map(
    ([version, document]) =>
      `<li><a href="${pagePath(version)}">API v${version}</a>: ${operationsOf(document).length} operations (${escapeHtml(document.info.title)})</li>`,
  );
  const partial = partialOperations(documents);
  const rows = [...partial].map(
    ([operation, present]) =>
      `<tr><td><code>${escapeHtml(operation)}</code></td>${versions
        .map((version) => (present.includes(version) ? '<td class="yes">yes</td>' : '<td class="no">no</td>'))
        .join('')}</tr>`,
  );
  const all = new Set(
    [...documents.values()].flatMap((document) =>
      operationsOf(document).map(({ method, path }) => `${method} ${path.replace(/^\/v\d+/, '')}`),
    ),
  );
  return htmlPage(
    'API reference',
    `<h1>Cash-register back end: API reference</h1>
<p>One page per API version, generated from its OpenAPI 3.1 document (<code>docs/openapi/v{N}.json</code>, written by
<code>npm run openapi</code> from the schemas and route tables): every operation, its parameters, bodies, answers and errors.</p>
<ul class="versions">
${links.join('\n')}
</ul>
<p>Every operation follows the <a href="${CONVENTIONS_PAGE}">interface conventions</a> (docs/conventions.md): credentials,
the error body, statuses, entity tags, lists, sync, the fiscal records.</p>
<h2>What differs between versions</h2>
${readmeSection('What differs between versions')}
<details>
<summary>Operations not in every version: ${partial.size} of ${all.size}</summary>
<table>
<thead><tr><th>operation</th>${versions.map((version) => `<th>v${version}</th>`).join('')}</tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>
</details>`,
  );
}

/**
 * Builds every page into `outDir` (each written whole, then renamed over the old one), the version pages naming
 * `serverUrl` as their server; answers the files written.
 */
export async function buildDocs(outDir = DOCS_BUILD_DIR, serverUrl = DEFAULT_SERVER_URL): Promise<string[]> {
  mkdirSync(outDir, { recursive: true });
  const workDir = mkdtempSync(join(tmpdir(), 'docs-'));
  try {
    const documents = new Map(API_VERSIONS.map((version) => [version, openApiDocument(version)] as const));
    const pages = new Map<string, string>([
      [fileOf('/docs'), overviewPage(documents)],
      [fileOf(CONVENTIONS_PAGE), conventionsPage()],
    ]);
    const built = await Promise.all(
      API_VERSIONS.map(async (version) => [version, await buildPage(version, workDir, serverUrl)] as const),
    );
    for (const [version, html] of built) pages.set(fileOf(pagePath(version)), html);
    for (const [file, html] of pages) {
      const temporary = join(outDir, `${file}.${process.pid}.tmp`);
      writeFileSync(temporary, html);
      renameSync(temporary, join(outDir, file));
    }
    return [...pages.keys()].map((file) => join(outDir, file));
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { out: { type: 'string' }, server: { type: 'string' } } });
  // Relative to the folder the command was typed in (npm runs scripts at the package's root).
  const out = values.out === undefined ? DOCS_BUILD_DIR : resolve(process.env.INIT_CWD ?? '.', values.out);
  const files = await buildDocs(out, values.server ?? DEFAULT_SERVER_URL);
  console.log(`Wrote ${files.join(', ')}.`);
}

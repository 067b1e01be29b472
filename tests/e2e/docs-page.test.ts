/**
 * The API reference as a reader sees it: the pages the local stack serves at /docs (scripts/docs.ts builds them,
 * the fallback function serves them), opened in a real headless Chromium (Debian's `chromium`, driven by
 * playwright-core). Every operation of each OpenAPI document is rendered, and every request a page makes stays on
 * this machine. Screenshots go to .test-output/docs/.
 *
 * Redoc lays out each operation as an empty section 100 px tall and fills it once it comes within 200 px of the view,
 * and leaves a tag's sections out of view unpainted (`content-visibility: auto`): a full-page screenshot shows the
 * unfilled ones as blank stretches, where a reader who scrolls sees them filled as they arrive (docs/decisions.md,
 * "The API reference pages"). So the tests look at what is in view after scrolling, as a reader would.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { API_VERSIONS } from '#shared/versions.ts';
import { root } from '../../scripts/build.ts';
import { type Operation, openApiDocument, operationsOf, pagePath, partialOperations } from '../../scripts/docs.ts';
import { CONVENTIONS_PAGE } from '../../scripts/openapi/tags.ts';

/** Debian's package (`.ci/run` installs it when missing). */
const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const OUTPUT = join(root, '.test-output', 'docs');

const baseUrl = inject('baseUrl');
let userDataDir: string;
let browser: BrowserContext;
/** Every request the pages made (and each WebSocket they opened), by URL, in order. */
const requests: string[] = [];

/** On this machine: the stack's own host, or data the page holds (data:, blob:). */
const local = (url: string) => {
  const { protocol, hostname } = new URL(url);
  return protocol === 'data:' || protocol === 'blob:' || ['localhost', '127.0.0.1', '[::1]'].includes(hostname);
};

/** A page of the stack, opened in a new tab, with what it answered and the requests it made until `close`. */
async function open(path: string) {
  const from = requests.length;
  const page = await browser.newPage();
  page.on('websocket', (socket) => requests.push(socket.url()));
  const response = await page.goto(`${baseUrl}${path}`);
  return {
    page,
    answer: { status: response?.status(), type: response?.headers()['content-type'] },
    /** Closes the tab (its requests are all reported by then) and answers them. */
    close: async () => {
      await page.close();
      return requests.slice(from);
    },
  };
}

/**
 * Shows an operation: Redoc lays out a tag's operations as empty sections and fills each as it scrolls into
 * view, so scroll to it until its heading is there (a fill may move it); answers the heading.
 */
async function operationHeading(page: Page, { tag, operationId }: Operation): Promise<string | null> {
  const section = page.locator(`[data-section-id="/${tag}/${operationId.toLowerCase()}"]`);
  await section.waitFor({ state: 'attached' });
  const heading = section.locator('h2').first();
  await expect
    .poll(
      async () => {
        await section.evaluate((element) => element.scrollIntoView());
        return heading.count();
      },
      { timeout: 20_000 },
    )
    .toBe(1);
  return heading.textContent();
}

beforeAll(async () => {
  expect(existsSync(CHROMIUM), `${CHROMIUM} is missing: sudo apt-get install -y chromium`).toBe(true);
  mkdirSync(OUTPUT, { recursive: true });
  userDataDir = mkdtempSync(join(tmpdir(), 'chromium-'));
  browser = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 1400, height: 900 },
  });
  browser.on('request', (request) => requests.push(request.url()));
});

afterAll(async () => {
  await browser?.close();
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
});

const HTML = { status: 200, type: 'text/html; charset=utf-8' };

describe('the API reference at /docs', () => {
  it('the overview links each version page, says what differs, and asks no other host for anything', async () => {
    // Act
    const { page, answer, close } = await open('/docs');
    const links = await page.locator('a[href^="/docs/"]').evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href')));
    const differences = await page
      .locator('h2:has-text("What differs between versions") ~ table')
      .first()
      .locator('tbody tr')
      .count();
    const partial = await page.locator('details tbody tr').count();
    await page.screenshot({ path: join(OUTPUT, 'overview.png'), fullPage: true });
    const made = await close();

    // Assess
    expect(answer).toEqual(HTML);
    expect(links).toEqual([...API_VERSIONS.map(pagePath), CONVENTIONS_PAGE]);
    expect(differences).toBeGreaterThan(0);
    const documents = new Map(API_VERSIONS.map((version) => [version, openApiDocument(version)] as const));
    expect(partial).toBe(partialOperations(documents).size);
    expect(made[0]).toBe(`${baseUrl}/docs`);
    expect(made.filter((url) => !local(url))).toEqual([]);
  });

  it.each(API_VERSIONS.map((version) => ({ version })))(
    'v$version renders every operation of its OpenAPI document (docs/openapi), and asks no other host for anything',
    { timeout: 300_000 },
    async ({ version }) => {
      // Prepare
      const documented = operationsOf(openApiDocument(version));
      const tags = [...new Set(documented.map(({ tag }) => tag))];
      // Tag by tag, as the page groups them.
      const operations = tags.flatMap((tag) => documented.filter((operation) => operation.tag === tag));
      const { page, answer, close } = await open(pagePath(version));
      const headings: (string | null)[] = [];
      const sections: (string | null)[] = [];

      // Act: a tag's page holds its operations, one section `/<tag>/<operationId in lower case>` each.
      for (const tag of tags) {
        await page.goto(new URL(`#/${tag}`, page.url()).href);
        for (const operation of operations.filter((operation) => operation.tag === tag)) {
          headings.push(await operationHeading(page, operation));
        }
        sections.push(
          ...(await page
            .locator(`[data-section-id^="/${tag}/"]`)
            .evaluateAll((elements) => elements.map((element) => element.getAttribute('data-section-id')))),
        );
      }
      const [first] = operations;
      if (first) {
        await page.goto(new URL(`#/${first.tag}`, page.url()).href);
        await operationHeading(page, first);
      }
      await page.screenshot({ path: join(OUTPUT, `v${version}.png`) });
      const made = await close();

      // Assess
      expect(answer).toEqual(HTML);
      expect(operations.length).toBeGreaterThan(0);
      expect(headings).toEqual(operations.map(({ summary }) => summary));
      expect(sections).toEqual(operations.map(({ tag, operationId }) => `/${tag}/${operationId.toLowerCase()}`));
      expect(made[0]).toBe(`${baseUrl}${pagePath(version)}`);
      expect(made.filter((url) => !local(url))).toEqual([]);
    },
  );

  it(
    'v33: an operation scrolled to is laid out with its summary, description and who may call it, and nothing in view is blank',
    { timeout: 120_000 },
    async () => {
      // Prepare: a known operation of the catalog, its section among the tag's others.
      const v33 = openApiDocument(33) as ReturnType<typeof openApiDocument> & {
        paths: Record<string, { put?: { description?: string } }>;
      };
      const putTax = operationsOf(v33).find(
        ({ method, path }) => method === 'PUT' && path === '/v33/{sellerId}/taxes/{identifier}',
      );
      if (putTax === undefined) throw new Error('v33 has no PUT /{sellerId}/taxes/{identifier}');
      const description = v33.paths[putTax.path]?.put?.description ?? '';
      const { page, close } = await open(pagePath(33));
      // The overview at the top, once Redoc has set it: its servers and its link to the conventions.
      await page.getByText(baseUrl).first().waitFor();
      const top = await page.locator('body').innerText();
      await page.goto(new URL(`#/${putTax.tag}`, page.url()).href);

      // Act: scroll to it as a reader would, and wait until what is in view is filled.
      const heading = await operationHeading(page, putTax);
      const section = page.locator(`[data-section-id="/${putTax.tag}/${putTax.operationId.toLowerCase()}"]`);
      await section.evaluate((element) => element.scrollIntoView());
      /** Sections in view that are still empty (Redoc's placeholders), and the height of the view they cover. */
      const height = page.viewportSize()?.height ?? 0;
      const blankInView = () =>
        page.locator('[data-section-id]').evaluateAll(
          (elements, viewHeight) =>
            elements
              .map((element) => ({ text: element.textContent?.trim() ?? '', box: element.getBoundingClientRect() }))
              .filter(({ text, box }) => text === '' && box.bottom > 0 && box.top < viewHeight)
              .reduce((sum, { box }) => sum + Math.min(box.bottom, viewHeight) - Math.max(box.top, 0), 0),
          height,
        );
      await expect.poll(blankInView, { timeout: 20_000 }).toBe(0);
      const box = await section.boundingBox();
      const text = await section.innerText();
      const conventionLinks = await section
        .locator(`a[href^="${CONVENTIONS_PAGE}#"]`)
        .evaluateAll((anchors) => anchors.map((a) => `${a.textContent} -> ${a.getAttribute('href')}`));
      const screenshot = join(OUTPUT, 'v33-operation.png');
      await page.screenshot({ path: screenshot });
      console.log(`The v33 page at ${putTax.method} ${putTax.path}: ${screenshot}`);
      await close();

      // Assess: the page names the stack it is served by, and links the conventions.
      expect(top).toContain(baseUrl);
      expect(top).not.toContain('localhost:3000');
      expect(top).toContain('docs/conventions.md');
      expect(heading).toBe('Writes a tax');
      expect(box?.height).toBeGreaterThan(300);
      // The description's paragraphs, as Redoc sets them: the route's own, then who may call it.
      for (const paragraph of description.split('\n\n')) expect(text).toContain(paragraph);
      expect(text).toContain('Called by a user with access to the path');
      // The seller id's citation of the conventions is a link to its section.
      expect(conventionLinks).toContain('docs/conventions.md §9 -> /docs/conventions#9-seller-ids-in-paths');
    },
  );

  it('serves the interface conventions beside the reference, linked from each version page', { timeout: 120_000 }, async () => {
    // Act
    const { page, answer, close } = await open(CONVENTIONS_PAGE);
    const headings = await page.locator('h2').allInnerTexts();
    const back = await page.locator('a[href^="/docs"]').evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href')));
    await close();
    const versionPage = await open(pagePath(33));
    const link = versionPage.page.locator(`a[href="${CONVENTIONS_PAGE}"]`).first();
    await link.waitFor();
    const linked = await link.innerText();
    await versionPage.close();

    // Assess
    expect(answer).toEqual(HTML);
    expect(headings).toContain('3. Error body');
    expect(back).toEqual(['/docs', ...API_VERSIONS.map(pagePath)]);
    expect(linked).toBe('docs/conventions.md');
  });

  it('answers GET only, and 404 for a page it does not have', async () => {
    // Act
    const post = await fetch(`${baseUrl}/docs`, { method: 'POST' });
    const missing = await fetch(`${baseUrl}/docs/v99`);

    // Assess
    expect({ status: post.status, allow: post.headers.get('allow') }).toEqual({ status: 405, allow: 'GET' });
    expect({ status: missing.status, body: await missing.json() }).toMatchObject({
      status: 404,
      body: { exception: 'NotFound', code: 'ENDPOINT_NOT_FOUND' },
    });
  });
});

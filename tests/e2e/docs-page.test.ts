/**
 * The API reference as a reader sees it: the pages the local stack serves at /docs (scripts/docs.ts builds them,
 * the fallback function serves them), opened in a real headless Chromium (Debian's `chromium`, driven by
 * playwright-core). Every operation of each OpenAPI document is rendered, and every request a page makes stays on
 * this machine. Screenshots go to .test-output/docs/.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { API_VERSIONS } from '#shared/versions.ts';
import { root } from '../../scripts/build.ts';
import { type Operation, openApiDocument, operationsOf, pagePath, partialOperations } from '../../scripts/docs.ts';

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
    expect(links).toEqual(API_VERSIONS.map(pagePath));
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

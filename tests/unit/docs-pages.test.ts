/**
 * The API reference's pages as scripts/docs.ts builds them, without a browser: docs/conventions.md as HTML, and the
 * server a version page names (tests/e2e/docs-page.test.ts opens the pages the stack serves).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { conventionsPage, linkConventions, markdownHtml, openApiDocument, withServer } from '../../scripts/docs.ts';

describe('the API reference pages (scripts/docs.ts)', () => {
  it('render Markdown as the conventions use it: anchored headings, nested lists, tables, code, bold, links', () => {
    // Prepare
    const markdown = [
      '## 3. Error body',
      '',
      'A **bold** word, `code` and [a file](decisions.md), [a site](https://example.com/).',
      '',
      '- one',
      '  continued',
      '  - nested',
      '- two',
      '',
      '| a | b |',
      '| - | - |',
      '| 1 | 2 |',
      '',
      '```json',
      '{"x": "<y>"}',
      '```',
    ].join('\n');

    // Act
    const html = markdownHtml(markdown);

    // Assess
    expect(html).toBe(
      [
        '<h2 id="3-error-body">3. Error body</h2>',
        '<p>A <strong>bold</strong> word, <code>code</code> and a file, <a href="https://example.com/">a site</a>.</p>',
        '<ul>\n<li>one continued\n<ul>\n<li>nested</li>\n</ul></li>\n<li>two</li>\n</ul>',
        '<table>\n<thead><tr><th>a</th><th>b</th></tr></thead>\n<tbody>\n<tr><td>1</td><td>2</td></tr>\n</tbody>\n</table>',
        '<pre><code>{&quot;x&quot;: &quot;&lt;y&gt;&quot;}</code></pre>',
      ].join('\n'),
    );
  });

  it('show every section of docs/conventions.md under the anchor its citations use, and link back to the reference', () => {
    // Prepare
    const sections = readFileSync(new URL('../../docs/conventions.md', import.meta.url), 'utf8').match(/^## \d+\. .*$/gm) ?? [];

    // Act
    const page = conventionsPage();

    // Assess
    expect(sections.length).toBeGreaterThan(20);
    for (const section of sections) {
      const [number = ''] = /\d+/.exec(section) ?? [];
      expect(page, section).toMatch(new RegExp(`<h2 id="${number}-[a-z0-9-]+">`));
    }
    expect(page).toContain('<a href="/docs">API reference</a>');
    expect(page).not.toMatch(/\*\*|```/);
  });

  it("link each citation of a convention in the page's descriptions to its section on the conventions page", () => {
    // Prepare
    const page = conventionsPage();
    const cited = JSON.stringify(openApiDocument(33)).match(/docs\/conventions\.md §\d+/g) ?? [];

    // Act
    const linked = JSON.stringify(linkConventions(openApiDocument(33)));

    // Assess
    expect(cited.length).toBeGreaterThan(100);
    const links = [...linked.matchAll(/\[docs\/conventions\.md §(\d+)\]\(\/docs\/conventions#([^)]+)\)/g)];
    expect(links.length).toBe(cited.length);
    // §9 by hand: its heading is "## 9. Seller ids in paths".
    expect(links.find(([, section]) => section === '9')?.[2]).toBe('9-seller-ids-in-paths');
    for (const [, section, anchor] of links) expect(page, `§${section}`).toContain(`<h2 id="${anchor}">${section}. `);
    // Nothing cited stays plain, and the overview's link is not linked twice.
    expect(linked.match(/(?<!\[)docs\/conventions\.md §\d+/g)).toBeNull();
    expect(linked).toContain('[docs/conventions.md](/docs/conventions)');
    expect(linked).not.toContain('[[');
  });

  it('refuse to link a section the conventions lack', () => {
    // Prepare: a citation made here, as the repository's own citations must all name a section (tests/unit/docs.test.ts).
    const citation = `docs/conventions.md §${String(99)}`;
    const document = { info: { title: 't', description: `See ${citation}.` }, paths: {} };

    // Act
    const linking = () => linkConventions(document, '## 1. Paths and versions\n');

    // Assess
    expect(linking).toThrow(`${citation} cites a section docs/conventions.md lacks`);
  });

  it('name the server a page is built for, the committed document keeping its own', () => {
    // Act
    const document = withServer(openApiDocument(33), 'http://localhost:4123');

    // Assess
    expect(document.servers?.map(({ url }) => url)).toEqual(['http://localhost:4123']);
    expect(openApiDocument(33).servers?.map(({ url }) => url)).toEqual(['http://localhost:3000']);
  });
});

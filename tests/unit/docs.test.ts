import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../../scripts/build.ts';

/** Where the project's own text lives: code, schemas, infrastructure, tests and documentation. */
const SCANNED = ['functions', 'shared', 'schemas', 'scripts', 'infra', 'tests', 'docs', 'README.md', 'serverless.yml'];

function filesUnder(path: string): string[] {
  const absolute = join(root, path);
  if (!statSync(absolute).isDirectory()) return [absolute];
  return readdirSync(absolute, { recursive: true, encoding: 'utf8' })
    .map((name) => join(absolute, name))
    .filter((file) => statSync(file).isFile());
}

const texts = SCANNED.flatMap(filesUnder).map((file) => ({ file: relative(root, file), text: readFileSync(file, 'utf8') }));

/** Where each match of `pattern` occurs, as `file:line: match`. */
function occurrences(pattern: RegExp): { where: string; match: RegExpExecArray }[] {
  return texts.flatMap(({ file, text }) =>
    text
      .split('\n')
      .flatMap((line, index) => [...line.matchAll(pattern)].map((match) => ({ where: `${file}:${index + 1}`, match }))),
  );
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');

const headings = [...readFileSync(join(root, 'docs/conventions.md'), 'utf8').matchAll(/^## (\d+)\. (.+)$/gm)].map(
  ([line = '', number = '']) => ({ number: Number(number), anchor: anchorOf(line.slice(3)) }),
);

describe('citations of the interface conventions', () => {
  it('docs/conventions.md numbers its sections 1, 2, 3, ... without gaps', () => {
    expect(headings.map(({ number }) => number)).toEqual(headings.map((_, index) => index + 1));
  });

  it('no file cites the design card outside the repository, or its pins', () => {
    const cited = occurrences(/DESIGN\.md|\bpins? \d+/gi).map(({ where, match }) => `${where}: ${match[0]}`);
    expect(cited).toEqual([]);
  });

  it('every cited section number or heading anchor of docs/conventions.md names a heading', () => {
    const sections = new Set(headings.map(({ number }) => number));
    const anchors = new Set(headings.map(({ anchor }) => anchor));
    const bySection = occurrences(/conventions\.md((?:(?:,| and)? §\d+)+)/g);
    const byAnchor = occurrences(/conventions\.md#([\w-]+)/g);

    const unknown = [
      ...bySection.flatMap(({ where, match }) =>
        [...(match[1] ?? '').matchAll(/§(\d+)/g)]
          .filter(([, number]) => !sections.has(Number(number)))
          .map(([section]) => `${where}: ${section}`),
      ),
      ...byAnchor.filter(({ match }) => !anchors.has(match[1] ?? '')).map(({ where, match }) => `${where}: #${match[1]}`),
    ];
    expect(bySection.length, 'the citations were found at all').toBeGreaterThan(40);
    expect(unknown).toEqual([]);
  });
});

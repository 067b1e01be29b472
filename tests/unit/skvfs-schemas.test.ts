/**
 * The repository's copy of Skatteverket's SKVFS 2021:16 schemas (docs/skvfs2021-16, for the README's walk) is the
 * shared, outside copy the tests validate against, byte for byte, with the published SHA-256 of each.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const sha256 = (url: URL) => createHash('sha256').update(readFileSync(url)).digest('hex');
const ours = (name: string) => new URL(`../../docs/skvfs2021-16/${name}`, import.meta.url);
const shared = (name: string) => new URL(`../../../shared/skvfs2021-16/${name}`, import.meta.url);

describe('docs/skvfs2021-16', () => {
  it.each([
    ['skv_utredningsstod_instans.xsd', '2909c610382635a2bb50ffbbf87272e04053a06095ac392eed80a4acf7e4931f'],
    ['skv_utredningsstod_komponent.xsd', 'c75f2e89f54251dfd9a13482530a611addecfa69ee1a48b3348e00909daf6b5e'],
  ])('%s is Skatteverket schema as published', (name, published) => {
    expect(sha256(ours(name))).toBe(published);
    expect(sha256(shared(name))).toBe(published);
  });

  it('validate_wrapper.xsd is the shared one', () => {
    expect(readFileSync(ours('validate_wrapper.xsd'), 'utf8')).toBe(readFileSync(shared('validate_wrapper.xsd'), 'utf8'));
  });
});

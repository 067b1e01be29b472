/** HTTP preconditions (docs/conventions.md §5): which If-Match / If-None-Match headers a write or read meets. */
import { describe, expect, it } from 'vitest';
import { checkPreconditions, preconditions, unchangedSince } from '#shared/http/conditions.ts';
import { refusal } from '../support/decisions.ts';

describe('preconditions', () => {
  it('reads `*` and lists of strong tags, spaces allowed around them', () => {
    // Act
    const parsed = preconditions({ 'if-match': ' "3" , "12"', 'if-none-match': ' * ' });

    // Assess
    expect(parsed).toEqual({ ifMatch: [3, 12], ifNoneMatch: '*' });
  });

  it('no headers: no preconditions', () => {
    // Act and Assess
    expect(preconditions({})).toEqual({ ifMatch: undefined, ifNoneMatch: undefined });
  });

  it.each([
    ['a weak tag', 'W/"3"'],
    ['an unquoted version', '3'],
    ['a tag that is no version', '"abc"'],
    ['an empty element of a list', '"3",'],
    ['a version of more than 15 digits', '"1234567890123456"'],
    ['an empty header', ''],
  ])('%s is 400 InvalidETagFormat', (_, header) => {
    // Act
    const refused = refusal(() => preconditions({ 'if-match': header }));

    // Assess
    expect(refused).toEqual({ status: 400, exception: 'InvalidETagFormat', code: null });
  });
});

describe('checkPreconditions', () => {
  const check = (headers: Record<string, string>, current: number | undefined) => () =>
    checkPreconditions(preconditions(headers), current);

  it.each([
    ['no preconditions, new entity', {}, undefined],
    ['no preconditions, existing entity', {}, 4],
    ['If-Match naming the current version', { 'if-match': '"4"' }, 4],
    ['If-Match: * on an existing entity', { 'if-match': '*' }, 4],
    ['If-None-Match: * on a new entity (create only)', { 'if-none-match': '*' }, undefined],
    ['If-None-Match naming another version', { 'if-none-match': '"3"' }, 4],
  ])('passes: %s', (_, headers, current) => {
    // Act and Assess
    expect(check(headers, current)).not.toThrow();
  });

  it.each([
    ['If-Match naming another version', { 'if-match': '"3", "5"' }, 4],
    ['If-Match: * on a missing entity', { 'if-match': '*' }, undefined],
    ['If-Match with a version on a missing entity', { 'if-match': '"1"' }, undefined],
    ['If-None-Match: * on an existing entity', { 'if-none-match': '*' }, 4],
    ['If-None-Match naming the current version', { 'if-none-match': '"4"' }, 4],
  ])('409 VersionConflict: %s', (_, headers, current) => {
    // Act
    const refused = refusal(check(headers, current));

    // Assess
    expect(refused).toEqual({ status: 409, exception: 'VersionConflict', code: null });
  });
});

describe('unchangedSince', () => {
  it.each([
    [{}, false],
    [{ 'if-none-match': '"7"' }, true],
    [{ 'if-none-match': '"6", "7"' }, true],
    [{ 'if-none-match': '"6"' }, false],
    [{ 'if-none-match': '*' }, true],
  ])('If-None-Match %o on version 7: 304 is %s', (headers, expected) => {
    // Act and Assess
    expect(unchangedSince(headers, 7)).toBe(expected);
  });

  it('a malformed If-None-Match on a read is 400 InvalidETagFormat', () => {
    // Act
    const refused = refusal(() => unchangedSince({ 'if-none-match': 'W/"7"' }, 7));

    // Assess
    expect(refused.exception).toBe('InvalidETagFormat');
  });
});

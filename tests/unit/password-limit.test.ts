/** When a username may try a password again (docs/conventions.md §26): the pure decision, no I/O. */
import { describe, expect, it } from 'vitest';
import { retryAfterSeconds, WRONG_PASSWORD_LIMIT, type WrongPasswords } from '#shared/auth/password-limit.ts';

const NOW = 1_700_000_000_000;
const counter = (failures: number, windowEnds: number): WrongPasswords => ({
  failures,
  windowEnds,
  expiresAt: Math.ceil(windowEnds / 1000),
});

describe('retryAfterSeconds', () => {
  it.each([
    ['no counter', undefined, undefined],
    ['one failure short of the limit', counter(WRONG_PASSWORD_LIMIT - 1, NOW + 60_000), undefined],
    ['at the limit, 60 s left', counter(WRONG_PASSWORD_LIMIT, NOW + 60_000), 60],
    ['past the limit, 1.2 s left (rounded up)', counter(WRONG_PASSWORD_LIMIT + 3, NOW + 1_200), 2],
    ['at the limit, the window ending now', counter(WRONG_PASSWORD_LIMIT, NOW), undefined],
    ['at the limit, the window ended (its item not yet expired)', counter(WRONG_PASSWORD_LIMIT, NOW - 1), undefined],
  ])('%s', (_, stored, expected) => {
    // Act
    const wait = retryAfterSeconds(stored, NOW);

    // Assess
    expect(wait).toBe(expected);
  });
});

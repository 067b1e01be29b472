/** When a source may try a password for a username again (docs/conventions.md §26): the pure decisions, no I/O. */
import { describe, expect, it } from 'vitest';
import {
  FIRST_PAUSE_MS,
  MAX_PAUSE_MS,
  pauseAfterFailure,
  retryAfterSeconds,
  SLOWED_FROM_FAILURES,
  type SourceWrongPasswords,
  sourceOf,
  WRONG_PASSWORD_LIMIT,
  type WrongPasswords,
} from '#shared/auth/password-limit.ts';

const NOW = 1_700_000_000_000;
const WINDOW_ENDS = NOW + 60_000;
const username = (failures: number, windowEnds = WINDOW_ENDS): WrongPasswords => ({
  failures,
  windowEnds,
  expiresAt: Math.ceil(windowEnds / 1000),
});
const source = (failures: number, lastFailure = NOW - 1_000, windowEnds = WINDOW_ENDS): SourceWrongPasswords => ({
  ...username(failures, windowEnds),
  lastFailure,
});

describe('retryAfterSeconds', () => {
  it.each([
    ['no counter at all', undefined, undefined, undefined],
    ['the username below the limit, the source not read', username(WRONG_PASSWORD_LIMIT - 1), undefined, undefined],
    ['the username at the limit, this source without failures', username(WRONG_PASSWORD_LIMIT), undefined, undefined],
    ['this source one failure short of the limit', username(WRONG_PASSWORD_LIMIT), source(WRONG_PASSWORD_LIMIT - 1), undefined],
    ['this source at the limit, 60 s left', username(WRONG_PASSWORD_LIMIT), source(WRONG_PASSWORD_LIMIT), 60],
    [
      'this source past the limit, 1.2 s left (rounded up)',
      username(WRONG_PASSWORD_LIMIT + 3, NOW + 1_200),
      source(WRONG_PASSWORD_LIMIT + 3, NOW - 1_000, NOW + 1_200),
      2,
    ],
    [
      'at the limit, the window ending now',
      username(WRONG_PASSWORD_LIMIT, NOW),
      source(WRONG_PASSWORD_LIMIT, NOW - 1, NOW),
      undefined,
    ],
    [
      'at the limit, the window ended (its items not yet expired)',
      username(WRONG_PASSWORD_LIMIT, NOW - 1),
      source(WRONG_PASSWORD_LIMIT, NOW - 2, NOW - 1),
      undefined,
    ],
    [
      "this source's counter of an earlier window of the username",
      username(WRONG_PASSWORD_LIMIT),
      source(WRONG_PASSWORD_LIMIT, NOW - 1_000, WINDOW_ENDS - 1),
      undefined,
    ],
  ])('%s', (_, stored, fromSource, expected) => {
    // Act
    const wait = retryAfterSeconds({ wrongPasswords: stored, fromSource }, NOW);

    // Assess
    expect(wait).toBe(expected);
  });

  it.each([
    ['slowed: a source that failed 1 s ago waits the rest of its pause', SLOWED_FROM_FAILURES, 1, NOW - 1_000, 9],
    ['slowed: its pause has passed', SLOWED_FROM_FAILURES, 1, NOW - FIRST_PAUSE_MS, undefined],
    ['slowed more: the pause has doubled', SLOWED_FROM_FAILURES + WRONG_PASSWORD_LIMIT, 2, NOW - 1_000, 19],
    ['just below the slowing: no pause', SLOWED_FROM_FAILURES - 1, 4, NOW, undefined],
  ])('%s', (_, usernameFailures, sourceFailures, lastFailure, expected) => {
    // Prepare
    const stored = username(usernameFailures, NOW + 15 * 60_000);

    // Act
    const wait = retryAfterSeconds(
      { wrongPasswords: stored, fromSource: source(sourceFailures, lastFailure, stored.windowEnds) },
      NOW,
    );

    // Assess
    expect(wait).toBe(expected);
  });

  it("a pause never reaches past the username's window", () => {
    // Prepare: slowed to the longest pause, 10 s of the window left.
    const stored = username(1_000, NOW + 10_000);

    // Act
    const wait = retryAfterSeconds({ wrongPasswords: stored, fromSource: source(1, NOW, stored.windowEnds) }, NOW);

    // Assess
    expect(wait).toBe(10);
  });
});

describe('pauseAfterFailure', () => {
  it("grows with the username's failures from all sources, and stops growing at its cap", () => {
    // Act
    const pauses = [0, SLOWED_FROM_FAILURES - 1, SLOWED_FROM_FAILURES, 14, 15, 20, 25, 30, 35, 100, 1e9].map(pauseAfterFailure);

    // Assess
    expect(pauses).toEqual([0, 0, 10_000, 10_000, 20_000, 40_000, 80_000, 160_000, MAX_PAUSE_MS, MAX_PAUSE_MS, MAX_PAUSE_MS]);
  });
});

describe('sourceOf', () => {
  it.each([
    ['an IPv4 address', '203.0.113.7', '203.0.113.7'],
    ['an IPv4-mapped IPv6 address, as its IPv4 address', '::ffff:203.0.113.7', '203.0.113.7'],
    ['an IPv6 address, as its /64', '2001:db8:85a3:1:8a2e:370:7334:1', '2001:db8:85a3:1::/64'],
    ['another address of the same /64, alike', '2001:0db8:85a3:0001::9', '2001:db8:85a3:1::/64'],
    ['a compressed IPv6 address', '2001:db8::1', '2001:db8:0:0::/64'],
    ['the IPv6 loopback', '::1', '0:0:0:0::/64'],
    ['an IPv6 address with a zone', 'fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['an IPv6 address ending in IPv4 form', '64:ff9b::198.51.100.1', '64:ff9b:0:0::/64'],
    ['no address', undefined, 'unknown'],
    ['not an address', 'localhost', 'unknown'],
  ])('%s', (_, sourceIp, expected) => {
    // Act
    const source = sourceOf(sourceIp);

    // Assess
    expect(source).toBe(expected);
  });
});

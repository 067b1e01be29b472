/**
 * The Init budget (scripts/bench/budget.ts): every function's bundle, built in memory the project's way,
 * loads at Init no more than its committed budget + 10 %. Sizes only: they do not depend on the machine.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { HEADROOM, initBytes, readBudget, type Budget } from '../../scripts/bench/budget.ts';
import { functionNames } from '../../scripts/build.ts';

let measured: Budget;
const budget = readBudget();

beforeAll(async () => {
  // Act
  measured = await initBytes();
}, 60_000);

describe('the Init budget (scripts/bench/budget.json)', () => {
  it('has a budget for every function and for nothing else', () => {
    // Assess
    expect(Object.keys(budget).sort()).toEqual(functionNames());
  });

  it.each(functionNames())('%s loads at most its budget + 10 % at Init', (name) => {
    // Prepare
    const limit = Math.floor((budget[name] ?? 0) * HEADROOM);

    // Assess
    expect(
      measured[name],
      `${name} loads ${measured[name]} B at Init, over ${limit} B: find the new static import (a lazy import() ` +
        'keeps a dependency out of Init), or run `npm run budget` and commit scripts/bench/budget.json if the growth is meant',
    ).toBeLessThanOrEqual(limit);
  });
});

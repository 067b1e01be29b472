/**
 * The Init budget: per function, the bytes its bundle loads at Init (the entry and its static imports; lazy
 * chunks apart), committed in scripts/bench/budget.json. tests/unit/bundle-budget.test.ts fails when a
 * function loads more than HEADROOM times its budget, so a heavy import never slips in unnoticed.
 * `npm run budget` writes the file from the current sources: run it when a growth is intended, and commit it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { compile, functionDir, functionNames } from '../build.ts';

export const HEADROOM = 1.1;

const BUDGET_FILE = new URL('./budget.json', import.meta.url);

export type Budget = Record<string, number>;

export const readBudget = (): Budget => JSON.parse(readFileSync(BUDGET_FILE, 'utf8')) as Budget;

/** Each function's Init bytes, built in memory the project's way. */
export async function initBytes(): Promise<Budget> {
  const sizes = functionNames().map(
    async (name) => [name, (await compile(`functions/${name}/handler.ts`, functionDir(name))).initBytes] as const,
  );
  return Object.fromEntries(await Promise.all(sizes));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const budget = await initBytes();
  writeFileSync(BUDGET_FILE, `${JSON.stringify(budget, null, 2)}\n`);
  for (const [name, bytes] of Object.entries(budget)) console.log(`${name}: ${(bytes / 1024).toFixed(1)} KiB at Init`);
  console.log(`Wrote ${BUDGET_FILE.pathname}.`);
}

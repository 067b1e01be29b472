/**
 * The typed client's fiscal answers (client/src/generated, from docs/openapi): typed field by field, not `unknown`.
 * `tsc` (npm run check) compiles this file, so a report, receipt or journal entry typed `unknown` again fails it.
 */
import { describe, expect, it } from 'vitest';
import type { components } from '../../client/src/generated/v33.ts';

type Schemas = components['schemas'];

describe('the typed client', () => {
  it('types the Z report, the receipt and the e-journal entry by their schemas', () => {
    const netTakings = (report: Schemas['report']): number => report.netSales.brutto - report.cash.withdrawals;
    const vatRates = (receipt: Schemas['receipt']): number[] => receipt.vatPerRate.map(({ vatRate }) => vatRate / 100);
    // An entry narrows by its type: a print's data holds its receipt, an article event the register's fields.
    const printed = (entry: Schemas['journalEntry']): number | undefined => {
      if (entry.type === 'PRINT') return entry.data.receipt?.total;
      if (entry.type === 'ARTICLE_REGISTERED') return entry.data.data.price;
      return entry.amount ?? undefined;
    };
    const closedWith = (day: Schemas['dayView']): number | null | undefined => day.cashAtClose;
    expect([netTakings, vatRates, printed, closedWith].every((typed) => typeof typed === 'function')).toBe(true);
  });
});

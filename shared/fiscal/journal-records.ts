/**
 * What the journal memory keeps of a receipt and of a Z report (docs/conventions.md §19): SKVFS 2014:9 asks the
 * journal to hold the receipts' and reports' contents, and the auditor's export (SKVFS 2021:16, `skvfs-export.ts`)
 * is made from the journal alone. A print's entry freezes its receipt, a day's closing entry its Z report and the
 * register's identity, so the hash chain and the signed head cover them and an export made offline from a fetched
 * journal says what the one the service makes says.
 */
import { countsAsPaid } from './arithmetic.ts';
import type { ExportContext } from './export-context.ts';
import type { JsonValue } from './journal.ts';
import type { PaymentType, Print, Sale } from './model.ts';
import { receiptLine, type ReceiptLine } from './receipt.ts';
import type { Report } from './report.ts';

/** What a print's or a closing's entry holds in its `data`. */
export type JournalRecordData = { receipt: JournalReceipt } | JournalDayClosed;

/**
 * A record as an entry's `data`. The records are plain JSON (numbers, strings, booleans, null, arrays, objects), which
 * their interfaces cannot tell the compiler; the hash covers what JSON keeps of them.
 */
export const journalData = (record: JournalRecordData): JsonValue => record as unknown as JsonValue;

/** A receipt line (`receiptLine`) with what the export adds: the article number, its VAT and when it was registered. */
export interface JournalReceiptLine extends ReceiptLine {
  /** The register's product identifier. */
  articleNumber: string;
  vat: number;
  /** When the register registered the line (its `created`), or null. */
  registered: number | null;
}

/** A print's receipt as the journal keeps it. Money is integer hundredths, positive; `refund` gives the direction. */
export interface JournalReceipt {
  /** When this print was made. */
  printed: number;
  /** A copy: when the receipt it copies was printed, and that receipt's control code. */
  original: { printed: number | null; controlCode: string | null } | null;
  training: boolean;
  refund: boolean;
  /** A refund: the receipt number it refunds. */
  refundFor: number | null;
  /** The control unit that signed it (the activation's), or null. */
  controlUnitSerial: string | null;
  treasurer: string | null;
  lines: JournalReceiptLine[];
  /** Everything discounted on the receipt (lines and the sale). */
  discount: number;
  total: number;
  vat: number;
  vatPerRate: { vatRate: number; netto: number; vat: number; brutto: number }[];
  payments: { paymentType: PaymentType; amount: number }[];
}

/** The receipt `print` of `sale` makes, signed (or not) by the unit `controlUnitSerial`. */
export function journalReceipt(sale: Sale, print: Print, controlUnitSerial: string | null): JournalReceipt {
  const normal = sale.prints.find((candidate) => candidate.printType === 'Normal');
  const saleTime = sale.close ?? sale.recorded ?? null;
  return {
    printed: print.created ?? saleTime ?? 0,
    original:
      print.printType === 'Copy' ? { printed: normal?.created ?? null, controlCode: normal?.controlNumber ?? null } : null,
    training: sale.training === true,
    refund: sale.refund,
    refundFor: sale.refundFor ?? null,
    controlUnitSerial,
    treasurer: sale.treasurer ?? null,
    lines: sale.saleProducts.map((line) => ({
      ...receiptLine(line),
      articleNumber: line.productIdentifier,
      vat: line.vat,
      registered: line.created ?? saleTime,
    })),
    discount: sale.discount,
    total: sale.brutto,
    vat: sale.vat,
    vatPerRate: [...sale.vatRateSums]
      .sort((a, b) => a.vatRate - b.vatRate)
      .map(({ vatRate, netto, vat, brutto }) => ({ vatRate, netto, vat, brutto })),
    payments: sale.payments.filter(countsAsPaid).map(({ paymentType, amount }) => ({ paymentType, amount })),
  };
}

/** A closed day as the journal keeps it: its grand totals, its Z report, and who and what the register was. */
export interface JournalDayClosed {
  grandTotal: number;
  grandTotalRefund: number;
  report: Report;
  context: ExportContext;
}

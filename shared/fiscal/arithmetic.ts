/**
 * The arithmetic a sale must satisfy before it is stored, so that every Z report adds up. Pure:
 * the ledger calls it in the transaction of each sale write and answers a problem with
 * `409 InconsistentData SALE_TOTALS_INCONSISTENT` carrying `details.relation`.
 */
import type { Payment, Sale } from './model.ts';

/** A relation of the sale arithmetic that a sale breaks: `relation` names it (with the item's index), `message` gives the figures. */
export interface SaleTotalsProblem {
  relation: string;
  message: string;
}

/** Payments that count: a register that does not track payment states sends none, so null/absent counts. */
export const countsAsPaid = (payment: Payment): boolean => payment.paymentState == null || payment.paymentState === 'APPROVED';

/** A sale counts as sold once Paid (and stays so when Complete); Open and Cancelled ones do not. */
export const countsAsSold = (sale: Pick<Sale, 'saleState'>): boolean =>
  sale.saleState === 'Paid' || sale.saleState === 'Complete';

const sum = (values: readonly number[]): number => values.reduce((total, value) => total + value, 0);

/**
 * The first relation the sale breaks, in this order: brutto = sum of the VAT rates' brutto, vat = sum of their vat, each
 * rate's netto + vat = brutto, and once Paid or Complete the counting payments sum to brutto. Undefined when all hold.
 */
export function saleTotalsProblem(sale: Sale): SaleTotalsProblem | undefined {
  const brutto = sum(sale.vatRateSums.map((rate) => rate.brutto));
  if (sale.brutto !== brutto) {
    return {
      relation: 'brutto = sum(vatRateSums[].brutto)',
      message: `The sale's brutto ${sale.brutto} differs from the sum of its VAT rates' brutto ${brutto}.`,
    };
  }
  const vat = sum(sale.vatRateSums.map((rate) => rate.vat));
  if (sale.vat !== vat) {
    return {
      relation: 'vat = sum(vatRateSums[].vat)',
      message: `The sale's vat ${sale.vat} differs from the sum of its VAT rates' vat ${vat}.`,
    };
  }
  for (const [index, rate] of sale.vatRateSums.entries()) {
    if (rate.netto + rate.vat !== rate.brutto) {
      const item = `vatRateSums[${index}]`;
      return {
        relation: `${item}.netto + ${item}.vat = ${item}.brutto`,
        message: `At VAT rate ${rate.vatRate}, netto ${rate.netto} + vat ${rate.vat} differs from brutto ${rate.brutto}.`,
      };
    }
  }
  if (countsAsSold(sale)) {
    const paid = sum(sale.payments.filter(countsAsPaid).map((payment) => payment.amount));
    if (paid !== sale.brutto) {
      return {
        relation: 'sum(payments[].amount) = brutto',
        message: `A ${sale.saleState} sale's payments (those without a state or APPROVED) sum to ${paid}, its brutto is ${sale.brutto}.`,
      };
    }
  }
  return undefined;
}

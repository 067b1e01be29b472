/**
 * The receipt as a document (docs/conventions.md §16): every item SKVFS 2014:9, 7 kap. 1 § asks of a kassakvitto,
 * built from the stored sale, the print and the seller's and register's context, without reading anything. Money is
 * integer hundredths and positive (`refund` gives the direction, as on the sale); `vatRate`s are hundredths of a
 * percent (2500 = 25 %) throughout; times are milliseconds since the epoch, with the seller's wall clock beside.
 *
 * | 7 kap. 1 § | Field |
 * |---|---|
 * | a företagets namn och organisationsnummer | `seller.name`, `seller.corporateId` |
 * | b den adress där försäljning sker | `seller.address`, `seller.zip`, `seller.city` |
 * | c datum och klockslag för försäljningen | `saleTime`, `saleTimeLocal` (`timeZone`) |
 * | d löpnummer | `receiptNumber` |
 * | e kassabeteckning | `register.cashRegisterName` (and `register.productionNumber`) |
 * | f, g artikelnamn / benämning på tjänster, antal | `lines[].name`, `quantity`, `salesUnit`, `articleType` |
 * | h försäljningsbelopp per slag och totalt | `lines[].amount`, `lines[].discount`, `discount`, `total` |
 * | i mervärdesskatt | `vat` |
 * | j mervärdesskattens fördelning på skattesatser | `vatPerRate[]` (`vatRate`, `netto`, `vat`, `brutto`) |
 * | k betalningsmedel | `payments[]` |
 * | l kontrollenhetens tillverkningsnummer | `register.controlUnitSerial` (and the print's `controlNumber`) |
 * | 5 kap. 5 § markings | `markings`: `KOPIA`, `ÖVNINGSKVITTO`, `EJ KVITTO` |
 */
import type { ApiVersion } from '#shared/versions.ts';
import { countsAsPaid } from './arithmetic.ts';
import type { FiscalContext } from './context.ts';
import { wallClock } from './dates.ts';
import type { ArticleType, Print, Sale, SaleProduct, SalesUnit } from './model.ts';
import { paymentTypeIn, type PaymentTypeName } from './payment-types.ts';

/** The words 5 kap. 5 § asks a copy, a training receipt and a pro forma receipt to be marked with. */
export const MARKINGS = { copy: 'KOPIA', training: 'ÖVNINGSKVITTO', proforma: 'EJ KVITTO' } as const;
export type Marking = (typeof MARKINGS)[keyof typeof MARKINGS];

export type ReceiptHeading = 'KASSAKVITTO' | 'RETURKVITTO' | 'ÖVNINGSKVITTO' | 'PRO FORMA';

const headingOf = (sale: Pick<Sale, 'training' | 'refund'>, print: Pick<Print, 'printType'>): ReceiptHeading =>
  print.printType === 'Proforma'
    ? 'PRO FORMA'
    : sale.training === true
      ? 'ÖVNINGSKVITTO'
      : sale.refund
        ? 'RETURKVITTO'
        : 'KASSAKVITTO';

export interface ReceiptLine {
  /** The line's frozen name; the product identifier on lines stored before names were kept. */
  name: string;
  /** Units, or the weight, length or time in `salesUnit`. */
  quantity: number;
  salesUnit: SalesUnit | null;
  /** Brutto per unit before discounts, or null when the line does not say. */
  unitPrice: number | null;
  /** The line's brutto (after its own discount). */
  amount: number;
  discount: number;
  vatRate: number | null;
  articleType: ArticleType;
  group: string | null;
}

/** The receipt's own items (`receiptView` adds the sale's view). */
export interface ReceiptDocument {
  sellerId: string;
  cashRegisterName: string;
  receiptNumber: number | null;
  printType: Print['printType'];
  controlNumber: string | null;
  created: number | null;
  /**
   * What the print is: `PRO FORMA` (2 kap. 16 §), `ÖVNINGSKVITTO` (2 kap. 26 §), `RETURKVITTO` for a refund (7 kap. 1 §,
   * third paragraph), else `KASSAKVITTO`.
   */
  heading: ReceiptHeading;
  markings: Marking[];
  training: boolean;
  refund: boolean;
  refundFor: number | null;
  seller: Omit<FiscalContext['seller'], 'country' | 'currency'>;
  register: FiscalContext['register'];
  saleTime: number | null;
  /** `yyyy-MM-dd HH:mm:ss` in `timeZone`. */
  saleTimeLocal: string | null;
  timeZone: string;
  treasurer: string | null;
  lines: ReceiptLine[];
  /** The sale's `discount` (vanilla brutto less brutto), as the Z report counts it. */
  discount: number;
  total: number;
  vat: number;
  vatPerRate: { vatRate: number; netto: number; vat: number; brutto: number }[];
  payments: { paymentType: PaymentTypeName; amount: number }[];
  currency: string | null;
  /** The digital receipt (`GET /v{N}/noauth/receipts/{token}`), relative to the API's base URL; null for a pro forma. */
  receiptUrl: string | null;
}

/** The digital receipt's path for a token, relative to the API's base URL (docs/conventions.md §16). */
export const receiptPath = (version: ApiVersion, token: string): string => `/v${version}/noauth/receipts/${token}`;

/**
 * The digital receipt of a print of the sale: the Normal print's link, which its copies show too; none for a pro forma
 * or a receipt printed before links were made.
 */
export function receiptUrlOf(sale: Pick<Sale, 'prints'>, print: Pick<Print, 'printType'>, version: ApiVersion): string | null {
  if (print.printType === 'Proforma') return null;
  const token = sale.prints.find((candidate) => candidate.printType === 'Normal')?.receiptToken;
  return token ? receiptPath(version, token) : null;
}

/** `yyyy-MM-dd HH:mm:ss` of an instant in a time zone. */
export function localDateTime(instant: number, timeZone: string): string {
  const { year, month, day, hour, minute, second } = wallClock(instant, timeZone);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${year}-${two(month)}-${two(day)} ${two(hour)}:${two(minute)}:${two(second)}`;
}

/** A line's VAT rate in hundredths of a percent: as sent (whole percent), else from its VAT and netto. */
function lineVatRate(line: SaleProduct): number | null {
  if (line.vatRate != null) return Math.round(line.vatRate * 100);
  if (line.netto === 0) return null;
  return Math.round((line.vat * 10000) / line.netto);
}

export function receiptLine(line: SaleProduct): ReceiptLine {
  return {
    name: line.name ?? line.productIdentifier,
    quantity: line.quantity ?? (line.deltaUnit ? line.delta : 1),
    salesUnit: line.salesUnit ?? (line.deltaUnit ? 'Piece' : null),
    unitPrice: line.unitPrice ?? line.productBrutto ?? null,
    amount: line.brutto,
    discount: line.discount,
    vatRate: lineVatRate(line),
    articleType: line.articleType ?? 'GOODS',
    group: line.group ?? null,
  };
}

/** The markings a print of the sale carries (5 kap. 5 §). */
export function markingsOf(sale: Pick<Sale, 'training'>, print: Pick<Print, 'printType'>): Marking[] {
  return [
    ...(print.printType === 'Copy' ? [MARKINGS.copy] : []),
    ...(sale.training === true ? [MARKINGS.training] : []),
    ...(print.printType === 'Proforma' ? [MARKINGS.proforma] : []),
  ];
}

/**
 * The receipt of `print` of `sale`. `receiptUrl` is the digital receipt's path (`receiptPath`) or null; a copy shows
 * its Normal's.
 */
export function buildReceipt(
  context: FiscalContext,
  sale: Sale,
  print: Print,
  version: ApiVersion,
  receiptUrl: string | null,
): ReceiptDocument {
  const saleTime = sale.close ?? print.created ?? sale.recorded ?? null;
  const { country: _country, currency, ...seller } = context.seller;
  return {
    sellerId: context.sellerId,
    cashRegisterName: context.register.cashRegisterName,
    receiptNumber: print.receiptNumber,
    printType: print.printType,
    controlNumber: print.controlNumber ?? null,
    created: print.created ?? null,
    heading: headingOf(sale, print),
    markings: markingsOf(sale, print),
    training: sale.training === true,
    refund: sale.refund,
    refundFor: sale.refundFor ?? null,
    seller,
    register: { ...context.register },
    saleTime,
    saleTimeLocal: saleTime === null ? null : localDateTime(saleTime, context.timeZone),
    timeZone: context.timeZone,
    treasurer: sale.treasurer ?? null,
    lines: sale.saleProducts.map(receiptLine),
    discount: sale.discount,
    total: sale.brutto,
    vat: sale.vat,
    vatPerRate: [...sale.vatRateSums]
      .sort((a, b) => a.vatRate - b.vatRate)
      .map(({ vatRate, netto, vat, brutto }) => ({ vatRate, netto, vat, brutto })),
    payments: sale.payments
      .filter(countsAsPaid)
      .map((payment) => ({ paymentType: paymentTypeIn(payment.paymentType, version), amount: payment.amount })),
    currency,
    receiptUrl,
  };
}

/**
 * The X and Z report (`report.ts`) as text for an 80 mm printer and as an HTML page (docs/conventions.md §17), in the
 * words of SKVFS 2014:9, 7 kap. 2 § (X) and 3 § (Z). Both renderings lay out one list of sections of label -> value
 * rows (`reportSections`): a new item of the report is one more row there.
 */
import { localDateTime } from './receipt.ts';
import {
  centred,
  clean,
  corporateIdText,
  dateText,
  escapeHtml,
  htmlPage,
  money,
  paymentLabel,
  rule,
  twoColumns,
  vatRateText,
} from './render.ts';
import type { Report } from './report.ts';

export interface ReportRow {
  label: string;
  value: string;
}

export interface ReportSection {
  /** The section's heading; null for the report's head. */
  title: string | null;
  rows: ReportRow[];
}

export interface ReportRendering {
  /** The seller's currency, shown after every amount; null: none. */
  currency: string | null;
  /** The seller's time zone: the report's times in its wall clock. */
  timeZone: string;
}

/** The report's items, section by section, each labelled as the regulation names it. */
export function reportSections(report: Report, { currency, timeZone }: ReportRendering): ReportSection[] {
  const amount = (hundredths: number) => money(hundredths, currency);
  const counted = (count: number, hundredths: number) => `${count} st, ${amount(hundredths)}`;
  const time = (instant: number | null) => (instant === null ? '-' : localDateTime(instant, timeZone));
  const r = (label: string, value: string | number): ReportRow => ({ label, value: String(value) });
  return [
    {
      title: null,
      rows: [
        r('Företag', report.seller.name ?? '-'),
        r('Organisationsnummer', corporateIdText(report.seller.corporateId)),
        ...(report.seller.address ? [r('Adress', report.seller.address)] : []),
        r('Rapporten framtagen', time(report.produced)),
        ...(report.reportNumber === null ? [] : [r('Löpnummer', report.reportNumber)]),
        r('Kassabeteckning', report.register.cashRegisterName),
        ...(report.register.productionNumber ? [r('Tillverkningsnummer', report.register.productionNumber)] : []),
        ...(report.register.controlUnitSerial ? [r('Kontrollenhet', report.register.controlUnitSerial)] : []),
        r('Dag nr', report.dayNumber),
        r('Datum', dateText(report.date)),
        r('Dagen öppnad', time(report.open)),
        r('Dagen stängd', time(report.close)),
      ],
    },
    {
      title: 'Försäljning',
      rows: [
        r('Total försäljningssumma', amount(report.sales.brutto)),
        r('varav moms', amount(report.sales.vat)),
        r('Försäljning netto efter returer', amount(report.netSales.brutto)),
        r('Antal sålda varor (st)', report.goods.pieces),
        r('Antal sålda varor, övriga enheter', report.goods.otherUnits),
        r('Antal sålda tjänster (st)', report.services.pieces),
        r('Antal sålda tjänster, övriga enheter', report.services.otherUnits),
        r('Antal kassakvitton', report.receipts),
        r('Antal lådöppningar', report.drawerOpeningsWithoutSale),
        r('Lådöppningar, försäljning medräknad', report.drawerOpenings),
        r('Antal kvittokopior och belopp', counted(report.copies.count, report.copies.brutto)),
        r('Antal registreringar i övningsläge och belopp', counted(report.training.count, report.training.brutto)),
        r('Antal pro forma-kvitton och belopp', counted(report.proforma.count, report.proforma.brutto)),
        r('Antal returer och belopp', counted(report.refunds.count, report.refunds.brutto)),
        r('Rabatter', amount(report.discounts)),
        r(
          'Övriga registreringar som minskat dagens försäljningsbelopp',
          counted(report.otherReductions.count, report.otherReductions.brutto),
        ),
        r('Antal oavslutade försäljningar och belopp', counted(report.unfinished.count, report.unfinished.brutto)),
        ...(report.unprinted === 0 ? [] : [r('Försäljningar utan kassakvitto', report.unprinted)]),
      ],
    },
    {
      title: 'Försäljningssumma per huvudgrupp',
      rows: report.salesPerCategory.map((category) =>
        r(category.category ?? 'Utan huvudgrupp', counted(category.count, category.brutto)),
      ),
    },
    {
      title: 'Mervärdesskatt per skattesats',
      rows: report.vatPerRate.flatMap((rate) => [
        r(`Moms ${vatRateText(rate.vatRate)}`, amount(rate.vat)),
        r(`Underlag (netto) ${vatRateText(rate.vatRate)}`, amount(rate.netto)),
        r(`Brutto ${vatRateText(rate.vatRate)}`, amount(rate.brutto)),
      ]),
    },
    {
      title: 'Försäljningssumma per betalningsmedel',
      rows: report.paymentTypes.map((payment) => r(paymentLabel(payment.paymentType), counted(payment.count, payment.amount))),
    },
    {
      title: 'Växelkassa',
      rows: [
        r('Växelkassa (insättningar)', counted(report.cash.depositCount, report.cash.deposits)),
        r('Uttag', counted(report.cash.withdrawalCount, report.cash.withdrawals)),
        r('Kontantbetalningar', amount(report.cash.cashPayments)),
        r('Beräknad kassa', amount(report.cash.expected)),
      ],
    },
    {
      title: 'Grand total',
      rows: [
        r('Grand total försäljning', amount(report.grandTotals.sales)),
        r('Grand total retur', amount(report.grandTotals.refunds)),
        r('Grand total netto', amount(report.grandTotals.net)),
      ],
    },
  ].filter((section) => section.rows.length > 0);
}

/** `Z-DAGRAPPORT` or `X-DAGRAPPORT`: the statement of what the report is (7 kap. 2 § c, 3 § d). */
export const reportTitle = (report: Pick<Report, 'type'>): string => `${report.type}-DAGRAPPORT`;

/** The report for an 80 mm printer: 42 columns, labels left, values right. */
export function reportText(report: Report, rendering: ReportRendering): string {
  const out: string[] = [rule('='), ...centred(reportTitle(report)), rule('=')];
  for (const section of reportSections(report, rendering)) {
    if (section.title !== null) out.push('', ...centred(section.title), rule());
    for (const { label, value } of section.rows) out.push(...twoColumns(label, value));
  }
  out.push('', rule('='), ...centred(`SLUT ${reportTitle(report)}`), rule('='));
  return `${out.join('\n')}\n`;
}

/** The report as an HTML page. */
export function reportHtml(report: Report, rendering: ReportRendering): string {
  const sections = reportSections(report, rendering).map(
    (section) =>
      (section.title === null ? '' : `<h2>${escapeHtml(section.title)}</h2>`) +
      `<table>${section.rows
        .map(({ label, value }) => `<tr><td>${escapeHtml(clean(label))}</td><td class="n">${escapeHtml(value)}</td></tr>`)
        .join('')}</table>`,
  );
  const title = `${reportTitle(report)} ${report.reportNumber ?? ''} ${report.register.cashRegisterName}`;
  return htmlPage(escapeHtml(clean(title)), [`<h1>${escapeHtml(reportTitle(report))}</h1>`, ...sections].join('\n'));
}

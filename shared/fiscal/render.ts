/**
 * Receipts and reports as people read them (docs/conventions.md §16, §17): text for an 80 mm receipt printer (42
 * columns of UTF-8, never a wider line) and a small self-contained HTML page (inline CSS, no script, no external
 * resource, every text escaped) readable on a phone. Pure functions of the JSON documents (`receipt.ts`, `report.ts`);
 * amounts in Swedish notation with the currency (`1 234,50 SEK`).
 */
import type { ReceiptDocument, ReceiptLine } from './receipt.ts';

/** Columns of an 80 mm printer's line in its normal font. */
export const WIDTH = 42;

const codePoints = (text: string): string[] => [...text];
/** Length in code points, as a printer counts characters. */
export const columnsOf = (text: string): number => codePoints(text).length;

/** One line of text: control characters and line breaks become spaces, runs of spaces one. */
export const clean = (text: string): string =>
  text
    .replace(/[\p{Cc}\p{Zl}\p{Zp}]/gu, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();

/** Text wrapped at spaces into lines of at most `width` code points; a word longer than a line is cut into pieces. */
export function wrap(text: string, width = WIDTH): string[] {
  const lines: string[] = [];
  let current: string[] = [];
  for (const word of clean(text).split(' ').filter(Boolean)) {
    let chars = codePoints(word);
    if (current.length > 0 && current.length + 1 + chars.length <= width) {
      current.push(' ', ...chars);
      continue;
    }
    if (current.length > 0) lines.push(current.join(''));
    while (chars.length > width) {
      lines.push(chars.slice(0, width).join(''));
      chars = chars.slice(width);
    }
    current = chars;
  }
  if (current.length > 0 || lines.length === 0) lines.push(current.join(''));
  return lines;
}

/** Phrases joined by `, ` on lines of at most `width`, broken between phrases where they can be (a long one wraps). */
export function wrapPhrases(phrases: readonly string[], width = WIDTH): string[] {
  const lines: string[] = [];
  let current = '';
  for (const phrase of phrases.map(clean).filter(Boolean)) {
    const joined = current === '' ? phrase : `${current}, ${phrase}`;
    if (columnsOf(joined) <= width) {
      current = joined;
      continue;
    }
    if (current !== '') lines.push(`${current},`);
    const pieces = wrap(phrase, width);
    current = pieces.pop() ?? '';
    lines.push(...pieces);
  }
  if (current !== '') lines.push(current);
  return lines;
}

/** `left` and `right` on one line, `right` flush right; a long `left` wraps and `right` goes on its last line or its own. */
export function twoColumns(left: string, right: string, width = WIDTH): string[] {
  const value = wrap(right, width)[0] ?? '';
  const valueWidth = columnsOf(value);
  const labels = wrap(left, width);
  const last = labels.pop() ?? '';
  const room = width - valueWidth - 1;
  if (columnsOf(last) <= room) return [...labels, last + ' '.repeat(width - columnsOf(last) - valueWidth) + value];
  return [...labels, last, ' '.repeat(width - valueWidth) + value];
}

/** Text centred on lines of `width`. */
export const centred = (text: string, width = WIDTH): string[] =>
  wrap(text, width).map((line) => ' '.repeat(Math.floor((width - columnsOf(line)) / 2)) + line);

/** Columns laid out right-aligned in the given widths (each cell cut to its width). */
export const table = (cells: readonly string[], widths: readonly number[]): string =>
  cells
    .map((cell, index) =>
      codePoints(cell)
        .slice(0, widths[index])
        .join('')
        .padStart(widths[index] ?? 0),
    )
    .join('');

export const rule = (char = '-', width = WIDTH): string => char.repeat(width);

/** Hundredths as Swedish notation: `-1 234,50`, with ` SEK` when a currency is given. */
export function money(hundredths: number, currency: string | null = null): string {
  const sign = hundredths < 0 ? '-' : '';
  const absolute = Math.abs(Math.round(hundredths));
  const whole = String(Math.floor(absolute / 100)).replace(/\B(?=(\d{3})+$)/g, ' ');
  const text = `${sign}${whole},${String(absolute % 100).padStart(2, '0')}`;
  return currency ? `${text} ${currency}` : text;
}

/** A decimal number with a decimal comma and at most `digits` decimals: `0,512`, `2`. */
export const decimal = (value: number, digits = 3): string =>
  String(Math.round(value * 10 ** digits) / 10 ** digits).replace('.', ',');

/** A VAT rate in hundredths of a percent: `25 %`, `12,5 %`. */
export const vatRateText = (rate: number): string => `${decimal(rate / 100, 2)} %`;

/** A 10-digit Swedish organisation or personal number with its hyphen (`556036-0793`); any other as it is. */
export const corporateIdText = (id: string): string => (/^\d{10}$/.test(id) ? `${id.slice(0, 6)}-${id.slice(6)}` : id);

/** A `yyyymmdd` business date as `yyyy-mm-dd`. */
export const dateText = (date: number): string => {
  const digits = String(date).padStart(8, '0');
  return `${digits.slice(0, 4)}-${digits.slice(4, 6)}-${digits.slice(6, 8)}`;
};

/** The symbol of a sales unit (`kg`), as receipts and the auditor's export write it. */
export const UNITS: Readonly<Record<string, string>> = {
  Piece: 'st',
  Kilogram: 'kg',
  Hektogram: 'hg',
  Meters: 'm',
  Centimeters: 'cm',
  Hours: 'h',
  Minutes: 'min',
};

/** Payment types in Swedish, whichever version's name the receipt carries; others by their name. */
const PAYMENT_LABELS: Readonly<Record<string, string>> = {
  Cash: 'Kontant',
  Card: 'Kort',
  EmvStandalone: 'Kort',
  EmvIntegrated: 'Kort (integrerad)',
  ProviderD: 'Kort (integrerad)',
};
export const paymentLabel = (type: string): string => PAYMENT_LABELS[type] ?? type;

// ---------------------------------------------------------------------------------------------------------------
// HTML

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Text as HTML: the five characters that could end a text or an attribute are escaped. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);

const STYLE = [
  'body{margin:0;background:#f2f2f2;color:#111;font:16px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}',
  'main{max-width:26rem;margin:0 auto;padding:1rem;background:#fff}',
  'h1{font-size:1.3rem;text-align:center;margin:.5rem 0}',
  'h2{font-size:1rem;margin:1rem 0 .3rem;border-bottom:1px solid #999}',
  'p{margin:.1rem 0}',
  '.centre{text-align:center}',
  '.marking{font-size:2.2rem;font-weight:700;text-align:center;letter-spacing:.1em;border:3px solid #111;margin:.5rem 0}',
  'table{width:100%;border-collapse:collapse;margin:.3rem 0}',
  'th,td{padding:.15rem 0;vertical-align:top;text-align:left;font-weight:400}',
  'td.n,th.n{text-align:right;white-space:nowrap;padding-left:.5rem}',
  'tr.total td{font-weight:700;border-top:1px solid #111}',
  '.detail{font-size:.85rem;color:#444}',
  '.code{font-family:ui-monospace,monospace;word-break:break-all;font-size:.85rem}',
].join('');

/** A complete page: inline CSS, nothing to fetch, nothing to run. `title` and `body` are escaped already. */
export const htmlPage = (title: string, body: string): string =>
  '<!DOCTYPE html>\n<html lang="sv"><head><meta charset="utf-8">' +
  '<meta name="viewport" content="width=device-width, initial-scale=1">' +
  `<title>${title}</title><style>${STYLE}</style></head>\n<body><main>\n${body}\n</main></body></html>\n`;

const row = (label: string, value: string, className = ''): string =>
  `<tr${className ? ` class="${className}"` : ''}><td>${escapeHtml(label)}</td><td class="n">${escapeHtml(value)}</td></tr>`;

// ---------------------------------------------------------------------------------------------------------------
// Receipts

/** What a line's detail line says: quantity and unit price, its discount, its VAT rate. */
function lineDetail(line: ReceiptLine, currency: string | null, sign: number): string[] {
  const unit = line.salesUnit === null ? undefined : UNITS[line.salesUnit];
  const parts: string[] = [];
  if (unit !== undefined && (line.quantity !== 1 || line.salesUnit !== 'Piece')) {
    parts.push(`${decimal(line.quantity)} ${unit}${line.unitPrice === null ? '' : ` à ${money(line.unitPrice, currency)}`}`);
  }
  if (line.discount !== 0) parts.push(`rabatt ${money(-sign * line.discount, currency)}`);
  if (line.vatRate !== null) parts.push(`moms ${vatRateText(line.vatRate)}`);
  if (line.articleType === 'SERVICE') parts.push('tjänst');
  return parts;
}

/** The receipt's sections as label/value pairs, shared by both renderings. */
function receiptFacts(receipt: ReceiptDocument): [string, string][] {
  return [
    ['Datum', receipt.saleTimeLocal ?? '-'],
    ['Kvitto nr', receipt.receiptNumber === null ? '-' : String(receipt.receiptNumber)],
    ...(receipt.refundFor === null ? [] : [['Retur av kvitto nr', String(receipt.refundFor)] as [string, string]]),
    ['Kassa', receipt.register.cashRegisterName],
    ...(receipt.register.productionNumber === null
      ? []
      : [['Tillverkningsnr', receipt.register.productionNumber] as [string, string]]),
    ...(receipt.treasurer ? [['Kassör', receipt.treasurer] as [string, string]] : []),
  ];
}

const sellerLines = (receipt: ReceiptDocument): string[] =>
  [
    receipt.seller.name ?? '',
    `Org.nr ${corporateIdText(receipt.seller.corporateId)}`,
    receipt.seller.address ?? '',
    [receipt.seller.zip, receipt.seller.city].filter(Boolean).join(' '),
  ].filter((line) => clean(line) !== '');

/** The receipt for an 80 mm printer: 42 columns, markings framed at the top and the bottom. */
export function receiptText(receipt: ReceiptDocument): string {
  const { currency } = receipt;
  const sign = receipt.refund ? -1 : 1;
  const markings =
    receipt.markings.length === 0 ? [] : [rule('='), ...receipt.markings.flatMap((m) => centred(`*** ${m} ***`)), rule('=')];
  const out: string[] = [...markings, ...centred(receipt.heading), ''];
  for (const line of sellerLines(receipt)) out.push(...centred(line));
  out.push('');
  for (const [label, value] of receiptFacts(receipt)) out.push(...twoColumns(label, value));
  out.push(rule());
  for (const line of receipt.lines) {
    out.push(...twoColumns(line.name, money(sign * line.amount, currency)));
    out.push(...wrapPhrases(lineDetail(line, currency, sign), WIDTH - 2).map((text) => `  ${text}`));
  }
  out.push(rule());
  out.push(...twoColumns(receipt.refund ? 'ATT ÅTERFÅ' : 'ATT BETALA', money(sign * receipt.total, currency)));
  out.push(...twoColumns('varav moms', money(sign * receipt.vat, currency)));
  if (receipt.discount !== 0) out.push(...twoColumns('Rabatt totalt', money(-sign * receipt.discount, currency)));
  if (receipt.vatPerRate.length > 0) {
    const widths = [9, 11, 11, 11];
    out.push('', table(['Moms', 'Netto', 'Moms', 'Brutto'], widths));
    for (const rate of receipt.vatPerRate) {
      out.push(table([vatRateText(rate.vatRate), ...[rate.netto, rate.vat, rate.brutto].map((n) => money(sign * n))], widths));
    }
    if (currency) out.push(`Belopp i ${currency}`.slice(0, WIDTH));
  }
  if (receipt.payments.length > 0) {
    out.push('', receipt.refund ? 'Återbetalt' : 'Betalt');
    for (const payment of receipt.payments) {
      out.push(...twoColumns(paymentLabel(payment.paymentType), money(sign * payment.amount, currency)));
    }
  }
  if (receipt.register.controlUnitSerial !== null || receipt.controlNumber !== null) {
    out.push('');
    if (receipt.register.controlUnitSerial !== null) out.push(...twoColumns('Kontrollenhet', receipt.register.controlUnitSerial));
    if (receipt.controlNumber !== null) out.push('Kontrollkod', ...wrap(receipt.controlNumber));
  }
  out.push('', ...markings);
  return `${out.join('\n')}\n`;
}

/** The receipt as a page a customer reads on a phone; an electronic receipt says so (7 kap. 1 § m). */
export function receiptHtml(receipt: ReceiptDocument, { electronic = true } = {}): string {
  const { currency } = receipt;
  const sign = receipt.refund ? -1 : 1;
  const markings = receipt.markings.map((m) => `<p class="marking">${escapeHtml(m)}</p>`).join('\n');
  const lines = receipt.lines
    .map((line) => {
      const detail = lineDetail(line, currency, sign).join(', ');
      return (
        `<tr><td>${escapeHtml(clean(line.name))}${detail ? `<br><span class="detail">${escapeHtml(detail)}</span>` : ''}</td>` +
        `<td class="n">${escapeHtml(money(sign * line.amount, currency))}</td></tr>`
      );
    })
    .join('\n');
  const totals = [
    row(receipt.refund ? 'Att återfå' : 'Att betala', money(sign * receipt.total, currency), 'total'),
    row('varav moms', money(sign * receipt.vat, currency)),
    ...(receipt.discount !== 0 ? [row('Rabatt totalt', money(-sign * receipt.discount, currency))] : []),
  ].join('');
  const vat = receipt.vatPerRate
    .map(
      (rate) =>
        `<tr><td>${escapeHtml(vatRateText(rate.vatRate))}</td>` +
        [rate.netto, rate.vat, rate.brutto].map((n) => `<td class="n">${escapeHtml(money(sign * n))}</td>`).join('') +
        '</tr>',
    )
    .join('');
  const payments = receipt.payments.map((p) => row(paymentLabel(p.paymentType), money(sign * p.amount, currency))).join('');
  const control = [
    ...(receipt.register.controlUnitSerial === null ? [] : [row('Kontrollenhet', receipt.register.controlUnitSerial)]),
    ...(receipt.controlNumber === null
      ? []
      : [`<tr><td colspan="2">Kontrollkod<br><span class="code">${escapeHtml(receipt.controlNumber)}</span></td></tr>`]),
  ].join('');
  const title = `${receipt.heading} ${receipt.receiptNumber ?? ''} ${receipt.seller.name ?? ''}`;
  const body = [
    markings,
    `<h1>${escapeHtml(receipt.heading)}</h1>`,
    electronic ? '<p class="centre">Elektroniskt kassakvitto</p>' : '',
    `<div class="centre">${sellerLines(receipt)
      .map((line, index) => `<p>${index === 0 ? `<strong>${escapeHtml(clean(line))}</strong>` : escapeHtml(clean(line))}</p>`)
      .join('')}</div>`,
    `<table>${receiptFacts(receipt)
      .map(([label, value]) => row(label, value))
      .join('')}</table>`,
    `<h2>Köpt</h2><table>${lines}</table>`,
    `<table>${totals}</table>`,
    vat === ''
      ? ''
      : `<h2>Moms${currency ? ` (${escapeHtml(currency)})` : ''}</h2><table><tr><th>Sats</th><th class="n">Netto</th>` +
        `<th class="n">Moms</th><th class="n">Brutto</th></tr>${vat}</table>`,
    payments === '' ? '' : `<h2>${receipt.refund ? 'Återbetalt' : 'Betalt'}</h2><table>${payments}</table>`,
    control === '' ? '' : `<h2>Kontrollenhet</h2><table>${control}</table>`,
    markings,
  ]
    .filter(Boolean)
    .join('\n');
  return htmlPage(escapeHtml(clean(title)), body);
}

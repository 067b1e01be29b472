/**
 * The fiscal answers (docs/conventions.md §14-§19, §25) as exact schemas, every property described with its unit: the
 * X and Z report (shared/fiscal/report.ts `Report`), the receipt (shared/fiscal/receipt.ts `ReceiptDocument` and the
 * sale's view), the e-journal's entries and the signed journal (shared/fiscal/journal.ts), days, sale overviews, the
 * cash balance and the Kd log. Exported through schemas/responses.ts; like them they are read by the OpenAPI documents
 * (and so the typed client and the contract tests), never by a function.
 *
 * Units throughout: money in hundredths of the seller's currency (öre for SEK: 4480 is 44,80 kr); instants in
 * milliseconds since the epoch (UTC); business dates the integer `yyyymmdd` in the seller's time zone
 * (Europe/Stockholm for a Swedish seller). VAT rates are in hundredths of a percent (1200 is 12 %) wherever a
 * description does not say otherwise.
 */
import { JOURNAL_TYPES, REGISTER_EVENT_TYPES } from '#shared/fiscal/journal.ts';
import {
  ARTICLE_TYPES,
  BALANCE_ACTIONS,
  KD_LOG_OUTCOMES,
  PAYMENT_TYPES,
  PRINT_TYPES,
  SALE_STATES,
  SALES_UNITS,
} from '#shared/fiscal/model.ts';
import { PAYMENT_TYPE_NAMES } from '#shared/fiscal/payment-types.ts';
import {
  d,
  exact,
  flag,
  instant,
  integer,
  list,
  nullableInstant,
  nullableInteger,
  nullableRef,
  nullableText,
  open,
  type Schema,
  text,
} from './describe.ts';
import { registerEventData } from './fiscal.ts';

const money = (what: string) => integer(`${what}, in hundredths of the currency`);
const nullableMoney = (what: string) => nullableInteger(`${what}, in hundredths of the currency`);
const businessDate = (what: string) =>
  integer(`${what}: the business date as the integer \`yyyymmdd\` (20261127) in the seller's time zone, not UTC`);
const vatRateHundredths = () =>
  integer('The VAT rate in hundredths of a percent: 1200 is 12 %, 2500 is 25 % (not whole percent as on a sale line).');
/** Every payment type name of every version (a report and a receipt name them as the reading version does). */
const PAYMENT_TYPE_NAME_LIST = [...new Set([...PAYMENT_TYPE_NAMES[15], ...PAYMENT_TYPE_NAMES[33]])];
const paymentTypeName = (what: string) =>
  d(
    `${what}, in the reading version's names (v15 and v26 say \`Card\` and \`ProviderD\` for v33's \`EmvStandalone\` and \`EmvIntegrated\`).`,
    {
      type: 'string',
      enum: PAYMENT_TYPE_NAME_LIST,
    },
  );

// ---------------------------------------------------------------------------------------------------------------
// The X and Z report (docs/conventions.md §17; docs/sweden.md maps each field onto 7 kap. 3 § and SKVFS 2021:16).

/** Sold sales (Paid or Complete; training receipts never): how many and their amounts, all positive. */
const saleSums = (what: string) =>
  exact(what, {
    count: integer('How many sales (each counts once, whatever its lines).'),
    brutto: money('Their total with VAT, positive'),
    vat: money('Their VAT, positive'),
    netto: money('Their total without VAT (`brutto - vat`), positive'),
  });

/** A count of sales or prints and their amount with VAT, positive. */
const counted = (what: string, count: string, brutto: string) => exact(what, { count: integer(count), brutto: money(brutto) });

const articleCount = (what: string) =>
  exact(what, {
    pieces: integer(
      'Units sold on unit lines (the sum of their `delta`), less those of refunds: refund lines count with a minus sign.',
    ),
    otherUnits: integer('Lines that sold a weight, length, time or amount rather than units, 1 each, less those of refunds.'),
  });

export const report = exact(
  "An X report (the open day as it stands; a reading, not journaled) or a Z report (the closed day, journaled at its close and printed once): what SKVFS 2014:9, 7 kap. 2-3 §§ ask of a daily report (docs/conventions.md §17, docs/sweden.md). Amounts in hundredths of the seller's currency. Only Paid and Complete sales count as sold; training receipts count in `training` alone. `sales` and `refunds` are positive and apart; every other amount is net, a refund's share with a minus sign. Counts are never signed: a refund counts as one like a sale wherever a count does not say otherwise.",
  {
    type: d('`X` while the day is open, `Z` once it is closed.', { type: 'string', enum: ['X', 'Z'] }),
    reportNumber: nullableInteger(
      "The Z report's number: its day's `dayNumber`, an unbroken series per register; null on an X report.",
    ),
    produced: instant('When the report was produced (for a Z report read later: when it was read)'),
    seller: exact('The seller as its profile and the registration say now.', {
      name: nullableText("The seller's (company's) name; null when its profile names none."),
      corporateId: text("The seller's corporate id (organisationsnummer) as the registration (else the profile) holds it."),
      address: nullableText(
        "The address where the sales take place: the seller's `address` (in the Z report the close journals: with its postal code and city); null when its profile has none.",
      ),
      country: text("The seller's country, ISO 3166-1 alpha-2 (`SE`)."),
    }),
    register: exact('The register.', {
      cashRegisterName: text("The register's name (kassabeteckning), unique per seller."),
      productionNumber: nullableText(
        "The register installation's production number (tillverkningsnummer); null without a registration that names one.",
      ),
      controlUnitSerial: nullableText("The serial of the control unit the register's latest activation names; null without one."),
    }),
    dayNumber: integer("The day's number on its register: 1, 2, 3, ... without gaps."),
    date: businessDate("The day's date"),
    open: instant('When the day opened'),
    close: nullableInstant('When the day closed; null on an X report'),
    sales: saleSums(
      "The day's sold sales that are not refunds (Paid or Complete; training receipts not included): how many, and their amounts, positive.",
    ),
    refunds: saleSums(
      "The day's sold refunds (returns; training refunds not included): how many, and their amounts, positive (what was paid back).",
    ),
    netSales: exact('What the day took: `sales` less `refunds` (signed: negative when refunds exceed sales).', {
      brutto: money("Net sales with VAT (`sales.brutto - refunds.brutto`); the Z report's total sales figure"),
      vat: money('Net VAT (`sales.vat - refunds.vat`)'),
      netto: money('Net sales without VAT (`sales.netto - refunds.netto`)'),
    }),
    salesPerCategory: list(
      "Net sales per category (main group), in name order with lines without one last; empty when no line of the day has a group. They add up to `netSales`; a discount on a whole sale counts in its last line's category.",
      exact('One category.', {
        category: nullableText(
          'The category (main group) name the lines froze at the sale (`saleProducts[].group`); null: lines without one.',
        ),
        count: integer('Units sold in it (a unit line its `delta`, another line 1), less those of refunds.'),
        brutto: money('Net sales with VAT in it, refunds subtracted'),
        vat: money('Net VAT in it, refunds subtracted'),
      }),
    ),
    vatPerRate: list(
      "Net sales per VAT rate, ascending by rate (from the sales' `vatRateSums`).",
      exact('One VAT rate.', {
        vatRate: vatRateHundredths(),
        count: integer('Sold sales whose `vatRateSums` name this rate, refunds included (counted, not subtracted).'),
        netto: money('Net amount without VAT at this rate, refunds subtracted'),
        vat: money('Net VAT at this rate, refunds subtracted'),
        brutto: money('Net amount with VAT at this rate, refunds subtracted'),
      }),
    ),
    paymentTypes: list(
      "Net takings per means of payment, in the specification's order; only counting payments (without a state, or `APPROVED`) of sold sales.",
      exact('One means of payment.', {
        paymentType: paymentTypeName('The means of payment'),
        count: integer("Counting payments of this type, refunds' included (counted, not subtracted)."),
        amount: money("Their net amount, refunds' paid back subtracted"),
        vat: money("Their share of their sales' VAT (in proportion to the amount), refunds' subtracted"),
      }),
    ),
    goods: articleCount('Goods sold (lines whose `articleType` is `GOODS` or none), net of refunds (7 kap. 3 § j).'),
    services: articleCount('Services sold (lines whose `articleType` is `SERVICE`), net of refunds (7 kap. 3 § k).'),
    training: counted(
      'Training receipts (ÖVNINGSKVITTO) of the day: sold training sales, refunds included; counted here and in no other figure.',
      'How many training sales (a training refund counts as one too).',
      'Their total with VAT, positive (refunds added, not subtracted)',
    ),
    receipts: integer(
      "Normal receipts printed for the day's sales (refunds' included, training receipts not), whatever the sale's state.",
    ),
    unprinted: integer('Sold sales (refunds included) without a Normal receipt; 0 on every Z report, as a day closes only then.'),
    drawerOpenings: integer(
      'Times the cash drawer opened: sold sales (refunds included) paid at least partly in cash, plus `drawerOpeningsWithoutSale`.',
    ),
    drawerOpeningsWithoutSale: integer(
      "Openings that registered no sale: deposits, withdrawals and the day's `DRAWER_OPENED` events of the register's journal.",
    ),
    copies: counted(
      "Copies printed (KOPIA) during the day (a copy of an earlier day's receipt counts in the day it is printed); training receipts have none.",
      'How many Copy prints.',
      'The brutto of the sale of each copy, summed, positive (refunds added, not subtracted)',
    ),
    proforma: counted(
      "Pro forma receipts printed (EJ KVITTO) of the day's sales, training receipts not included.",
      'How many Proforma prints.',
      'The brutto of the sale of each, summed, positive',
    ),
    discounts: money("Discounts given on the day's sold sales (their `discount`), refunds' subtracted"),
    cancelled: counted(
      'Cancelled sales (refunds included; training receipts not).',
      'How many Cancelled sales.',
      'Their total with VAT, positive',
    ),
    otherReductions: counted(
      "Registrations other than refunds and discounts that reduced the day's sales (7 kap. 3 § s): the Cancelled sales, as in `cancelled`.",
      'How many.',
      'Their total with VAT, positive',
    ),
    unfinished: counted(
      'Sales still Open (not paid) when the report was produced (refunds included; training receipts not).',
      'How many Open sales.',
      'Their total with VAT, positive',
    ),
    cash: exact('The cash drawer (docs/conventions.md §18); training receipts do not count.', {
      deposits: money('Cash put into the drawer (the float), summed'),
      depositCount: integer('How many deposits.'),
      withdrawals: money('Cash taken out of the drawer, summed'),
      withdrawalCount: integer('How many withdrawals.'),
      cashPayments: money('Counting cash payments of sold sales, less the cash paid back for refunds'),
      expected: money('The cash that should be in the drawer: `deposits + cashPayments - withdrawals`'),
    }),
    grandTotals: exact(
      "The register's grand totals since its first day, this day included: on a Z report as frozen at the close, on an X report as they stand. Training receipts never count.",
      {
        sales: money('The brutto of every sold sale that is not a refund'),
        refunds: money('The brutto of every sold refund, positive'),
        net: money('`sales - refunds`'),
      },
    ),
  },
);

// ---------------------------------------------------------------------------------------------------------------
// The receipt (docs/conventions.md §16; docs/sweden.md maps each item onto 7 kap. 1 §).

const vatPerRate = list(
  "The sale's amounts per VAT rate, ascending by rate (its `vatRateSums`), positive.",
  exact('One VAT rate.', {
    vatRate: vatRateHundredths(),
    netto: money('The amount without VAT at this rate, positive'),
    vat: money('The VAT at this rate, positive'),
    brutto: money('The amount with VAT at this rate, positive'),
  }),
);

const receiptLineProperties = {
  name: text("The article's name as frozen at the sale; the product identifier on lines stored before names were kept."),
  quantity: d('How much was sold, in `salesUnit`: units, or a weight, length or time (up to three decimals).', {
    type: 'number',
  }),
  salesUnit: d(
    'The unit of `quantity` (`Piece`, `Kilogram`, ...; `Price`: the line is an amount); null when the line does not say.',
    {
      type: ['string', 'null'],
      enum: [...SALES_UNITS, null],
    },
  ),
  unitPrice: nullableMoney('The price with VAT per unit of `quantity` before discounts; null when the line does not say'),
  amount: money("The line's amount with VAT after its own discount (its `brutto`), positive"),
  discount: money("The line's own discount with VAT, positive"),
  vatRate: nullableInteger(
    "The line's VAT rate in hundredths of a percent (1200 is 12 %): the line's whole-percent `vatRate` times 100, else worked out from its `vat` and `netto`; null when neither says.",
  ),
  articleType: d('Goods or a service (`GOODS` when the line does not say).', { type: 'string', enum: ARTICLE_TYPES }),
  group: nullableText("The line's category (main group) as frozen at the sale, or null."),
} as const;

/** A sale as the reading version shows it (the receipt's `sale`). */
const saleView = d(
  "The sale the receipt is of, as the reading version shows it (its sale view: v15's has no `day` nor the v26 line fields).",
  {
    anyOf: [
      { $ref: '#/components/schemas/saleV15View' },
      { $ref: '#/components/schemas/saleV26View' },
      { $ref: '#/components/schemas/saleV33View' },
    ],
  },
);

export const receipt = exact(
  "A receipt, copy or pro forma receipt of a sale as the register prints it, with every item SKVFS 2014:9, 7 kap. 1 § asks of a kassakvitto (docs/conventions.md §16, docs/sweden.md). Amounts in hundredths of the seller's currency, positive: `refund` gives the direction. Times in milliseconds since the epoch (UTC), with the seller's wall clock beside (`saleTimeLocal`).",
  {
    sellerId: text("The seller's id: country code and corporate id (`SE5560360793`)."),
    cashRegisterName: text("The register's name (kassabeteckning)."),
    receiptNumber: nullableInteger(
      "The receipt number (löpnummer): the Normal print's, in the register's series (a training receipt's in the training series); a Copy repeats it; null for a pro forma.",
    ),
    printType: d('`Normal`: the receipt; `Copy`: its one copy; `Proforma`: a pro forma receipt.', {
      type: 'string',
      enum: PRINT_TYPES,
    }),
    controlNumber: nullableText(
      "The control unit's control code for this print; null when it carries none (no control unit; a pro forma needs none).",
    ),
    created: nullableInstant('When this print was made'),
    heading: d(
      'What the print is: `KASSAKVITTO`, `RETURKVITTO` for a refund, `ÖVNINGSKVITTO` for a training receipt, `PRO FORMA`.',
      { type: 'string', enum: ['KASSAKVITTO', 'RETURKVITTO', 'ÖVNINGSKVITTO', 'PRO FORMA'] },
    ),
    markings: list(
      'The words 5 kap. 5 § asks the print to carry: `KOPIA` on a copy, `ÖVNINGSKVITTO` on a training receipt, `EJ KVITTO` on a pro forma.',
      { type: 'string', enum: ['KOPIA', 'ÖVNINGSKVITTO', 'EJ KVITTO'] },
    ),
    training: flag("A training receipt: not a sale, counted only in the reports' `training`."),
    refund: flag('A refund (RETURKVITTO): its amounts were paid back.'),
    refundFor: nullableInteger('A refund: the receipt number of the sale it refunds; else null.'),
    seller: exact('The seller as its profile and registration say now.', {
      name: nullableText("The seller's (company's) name, or null."),
      corporateId: text("The seller's corporate id (organisationsnummer)."),
      address: nullableText('The street address where the sale takes place, or null.'),
      zip: nullableText('Its postal code, or null.'),
      city: nullableText('Its city, or null.'),
    }),
    register: exact('The register.', {
      cashRegisterName: text("The register's name (kassabeteckning)."),
      productionNumber: nullableText("The register installation's production number, or null."),
      controlUnitSerial: nullableText(
        "The serial of the control unit the register's latest activation names (tillverkningsnummer), or null.",
      ),
    }),
    saleTime: nullableInstant("When the sale took place (its `close`, else the print's time, else when the server recorded it)"),
    saleTimeLocal: nullableText("`saleTime` on the seller's wall clock, `yyyy-MM-dd HH:mm:ss` in `timeZone`."),
    timeZone: text("The seller's time zone (IANA, `Europe/Stockholm`): `saleTimeLocal` is in it."),
    treasurer: nullableText('The identifier of the treasurer who made the sale, or null.'),
    lines: list("The lines sold, in the sale's order.", exact('One line.', receiptLineProperties)),
    discount: money('Everything discounted on the sale with VAT (its `discount`: `vanillaBrutto - brutto`), positive'),
    total: money("The total with VAT (the sale's `brutto`), positive"),
    vat: money('The VAT of the total, positive'),
    vatPerRate,
    payments: list(
      'The counting payments (without a state, or `APPROVED`), positive.',
      exact('One payment.', {
        paymentType: paymentTypeName('The means of payment'),
        amount: money('The amount paid (or paid back, on a refund), positive'),
      }),
    ),
    currency: nullableText(
      "The seller's currency, ISO 4217 (`SEK`): the unit of every amount, in hundredths; null when its profile names none.",
    ),
    receiptUrl: nullableText(
      "The digital receipt, relative to the API's base URL (`/v33/noauth/receipts/<token>`; no credentials needed); a copy shows its receipt's; null for a pro forma.",
    ),
    sale: saleView,
  },
);

// ---------------------------------------------------------------------------------------------------------------
// The e-journal (docs/conventions.md §19).

const hash = (what: string) => d(`${what}: SHA-256, 64 lower-case hex digits.`, { type: 'string', pattern: '^[0-9a-f]{64}$' });

/** A request schema's `scalars#/$defs/text` as the documents name it (`#/components/schemas/scalars/$defs/text`). */
function componentRefs<T>(schema: T): T {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (typeof node !== 'object' || node === null) return node;
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => {
        if (key !== '$ref' || typeof value !== 'string') return [key, walk(value)];
        const [name, pointer = ''] = value.split('#');
        return [key, `#/components/schemas/${name}${pointer}`];
      }),
    );
  };
  return walk(schema) as T;
}

/** A print's receipt as the journal keeps it (shared/fiscal/journal-records.ts `JournalReceipt`). */
const journalReceipt = open(
  "The receipt the print made, as the journal keeps it for the auditor's export. Amounts in hundredths of the currency, positive (`refund` gives the direction).",
  {
    printed: instant('When this print was made'),
    original: d("A copy: when the receipt it copies was printed and that receipt's control code; else null.", {
      type: ['object', 'null'],
      properties: {
        printed: nullableInstant('When the copied receipt was printed'),
        controlCode: nullableText("The copied receipt's control code, or null."),
      },
    }),
    training: flag('A training receipt.'),
    refund: flag('A refund.'),
    refundFor: nullableInteger('A refund: the receipt number it refunds; else null.'),
    controlUnitSerial: nullableText("The control unit that signed it (the activation's), or null."),
    treasurer: nullableText('The treasurer who made the sale, or null.'),
    lines: list(
      "The lines, in the sale's order.",
      open('One line: the receipt line with the article number, its VAT and when it was registered.', {
        ...receiptLineProperties,
        articleNumber: text("The register's product identifier."),
        vat: money("The line's VAT, positive"),
        registered: nullableInstant(
          "When the register registered the line (its `created`, else the sale's time); null when unknown",
        ),
      }),
    ),
    discount: money('Everything discounted on the receipt (lines and the sale), positive'),
    total: money('The total with VAT, positive'),
    vat: money('The VAT of the total, positive'),
    vatPerRate,
    payments: list(
      "The counting payments, positive, in v33's names whatever the reading version.",
      open('One payment.', {
        paymentType: d('The means of payment (v33 names).', { type: 'string', enum: PAYMENT_TYPES }),
        amount: money('The amount, positive'),
      }),
    ),
  },
);

/** Who the journal belongs to, frozen by a day's close (shared/fiscal/export-context.ts `ExportContext`). */
const exportContext = open("The register's identity for the auditor's export as the records said at the close.", {
  sellerId: text("The seller's id."),
  timeZone: text("The seller's time zone (IANA): the export's times are its wall clock."),
  company: open('The company.', {
    corporateId: text('The corporate id.'),
    country: text('The country, ISO 3166-1 alpha-2.'),
    name: nullableText("The company's name, or null."),
    address: nullableText('Where the sales take place: address, postal code and city on one line; null when unknown.'),
  }),
  system: open('The register system.', {
    cashRegisterName: text("The register's name."),
    productionNumber: nullableText("The installation's production number (tillverkningsnummer), or null."),
    model: nullableText("The application's name (modellbeteckning), or null."),
    program: nullableText("The application's package (modell eller program), or null."),
    version: nullableText("The installation's program version (versionsnummer), or null."),
    controlUnitSerial: nullableText("The control unit's serial, or null."),
  }),
});

/** An entry of these types carries this `data`. */
const entryOf = <const T extends readonly string[], const D extends Schema>(types: T, data: D) => ({
  type: 'object',
  required: ['type', 'data'],
  properties: { type: d('The kind of entry.', { type: 'string', enum: types }), data },
});

const entryVariants = [
  entryOf(['DAY_OPENED'], open('The day opened.', { date: businessDate("The day's date") })),
  entryOf(
    ['DAY_CLOSED'],
    open('The day closed: its grand totals, its Z report as produced at the close and who the register was.', {
      grandTotal: money("The register's grand total at the close (sold sales, refunds and training receipts not included)"),
      grandTotalRefund: money("The register's refunds' total at the close, positive"),
      report: d('The Z report as produced at the close.', { $ref: '#/components/schemas/report' }),
      context: exportContext,
    }),
  ),
  entryOf(
    ['SALE_RECORDED', 'SALE_CHANGED'],
    open('The sale as written.', {
      saleState: d("The sale's state after the write.", { type: 'string', enum: SALE_STATES }),
      previousState: d('`SALE_CHANGED`: its state before; else null.', {
        type: ['string', 'null'],
        enum: [...SALE_STATES, null],
      }),
      refund: flag('A refund.'),
      digest: hash('SHA-256 of the canonical JSON of the sale as stored'),
    }),
  ),
  entryOf(['PRINT'], open('The print.', { receipt: journalReceipt })),
  entryOf(
    ['BALANCE'],
    open('The deposit or withdrawal.', {
      action: d('`DEPOSIT` or `WITHDRAWAL`: what `amount` was.', { type: 'string', enum: BALANCE_ACTIONS }),
      balance: money("The open day's cash balance after it"),
    }),
  ),
  entryOf(['REPORT_PRINTED'], d('Nothing: the day and its sold brutto are `dayNumber` and `amount`.', { type: 'null' })),
  entryOf(
    ['DEVICE'],
    d('The device event as sent: its JSON object, or `{created, treasurer, data}` with what it sent of them.', {
      type: 'object',
    }),
  ),
  entryOf(
    ['KD_REQUEST'],
    open('The kd sent to the control unit.', {
      correlationId: text("The request's correlation id; its `KD_OUTCOME` names it."),
      controlUnitSerial: text("The unit's serial."),
      retryOf: nullableText('The correlation id of the request this one repeats, or null.'),
      command: d("The kd line's fields as sent to the unit (amounts in hundredths, VAT per rate).", { type: 'object' }),
    }),
  ),
  entryOf(
    ['KD_OUTCOME'],
    open("What came of a kd (the Kd log's record).", {
      correlationId: text("The request's correlation id."),
      controlUnitSerial: text("The unit's serial."),
      outcome: d("What came of it (as a Kd log record's `outcome`).", {
        type: 'string',
        enum: KD_LOG_OUTCOMES,
      }),
      returnCode: nullableInteger("The unit's return code when it answered, else null."),
      message: nullableText('Null when signed; else what went wrong, for a person.'),
      late: flag('True: a reply found after its deadline, by a later kd of the same receipt.'),
    }),
  ),
  ...REGISTER_EVENT_TYPES.map((type) =>
    entryOf(
      [type],
      d(`The ${type} event as the register sent it, without its type (docs/conventions.md §19).`, {
        type: 'object',
        required: ['created', 'treasurer', 'data'],
        properties: {
          created: instant('When it happened on the register'),
          treasurer: nullableText('Who did it, or null.'),
          data: d(`What the ${type} event says: its fields (docs/conventions.md §19).`, componentRefs(registerEventData[type])),
        },
      }),
    ),
  ),
];

export const journalEntry = {
  ...exact(
    "An e-journal entry (docs/conventions.md §19): one fiscal event of the register, chained to the one before by SHA-256. What `amount` and `data` hold depends on `type` (see each). Amounts in hundredths of the seller's currency, positive.",
    {
      sequence: integer("The entry's place in the register's journal: 1, 2, 3, ... without gaps."),
      type: d(
        "What happened: the service's own events (`DAY_OPENED`, `DAY_CLOSED`, `SALE_RECORDED`, `SALE_CHANGED`, `PRINT`, `BALANCE`, `REPORT_PRINTED`, `KD_REQUEST`, `KD_OUTCOME`), a device event (`DEVICE`) or a register event the register journaled (`LOGIN`, `ARTICLE_REGISTERED`, ...).",
        { type: 'string', enum: JOURNAL_TYPES },
      ),
      created: instant("When the entry was written (a register event's own time is `data.created`)"),
      dayNumber: nullableInteger(
        "The `dayNumber` of the register's day the event belongs to (a register or device event: the latest day); null when none.",
      ),
      saleIdentifier: nullableText("`SALE_RECORDED`, `SALE_CHANGED`, `PRINT`: the sale's identifier; else null."),
      receiptNumber: nullableInteger(
        "`SALE_RECORDED`, `SALE_CHANGED`: the sale's receipt number once printed; `PRINT`: the print's; `KD_REQUEST`, `KD_OUTCOME`: the kd's; else null.",
      ),
      printType: d('`PRINT`, `KD_REQUEST`, `KD_OUTCOME`: the print type; else null.', {
        type: ['string', 'null'],
        enum: [...PRINT_TYPES, null],
      }),
      amount: nullableInteger(
        "In hundredths of the currency, positive; what it is the amount of depends on `type`: `SALE_RECORDED`, `SALE_CHANGED` and `PRINT`: the sale's `brutto` (`data.refund`, or the receipt's `refund`, gives the direction); `BALANCE`: the deposit or withdrawal (`data.action` says which); `DAY_CLOSED`: the day's `cashAtClose`; `REPORT_PRINTED`: the day's sold brutto (the Z report's `sales.brutto`, refunds and training receipts not included); `KD_REQUEST`, `KD_OUTCOME`: the kd's brutto. Null for every other type.",
      ),
      controlCode: nullableText(
        "`PRINT`: the print's control code; `KD_OUTCOME`: the code the unit gave (null unless signed); else null.",
      ),
      data: d(
        "What else the event says, by `type`: `DAY_OPENED` `{date}` (yyyymmdd, the seller's zone); `DAY_CLOSED` `{grandTotal, grandTotalRefund, report, context}` (the Z report as produced at the close and the register's export context); `SALE_RECORDED`, `SALE_CHANGED` `{saleState, previousState, refund, digest}` (digest: SHA-256 of the stored sale); `PRINT` `{receipt}` (the receipt as the journal keeps it: amounts positive, `vatRate` in hundredths of a percent); `BALANCE` `{action, balance}` (balance: the cash balance after it, hundredths); `REPORT_PRINTED` null; `KD_REQUEST` `{correlationId, controlUnitSerial, retryOf, command}`; `KD_OUTCOME` `{correlationId, controlUnitSerial, outcome, returnCode, message, late}`; `DEVICE` the device's JSON as sent; a register event `{created, treasurer, data}` (the body the register sent without its type).",
        { type: ['object', 'null'] },
      ),
      previousHash: hash("The previous entry's `hash`; 64 zeros before the first entry"),
      hash: hash('The hash of the canonical JSON (RFC 8785) of this entry without `hash`'),
    },
  ),
  // Its `data` by its `type`: the typed client gets a union of entries, one per kind.
  oneOf: entryVariants,
};

export const generatedJournal = exact(
  "The register's e-journal, its head signed with the activation key (docs/conventions.md §19): verify it offline with `npx verify-journal` and the public key named by `publicKeyFileName`.",
  {
    sellerId: text("The seller's id."),
    cashRegisterName: text("The register's name."),
    generated: instant('When the document was made'),
    entries: list('The entries, oldest first, contiguous.', { $ref: '#/components/schemas/journalEntry' }),
    head: exact('The last entry (the genesis head, sequence 0 and 64 zeros, when there is none).', {
      sequence: integer("The last entry's sequence."),
      hash: hash("The last entry's hash"),
    }),
    signature: text(
      'Base64 of the DER ECDSA P-256 / SHA-256 signature over the canonical JSON of `{cashRegisterName, generated, hash, sellerId, sequence}` (the head).',
    ),
    publicKeyFileName: text('The file name under which `GET /noauth/activations/public-keys/{name}` serves the public key.'),
  },
);

// ---------------------------------------------------------------------------------------------------------------
// Days, sale overviews, the cash balance.

const dayNumber = integer("The day's number on its register: 1, 2, 3, ... without gaps; its Z report's number.");

export const dayMinified = exact('A register day, briefly (docs/conventions.md §17).', {
  id: integer("The day's id: its `dayNumber`."),
  date: businessDate("The day's date"),
});

export const dayView = {
  type: 'object',
  description:
    "A register's trading day (docs/conventions.md §17) as v26 and v33 show it; v15's lists show `{id, date}` only. Amounts in hundredths of the seller's currency.",
  additionalProperties: false,
  required: ['id', 'date'],
  properties: {
    id: integer("The day's id: its `dayNumber`."),
    date: businessDate("The day's date"),
    dayNumber,
    opened: flag('True while the day is open.'),
    reportPrinted: flag('Whether its Z report has been printed (once).'),
    open: instant('When the day opened'),
    close: nullableInstant('When the day closed; null while open'),
    cash: money(
      "The cash that should be in the drawer: the day's deposits + cash payments of sales - cash paid back for refunds - withdrawals (docs/conventions.md §18; training receipts not included)",
    ),
    cashAtClose: nullableMoney('`cash` as it was at the close; null while open'),
    grandTotal: nullableMoney(
      "The register's grand total at the close: the brutto of every sold sale since its first day, this day's included, refunds and training receipts not; null while open",
    ),
    grandTotalRefund: nullableMoney(
      "The brutto of every sold refund of the register since its first day at the close, this day's included, positive; null while open",
    ),
    closedDayTreasurer: nullableText('The identifier of the treasurer who closed the day, or null.'),
    version: integer("The register's record version at the day's last change."),
    modified: instant('When the day last changed'),
  },
} as const;

export const saleOverview = {
  type: 'object',
  description:
    "A sale, briefly, with its register (`sales-minified`, v26 and v33). Amounts in hundredths of the seller's currency, positive.",
  additionalProperties: false,
  required: ['id', 'close', 'brutto', 'receiptNumber', 'cashRegisterName', 'vatSum', 'treasurer'],
  properties: {
    id: text("The sale's identifier."),
    close: nullableInstant('When the sale was completed; null when the register did not say'),
    brutto: money("The sale's total with VAT, positive (a refund's too)"),
    receiptNumber: nullableInteger('The number of its Normal receipt; null before it is printed.'),
    cashRegisterName: text("The register's name."),
    vatSum: money("The sale's VAT, positive"),
    treasurer: list('The treasurer who made the sale: none, or one `{identifier}`.', {
      type: 'object',
      additionalProperties: false,
      required: ['identifier'],
      properties: { identifier: text("The treasurer's identifier.") },
    }),
    trip: d('v33: the trip the sale belongs to; always null (no sale belongs to a trip).', { type: 'null' }),
  },
} as const;

export const amountResult = exact("The register's cash balance after the change (docs/conventions.md §18).", {
  amount: money(
    "The cash that should be in the drawer: the open day's deposits + cash payments of sales - cash paid back for refunds - withdrawals",
  ),
});

export const sequenceResult = exact('The appended entry of the e-journal.', {
  sequence: integer("The entry's place in the register's journal: 1, 2, 3, ... without gaps."),
});

// ---------------------------------------------------------------------------------------------------------------
// The control unit's kd (docs/conventions.md §25).

export const kdResult = exact("The control unit's control code for the receipt, and the unit (docs/conventions.md §25).", {
  response: text(
    "The control code (a Swedish unit's is 59 characters of A-Z0-9): a Normal or Copy print carries it as `controlNumber`.",
  ),
  controlUnitSerial: text("The serial of the unit that registered the receipt (the activation's)."),
});

export const kdLogRecord = exact('A Kd log record (spec 2.3): a kd and its outcome (docs/conventions.md §25).', {
  activation: integer('The activation the register sent the kd under.'),
  brutto: money("The receipt's total with VAT, positive (`refund` gives the direction)"),
  kdDate: instant("The receipt's time as the register sent it (`date`)"),
  vatRateToSum: d(
    'VAT rate in percent as text (not hundredths), as the register wrote it (`"12"`, `"12.5"`) -> the VAT at that rate in hundredths of the currency, as the unit registered it, whether the register sent VAT amounts (with `brutto`) or gross amounts (without).',
    { type: 'object', additionalProperties: { type: 'integer' } },
  ),
  receiptNumber: integer("The receipt's number (a training receipt's in the training series)."),
  printType: d('The print registered.', { type: 'string', enum: PRINT_TYPES }),
  refund: flag('True: the receipt returned money.'),
  errorMessage: nullableText('Null when the unit signed; else what went wrong, for a person.'),
  errorStackTrace: d('Always null: the service hands out no stack traces.', { type: 'null' }),
  sellerId: text("The seller's id."),
  cashRegisterName: text("The register's name."),
  controlUnitSerial: text("The unit's serial."),
  softwareVendor: nullableInteger("The id of the unit's software vendor; null when it has none."),
  outcome: d(
    'What came of it: `SIGNED` (the control code in `response`); `REFUSED` (the unit refused the receipt: `returnCode`); `COMMUNICATION` (the line to the unit garbled the exchange); `UNAVAILABLE` (the unit did not answer its bridge); `TIMEOUT` (no reply by the deadline); `OFFLINE` (the bridge is offline, nothing was sent); `REQUIRES_SETUP` (the bridge is not provisioned or never connected, nothing was sent).',
    { type: 'string', enum: KD_LOG_OUTCOMES },
  ),
  returnCode: nullableInteger(
    "The unit's return code when it answered (0: OK; the table in docs/conventions.md §25), else null.",
  ),
  response: nullableText('The control code when `SIGNED`, else null.'),
  created: instant('When the outcome was recorded'),
});

// ---------------------------------------------------------------------------------------------------------------
// Statistics (docs/conventions.md §20): the days' running totals folded, the same figures as their Z reports.

const statsNote =
  "Amounts in hundredths of the seller's currency; only Paid and Complete sales count, refunds with a minus sign; training receipts never.";
const unitsSold = (what: string) =>
  integer(`${what}: units sold (a unit line's \`delta\`, any other line 1), refunds' taken off.`);

export const taxStats = exact(`VAT per rate over the period (docs/conventions.md §20). ${statsNote}`, {
  taxStats: list('One item per VAT rate sold at, ascending by rate.', {
    type: 'object',
    additionalProperties: false,
    required: ['vatRate', 'count', 'netto', 'brutto', 'vatSum'],
    properties: {
      vatRate: vatRateHundredths(),
      count: integer('Sold sales whose `vatRateSums` name this rate, refunds included (counted, not subtracted).'),
      netto: money('Net amount without VAT at this rate, refunds subtracted'),
      brutto: money('Net amount with VAT at this rate, refunds subtracted'),
      vatSum: money('Net VAT at this rate, refunds subtracted'),
      vatName: nullableText("v33: the name of the seller's tax of this rate (the first by name), or null when none has it."),
    },
  }),
});

export const categoryStats = exact(`Sales per category of the catalog over the period (docs/conventions.md §20). ${statsNote}`, {
  totalProductsSold: unitsSold('Every unit once, in a category or not'),
  categoryStats: list(
    'One item per category its products sold in, by name; a product in two categories counts in both.',
    exact('One category.', {
      name: text("The category's name."),
      brutto: money("Its products' net sales with VAT"),
      count: unitsSold("Its products' units"),
      vatSum: money("Its products' net VAT"),
    }),
  ),
});

export const productStats = exact(`Sales per product over the period (docs/conventions.md §20). ${statsNote}`, {
  totalBrutto: money('Net sales with VAT of every product'),
  totalProductsSold: unitsSold('Every product'),
  productStats: list('One item per product sold, the best-selling (by brutto) first.', {
    type: 'object',
    additionalProperties: false,
    required: ['identifier', 'name', 'brutto', 'count', 'salesUnit'],
    properties: {
      identifier: text("The product's identifier."),
      name: nullableText("The product's name in the catalog now; null when it is gone."),
      brutto: money('Its net sales with VAT'),
      count: unitsSold('Its units'),
      salesUnit: nullableText("The product's sales unit in the catalog now; null when it is gone."),
      vatSum: money('v26, v33: its net VAT'),
    },
  }),
});

export const registerStats = exact(`A register's net sales over the period (docs/conventions.md §20). ${statsNote}`, {
  cashRegisterName: text("The register's name."),
  total: money('Its net sales with VAT (0 when it sold nothing)'),
});

export const salesStats = {
  type: 'object',
  description: `The seller's sales over the period (docs/conventions.md §20). ${statsNote}`,
  additionalProperties: false,
  required: ['total', 'amountOfSales', 'amountOfProducts', 'bruttoStats'],
  properties: {
    total: money('Net sales with VAT'),
    amountOfSales: integer('Sold sales and refunds, each counted once (refunds added, not subtracted).'),
    amountOfProducts: unitsSold('Every product'),
    dateGroupingUnit: d('v26, v33: the buckets of `bruttoStats`.', { type: 'string', enum: ['HOUR', 'DAY', 'WEEK', 'MONTH'] }),
    bruttoStats: d(
      "Net sales with VAT per bucket, in time order: the bucket's start on the seller's wall clock with its offset (`2026-11-27T00:00:00.000+0100`) -> hundredths of the currency; a bucket appears when a sale or refund counts in it. Hours come from the sales' times, days, weeks and months from the business dates of the days they were recorded in.",
      { type: 'object', additionalProperties: { type: 'integer' } },
    ),
  },
} as const;

export const paymentTypeStats = exact(`Sales per means of payment over the period (docs/conventions.md §20). ${statsNote}`, {
  paymentTypeStats: list(
    "One item per means of payment used, in the specification's order; only counting payments (without a state, or `APPROVED`).",
    exact('One means of payment.', {
      paymentType: paymentTypeName('The means of payment'),
      count: integer("Counting payments of this type, refunds' included (counted, not subtracted)."),
      brutto: money("Their net amount, refunds' paid back subtracted"),
      vatSum: money("Their share of their sales' VAT, refunds' subtracted"),
    }),
  ),
});

export const dayStats = exact(`The register days of the period (docs/conventions.md §20). ${statsNote}`, {
  dayStats: list('One item per day of every register covered, in the order they opened.', {
    type: 'object',
    additionalProperties: false,
    required: ['cashRegisterName', 'dayNumber', 'open', 'brutto', 'vatSum'],
    properties: {
      cashRegisterName: text("The register's name."),
      dayNumber,
      open: instant('When the day opened'),
      close: nullableInstant('v33: when the day closed; null while open'),
      brutto: money("The day's net sales with VAT (its Z report's `netSales.brutto`)"),
      vatSum: money("The day's net VAT (its Z report's `netSales.vat`)"),
    },
  }),
});

// ---------------------------------------------------------------------------------------------------------------
// Export jobs (docs/conventions.md §28).

const EXPORT_STATUSES = ['PENDING', 'RUNNING', 'DONE', 'FAILED'] as const;
const exportFields = {
  id: text("The export's id: its creation time, then random hex digits."),
  status: d('`PENDING` (queued), `RUNNING`, `DONE` (the file is ready) or `FAILED` (`error` says why).', {
    type: 'string',
    enum: EXPORT_STATUSES,
  }),
  from: nullableInstant('The first instant asked (null: not bounded)'),
  to: nullableInstant('The last instant asked (null: the time the export was made)'),
  created: instant('When the export was asked for'),
};

export const exportJob = exact('An export started, or the one of the same period still running.', exportFields);

export const exportJobState = exact('An export and, once done, where to download its file.', {
  ...exportFields,
  finished: nullableInstant('When it was done or failed (null: not yet)'),
  bytes: nullableInteger("DONE: the gzipped file's size in bytes."),
  sha256: nullableText("DONE: the gzipped file's SHA-256, 64 hex digits."),
  url: nullableText('DONE: a GET of the gzipped file, valid until `expires`; asking for the export again gives a new one.'),
  expires: nullableInstant('DONE: when `url` stops working'),
  error: nullableRef('FAILED: the error body the synchronous route would have answered.', 'Error'),
});

export const exportJobList = list('Exports, newest first.', exportJobState);

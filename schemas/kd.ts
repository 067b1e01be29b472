/**
 * A kd request (spec 4.3; docs/conventions.md §25): the receipt a register asks its control unit to register.
 * v15 carries `brutto` and may leave `receiptNumber` null; v26 and v33 name the receipt number and may carry `brutto`
 * (as apps written for srv4pos do: docs/compatibility.md), without it taking the amount from `vatRateToSum`; v33's
 * second variant names the activation's unit and application as well.
 */
import { PRINT_TYPES } from '#shared/fiscal/model.ts';
import { described } from './fiscal.ts';

const INT32_MAX = 2147483647;
/** The receipt's time: from 1970 to the last year a kd date (`YYYYMMDDhhmm`) can show in any time zone. */
const KD_DATE_MAX = 253370764800000;
/**
 * A VAT rate in percent as text, at most two decimals, 0 to 99.99 (`25`, `12.5`, `6.00`): a unit's rate field holds at
 * most 5 characters (`99,99`; shared/kd/codec.ts), so a higher rate is refused here rather than by the unit.
 */
export const VAT_RATE_KEY = '^[1-9]?[0-9](?:\\.[0-9]{1,2})?$';
/** A control unit takes four VAT rates. */
export const MAX_KD_VAT_RATES = 4;

/** The receipt's amount in hundredths, absolute: with it `vatRateToSum` holds the VAT amount per rate. */
const brutto = described(
  "The receipt's total with VAT in hundredths of the currency, positive for a refund too (`refund` gives the direction). With it `vatRateToSum` holds the VAT amount per rate; without it (v26, v33) the gross per rate.",
  { type: 'integer', minimum: 0, maximum: INT32_MAX },
);

const common = {
  /** VAT rate (percent, text) -> in hundredths the VAT at that rate with `brutto`, else the receipt's gross at that rate. */
  vatRateToSum: described(
    'At most 4 VAT rates, each a key in percent as text (`"25"`, `"12.5"`, 0 to 99.99, at most two decimals; not hundredths of a percent) -> an amount in hundredths of the currency: with `brutto` the VAT at that rate, without it the gross at that rate (docs/conventions.md §25).',
    {
      type: 'object',
      maxProperties: MAX_KD_VAT_RATES,
      propertyNames: { type: 'string', $ref: 'scalars#/$defs/text', pattern: VAT_RATE_KEY },
      additionalProperties: { type: 'integer', minimum: 0, maximum: INT32_MAX },
    },
  ),
  refund: described('True: the receipt returns money (the unit registers the amount as a return amount).', { type: 'boolean' }),
  // Or its position in the enumeration (0, 1, 2), as clients that write enums as numbers send it.
  printType: described('The print to register: `Normal`, `Copy` or `Proforma`, or their positions 0, 1, 2.', {
    type: ['string', 'integer'],
    enum: [...PRINT_TYPES, 0, 1, 2],
  }),
  date: described(
    "The receipt's time: milliseconds since the epoch (UTC); the unit registers it to the minute on the seller's wall clock.",
    { type: 'integer', minimum: 0, maximum: KD_DATE_MAX },
  ),
  // A training receipt (additive, every version): kd type `ovning`, numbered in the training series (docs/conventions.md §16).
  training: described(
    'A training receipt: registered as `ovning`, `receiptNumber` in the training series (docs/conventions.md §16).',
    {
      type: ['boolean', 'null'],
    },
  ),
} as const;

const receiptNumber = described("The receipt's number on the register (a Copy: its receipt's number).", {
  type: 'integer',
  minimum: 1,
  maximum: INT32_MAX,
});

export const kdV15 = {
  $id: 'kdV15',
  type: 'object',
  additionalProperties: false,
  required: ['brutto', 'vatRateToSum', 'refund', 'printType', 'date'],
  properties: {
    ...common,
    brutto,
    // Null (or left out): the register's next receipt number; for a Copy, its last one (docs/conventions.md §25).
    receiptNumber: {
      ...receiptNumber,
      type: ['integer', 'null'],
      description:
        "The receipt's number on the register; null or absent: the register's next receipt number (a Copy: its last one).",
    },
  },
} as const;

export const kdV26 = {
  $id: 'kdV26',
  type: 'object',
  additionalProperties: false,
  required: ['vatRateToSum', 'refund', 'printType', 'receiptNumber', 'date'],
  properties: { ...common, brutto: { ...brutto, type: ['integer', 'null'] }, receiptNumber },
} as const;

export const kdV33 = {
  $id: 'kdV33',
  type: 'object',
  additionalProperties: false,
  required: ['vatRateToSum', 'refund', 'printType', 'receiptNumber', 'date'],
  properties: {
    ...common,
    brutto: { ...brutto, type: ['integer', 'null'] },
    receiptNumber,
    // The second variant: both or neither, and they must be the activation's (docs/conventions.md §25).
    controlUnitSerial: described("The control unit's serial: the activation's (with `applicationPackage`, or neither).", {
      type: ['string', 'null'],
      $ref: 'scalars#/$defs/text',
      minLength: 1,
      maxLength: 20,
    }),
    applicationPackage: described(
      "The register application's package: the activation's (with `controlUnitSerial`, or neither).",
      {
        type: ['string', 'null'],
        $ref: 'scalars#/$defs/applicationPackage',
      },
    ),
  },
} as const;

/**
 * The Swedish control-unit `kd` command (the field formats of SKVFS 2009:2 as public POS drivers use them): its fields, their
 * formats and bounds, the CRC, the return codes and the reply, all in this one module, so a unit with other parameters is a
 * change here only (docs/conventions.md §25).
 *
 * Request line:  kd <date> <org> <registerId> <receiptNo> <type> <returnAmount> <salesAmount>
 *                   <vat1> <vat2> <vat3> <vat4> <crc> CR LF
 * Reply line:    <code> [<control code>] <crc> CR LF
 *
 * CRC: CRC-16/XMODEM (polynomial 0x1021, init 0x0000, no reflection, no final xor; check value of "123456789" is
 * 0x31C3) over every byte of the line up to AND INCLUDING the single space before the CRC token, written `0x` + four
 * upper-case hex digits. A reply is checked the same way: its tokens before the CRC joined by single spaces, plus one
 * space. A VAT field is `<rate>;<amount>`, the rate at most 5 characters (`25,00`; 99,99 at most).
 *
 * Return codes (the unit's published table): -1 wrong length, -2 CRC error, -3 unknown command, 0 OK, 1 wrong number
 * of arguments, 2 date/time, 3 organisation number, 4 cash register id, 5 serial (receipt) number, 6 and 7 type of
 * receipt not defined, 8 return amount, 9 sales amount, 10-13 VAT A-D (vat1-vat4), 15-19 internal errors, 20 power
 * fail abort, 21 relationship between sales and return amount, 22 a field after the CRC field, 23 an internal counter,
 * 24 internal log full. There is no 14.
 *
 * Sources read (public implementations of the PosPlus protocol):
 * - Odoo, addons/iot_drivers/iot_handlers/drivers/serial_blackbox_se_driver.py (github.com/odoo/odoo):
 *   `SkattedosanReturnCodes`, `_crc16`, `_wrap_message` (`" ".join(args) + " "` then the CRC) and the reply check
 *   (`_crc16(" ".join(response[:-1]) + " ")`).
 * - A C++ POSPlus integration's FiscalDataUtility.h / FiscalDataUtility.cpp (Menumate POS, on GitHub):
 *   `enum ReturnCodesPosts` (the same codes 1-24) and `ConvertDataToString`, which appends the space before
 *   `StreamCheckCRC` (a table-driven CRC-16/XMODEM). Its enum names -1 and -2 the other way round from Odoo; this
 *   module follows Odoo's table (-1 length, -2 CRC), the table docs/conventions.md §25 gives.
 */

import { formatHundredths, parseHundredths } from '#shared/hundredths.ts';

export const KD_TYPES = ['normal', 'kopia', 'ovning', 'profo'] as const;
export type KdType = (typeof KD_TYPES)[number];

/** One VAT rate of a receipt; both in hundredths (2500 = 25,00 %, 2510 = 25,10). */
export interface KdVat {
  rate: number;
  amount: number;
}

/** A kd request; money in integer hundredths, always absolute (non-negative). */
export interface KdRequest {
  /** Local time of the receipt, `YYYYMMDDhhmm`. */
  date: string;
  /** The seller's 10-digit corporate id. */
  org: string;
  /** Up to 16 ASCII letters/digits naming the register (see registerIdOf). */
  registerId: string;
  receiptNo: number;
  type: KdType;
  returnAmount: number;
  salesAmount: number;
  /** Zero to four rates; unused slots are sent as `0,00;0,00`. */
  vat: KdVat[];
}

/** The data fields in line order, between the command word and the CRC. */
export const KD_FIELDS = [
  'date',
  'org',
  'registerId',
  'receiptNo',
  'type',
  'returnAmount',
  'salesAmount',
  'vat1',
  'vat2',
  'vat3',
  'vat4',
] as const;
export type KdField = (typeof KD_FIELDS)[number];

/** The unit's return code for each field it refuses (its published table; 7 is a second "type of receipt" code). */
export const KD_FIELD_CODES: Readonly<Record<KdField, number>> = {
  date: 2,
  org: 3,
  registerId: 4,
  receiptNo: 5,
  type: 6,
  returnAmount: 8,
  salesAmount: 9,
  vat1: 10,
  vat2: 11,
  vat3: 12,
  vat4: 13,
};

/** The unit's return codes that name no field. */
export const KD_OK_CODE = 0;
export const KD_WRONG_LENGTH_CODE = -1;
export const KD_BAD_CRC_CODE = -2;
export const KD_UNKNOWN_COMMAND_CODE = -3;
export const KD_ARGUMENT_COUNT_CODE = 1;
export const KD_FIELD_AFTER_CRC_CODE = 22;
/** "Error in an internal counter": what a unit answers for a receipt number it has already registered otherwise. */
export const KD_INTERNAL_COUNTER_CODE = 23;

export const KD_VAT_SLOTS = 4;
/** Amounts up to 9 999 999 999,99 (10 digits, a comma, 2 decimals). */
export const KD_MAX_AMOUNT = 999_999_999_999;
/** A rate is at most 5 characters, `99,99`. */
export const KD_MAX_RATE = 9_999;
export const KD_MAX_RECEIPT_NO = 999_999_999_999;
export const KD_MAX_REGISTER_ID_LENGTH = 16;
const AMOUNT_LENGTH = 13;
const RATE_LENGTH = 5;
const CRC_LENGTH = 6;
/** The longest request line, CR LF excluded: every field at its longest; a longer line is -1. */
export const KD_MAX_LINE_LENGTH =
  ['kd', '202601011200', '5560360793'].join(' ').length +
  [KD_MAX_REGISTER_ID_LENGTH, 12, 6, AMOUNT_LENGTH, AMOUNT_LENGTH].reduce((sum, length) => sum + 1 + length, 0) +
  KD_VAT_SLOTS * (1 + RATE_LENGTH + 1 + AMOUNT_LENGTH) +
  1 +
  CRC_LENGTH;
const MAX_CONTROL_CODE_LENGTH = 64;
const EOL = '\r\n';

export function kdReturnCode(field: KdField): number {
  return KD_FIELD_CODES[field];
}

/** A request field the codec refuses; `returnCode` is what a unit answers for it. */
export class KdFieldError extends Error {
  readonly field: KdField;
  readonly returnCode: number;
  constructor(field: KdField, message: string) {
    super(`kd ${field}: ${message}`);
    this.name = 'KdFieldError';
    this.field = field;
    this.returnCode = kdReturnCode(field);
  }
}

/** CRC-16/XMODEM of the string's bytes (the line is ASCII by construction). */
export function crc16(text: string): number {
  let crc = 0;
  for (const byte of Buffer.from(text, 'latin1')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** The CRC token of what it covers: the line up to and including the space before the token. */
function crcToken(covered: string): string {
  return `0x${crc16(covered).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** A line's tokens before the CRC, framed: joined by single spaces, one space, the CRC, CR LF. */
function frame(tokens: readonly string[]): string {
  const covered = `${tokens.join(' ')} `;
  return `${covered}${crcToken(covered)}${EOL}`;
}

const CRC_TOKEN = /^0x[0-9A-F]{4}$/;

function isInteger(value: number, min: number, max: number): boolean {
  return Number.isSafeInteger(value) && value >= min && value <= max;
}

function validDate(date: string): boolean {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(date);
  if (!m) return false;
  const [year, month, day, hour, minute] = m.slice(1).map(Number) as [number, number, number, number, number];
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth && hour <= 23 && minute <= 59;
}

/** Every field of a request within its format and bounds, or the first one that is not (line order). */
export function validateKdRequest(request: KdRequest): void {
  if (!validDate(request.date)) throw new KdFieldError('date', `"${request.date}" is not a valid YYYYMMDDhhmm`);
  if (!/^\d{10}$/.test(request.org)) throw new KdFieldError('org', 'must be 10 digits');
  if (!new RegExp(`^[A-Za-z0-9]{1,${KD_MAX_REGISTER_ID_LENGTH}}$`).test(request.registerId)) {
    throw new KdFieldError('registerId', `must be 1 to ${KD_MAX_REGISTER_ID_LENGTH} ASCII letters or digits`);
  }
  if (!isInteger(request.receiptNo, 1, KD_MAX_RECEIPT_NO)) {
    throw new KdFieldError('receiptNo', `must be an integer from 1 to ${KD_MAX_RECEIPT_NO}`);
  }
  if (!KD_TYPES.includes(request.type)) throw new KdFieldError('type', `must be one of ${KD_TYPES.join(', ')}`);
  const amountRule = `must be an integer number of hundredths from 0 to ${KD_MAX_AMOUNT}`;
  if (!isInteger(request.returnAmount, 0, KD_MAX_AMOUNT)) throw new KdFieldError('returnAmount', amountRule);
  if (!isInteger(request.salesAmount, 0, KD_MAX_AMOUNT)) throw new KdFieldError('salesAmount', amountRule);
  if (request.vat.length > KD_VAT_SLOTS) throw new KdFieldError('vat4', `at most ${KD_VAT_SLOTS} VAT rates`);
  request.vat.forEach((vat, i) => {
    const field = `vat${i + 1}` as KdField;
    if (!isInteger(vat.rate, 0, KD_MAX_RATE)) {
      throw new KdFieldError(field, `rate must be 0 to ${KD_MAX_RATE} hundredths (at most ${RATE_LENGTH} characters)`);
    }
    if (!isInteger(vat.amount, 0, KD_MAX_AMOUNT)) throw new KdFieldError(field, `amount ${amountRule}`);
  });
}

/** Hundredths (validated: integers, not negative) as `125,50`. */
const decimal = (hundredths: number): string => formatHundredths(hundredths, ',');

const DECIMAL = /^\d{1,10},\d{2}$/;
const RATE = /^\d{1,2},\d{2}$/;

/** A field of the line's format (a decimal comma, exactly two decimals) as hundredths; NaN when out of format. */
const parseDecimal = (token: string, pattern = DECIMAL): number => (pattern.test(token) ? parseHundredths(token, ',') : NaN);

/** The kd line for a request, CRC and CR LF included; throws KdFieldError for a field out of bounds. */
export function encodeKd(request: KdRequest): string {
  validateKdRequest(request);
  const vats = Array.from({ length: KD_VAT_SLOTS }, (_, i) => request.vat[i] ?? { rate: 0, amount: 0 });
  return frame([
    'kd',
    request.date,
    request.org,
    request.registerId,
    String(request.receiptNo),
    request.type,
    decimal(request.returnAmount),
    decimal(request.salesAmount),
    ...vats.map((vat) => `${decimal(vat.rate)};${decimal(vat.amount)}`),
  ]);
}

export type KdDecodeResult = { ok: true; request: KdRequest } | { ok: false; returnCode: number; message: string };

function stripEol(text: string): string {
  return text.endsWith(EOL) ? text.slice(0, -EOL.length) : text;
}

/**
 * A kd line as a unit reads it: its length (-1), the CRC over the line up to and including the space before it (-2,
 * or 22 for fields after a CRC in its place), the command word (-3), the number of arguments (1), then each field in
 * line order (its code).
 */
export function decodeKd(text: string): KdDecodeResult {
  const line = stripEol(text);
  const refuse = (returnCode: number, message: string): KdDecodeResult => ({ ok: false, returnCode, message });
  if (line.length > KD_MAX_LINE_LENGTH) return refuse(KD_WRONG_LENGTH_CODE, `longer than ${KD_MAX_LINE_LENGTH} characters`);
  const tokens = line.split(' ');
  const token = tokens.at(-1) as string;
  const crcPlace = KD_FIELDS.length + 1;
  if (!CRC_TOKEN.test(token)) {
    return tokens.length > crcPlace + 1 && CRC_TOKEN.test(tokens[crcPlace] as string)
      ? refuse(KD_FIELD_AFTER_CRC_CODE, 'a field after the CRC field')
      : refuse(KD_BAD_CRC_CODE, 'no CRC field (0xXXXX) at the end');
  }
  const expected = crcToken(line.slice(0, line.length - token.length));
  if (expected !== token) return refuse(KD_BAD_CRC_CODE, `CRC ${token} does not match ${expected}`);
  if (tokens[0] !== 'kd') return refuse(KD_UNKNOWN_COMMAND_CODE, `unknown command "${tokens[0]}"`);
  if (tokens.length !== crcPlace + 1) {
    return refuse(KD_ARGUMENT_COUNT_CODE, `${tokens.length - 2} arguments, not ${KD_FIELDS.length}`);
  }
  const [, date, org, registerId, receiptNo, type, returnAmount, salesAmount, ...vatTokens] = tokens.slice(0, -1) as string[];
  // A malformed number becomes NaN, which validation refuses in line order with the field's code.
  const vat = vatTokens.map((vatToken): KdVat => {
    const parts = vatToken.split(';');
    return parts.length === 2
      ? { rate: parseDecimal(parts[0] as string, RATE), amount: parseDecimal(parts[1] as string) }
      : { rate: NaN, amount: NaN };
  });
  // Unused slots are `0,00;0,00`; the request carries only the rates up to the last used one.
  while (vat.length > 0 && vat.at(-1)?.rate === 0 && vat.at(-1)?.amount === 0) vat.pop();
  const request: KdRequest = {
    date: date as string,
    org: org as string,
    registerId: registerId as string,
    receiptNo: /^\d{1,12}$/.test(receiptNo as string) ? Number(receiptNo) : NaN,
    type: type as KdType,
    returnAmount: parseDecimal(returnAmount as string),
    salesAmount: parseDecimal(salesAmount as string),
    vat,
  };
  try {
    validateKdRequest(request);
  } catch (error) {
    if (error instanceof KdFieldError) return refuse(error.returnCode, error.message);
    throw error;
  }
  return { ok: true, request };
}

export interface KdReply {
  code: number;
  /** Present exactly when code is 0. */
  controlCode?: string;
}

export type KdReplyResult = ({ ok: true } & KdReply) | { ok: false; error: 'framing' | 'crc'; message: string; text: string };

const CONTROL_CODE = new RegExp(`^[\\x21-\\x7E]{1,${MAX_CONTROL_CODE_LENGTH}}$`);

/** The reply line a unit sends, CRC and CR LF included. */
export function encodeKdReply(reply: KdReply): string {
  if (!Number.isSafeInteger(reply.code)) throw new Error(`kd reply code ${reply.code} is not an integer`);
  if ((reply.code === 0) !== (reply.controlCode !== undefined)) {
    throw new Error('kd reply: a control code comes with code 0 and only then');
  }
  if (reply.controlCode !== undefined && !CONTROL_CODE.test(reply.controlCode)) {
    throw new Error(`kd reply: control code must be 1 to ${MAX_CONTROL_CODE_LENGTH} printable ASCII characters`);
  }
  return frame(reply.controlCode === undefined ? [String(reply.code)] : [String(reply.code), reply.controlCode]);
}

/** A unit's reply: `{code, controlCode}`, or a framing or CRC error (the bridge retries those once). */
export function decodeKdReply(text: string): KdReplyResult {
  const framing = (message: string): KdReplyResult => ({ ok: false, error: 'framing', message, text });
  const tokens = stripEol(text).split(' ');
  const token = tokens.pop() as string;
  if (tokens.length === 0 || !CRC_TOKEN.test(token)) return framing('no CRC field (0xXXXX) at the end');
  if (tokens.includes('')) return framing('tokens not separated by single spaces');
  const expected = crcToken(`${tokens.join(' ')} `);
  if (expected !== token) return { ok: false, error: 'crc', message: `CRC ${token} does not match ${expected}`, text };
  const [codeToken, controlCode, ...rest] = tokens;
  if (!/^-?\d{1,3}$/.test(codeToken as string) || rest.length > 0) return framing('not <code> [<control code>]');
  const code = Number(codeToken);
  if (code !== 0) return controlCode === undefined ? { ok: true, code } : framing('a control code with a refusal');
  if (controlCode === undefined || !CONTROL_CODE.test(controlCode)) return framing('code 0 without a control code');
  return { ok: true, code, controlCode };
}

/**
 * The registerId a register is known by at its unit: the name's letters and digits, diacritics dropped
 * (NFD, so `Kassa Östra 1` -> `KASSAOSTRA1`), uppercased, the first 16 kept. Different names can give
 * one id (`Kassa 1`, `kassa-1`); the unit would then mix two registers' receipts, so whoever assigns
 * registers to a unit must refuse a second register whose id collides. A name without any letter or
 * digit has no id (KdFieldError).
 */
export function registerIdOf(cashRegisterName: string): string {
  const id = cashRegisterName
    .normalize('NFD')
    .replace(/[^A-Za-z0-9]/g, '')
    .toUpperCase()
    .slice(0, KD_MAX_REGISTER_ID_LENGTH);
  if (id === '') throw new KdFieldError('registerId', `"${cashRegisterName}" has no letter or digit to name it by`);
  return id;
}

/**
 * The Swedish control-unit `kd` command (the field formats of SKVFS 2009:2 as public POS drivers use them): its fields, their formats and bounds, the CRC and the
 * reply, all in this one module, so a unit with other parameters is a change here only.
 *
 * Request line:  kd <date> <org> <registerId> <receiptNo> <type> <returnAmount> <salesAmount>
 *                   <vat1> <vat2> <vat3> <vat4> <crc> CR LF
 * Reply line:    <code> [<control code>] <crc> CR LF
 *
 * CRC: CRC-16/XMODEM (polynomial 0x1021, init 0x0000, no reflection, no final xor; check value of
 * "123456789" is 0x31C3), over the ASCII bytes of the line before the CRC field, without the single
 * space that separates it; written `0x` + four uppercase hex digits.
 *
 * Return codes of a unit refusing a field (the simulator answers them; the service reports them as
 * `details.returnCode`) number the tokens of the line in order: 1 the command word, 2 date, 3 org,
 * 4 registerId, 5 receiptNo, 6 type, 7 returnAmount, 8 salesAmount, 9-12 vat1-vat4, 13 the CRC field
 * (missing or malformed, or extra tokens before it); a well-formed CRC that does not match is -2.
 */

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

/** The fields in line order; a field's return code is its index + 1. */
export const KD_FIELDS = [
  'command',
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
  'crc',
] as const;
export type KdField = (typeof KD_FIELDS)[number];

export const KD_VAT_SLOTS = 4;
/** Amounts up to 9 999 999 999,99. */
export const KD_MAX_AMOUNT = 999_999_999_999;
export const KD_MAX_RATE = 10_000;
export const KD_MAX_RECEIPT_NO = 999_999_999_999;
export const KD_BAD_CRC_CODE = -2;
const MAX_CONTROL_CODE_LENGTH = 64;
const EOL = '\r\n';

export function kdReturnCode(field: KdField): number {
  return KD_FIELDS.indexOf(field) + 1;
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

function crcToken(text: string): string {
  return `0x${crc16(text).toString(16).toUpperCase().padStart(4, '0')}`;
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
  if (!/^[A-Za-z0-9]{1,16}$/.test(request.registerId)) {
    throw new KdFieldError('registerId', 'must be 1 to 16 ASCII letters or digits');
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
    if (!isInteger(vat.rate, 0, KD_MAX_RATE)) throw new KdFieldError(field, 'rate must be 0 to 10000 hundredths');
    if (!isInteger(vat.amount, 0, KD_MAX_AMOUNT)) throw new KdFieldError(field, `amount ${amountRule}`);
  });
}

/** Hundredths as `125,50`. */
function decimal(hundredths: number): string {
  return `${Math.floor(hundredths / 100)},${String(hundredths % 100).padStart(2, '0')}`;
}

const DECIMAL = /^(\d{1,10}),(\d{2})$/;

function parseDecimal(token: string): number {
  const m = DECIMAL.exec(token);
  return m ? Number(m[1]) * 100 + Number(m[2]) : NaN;
}

/** The kd line for a request, CRC and CR LF included; throws KdFieldError for a field out of bounds. */
export function encodeKd(request: KdRequest): string {
  validateKdRequest(request);
  const vats = Array.from({ length: KD_VAT_SLOTS }, (_, i) => request.vat[i] ?? { rate: 0, amount: 0 });
  const body = [
    'kd',
    request.date,
    request.org,
    request.registerId,
    String(request.receiptNo),
    request.type,
    decimal(request.returnAmount),
    decimal(request.salesAmount),
    ...vats.map((vat) => `${decimal(vat.rate)};${decimal(vat.amount)}`),
  ].join(' ');
  return `${body} ${crcToken(body)}${EOL}`;
}

export type KdDecodeResult = { ok: true; request: KdRequest } | { ok: false; returnCode: number; message: string };

function stripEol(text: string): string {
  return text.endsWith(EOL) ? text.slice(0, -EOL.length) : text;
}

/** Splits `<body> <crc>` and checks the CRC: the part the request and the reply share. */
function checkFrame(text: string): { body: string } | { error: 'framing' | 'crc'; message: string } {
  const line = stripEol(text);
  const cut = line.lastIndexOf(' ');
  const token = line.slice(cut + 1);
  if (cut < 0 || !CRC_TOKEN.test(token)) return { error: 'framing', message: 'no CRC field (0xXXXX) at the end' };
  const body = line.slice(0, cut);
  if (crcToken(body) !== token) return { error: 'crc', message: `CRC ${token} does not match ${crcToken(body)}` };
  return { body };
}

/** A kd line as a unit reads it: the CRC first (-2), then each field in order (its return code). */
export function decodeKd(text: string): KdDecodeResult {
  const frame = checkFrame(text);
  if ('error' in frame) {
    const returnCode = frame.error === 'crc' ? KD_BAD_CRC_CODE : kdReturnCode('crc');
    return { ok: false, returnCode, message: frame.message };
  }
  const tokens = frame.body.split(' ');
  const refuse = (field: KdField, message: string): KdDecodeResult => ({
    ok: false,
    returnCode: kdReturnCode(field),
    message: `kd ${field}: ${message}`,
  });
  if (tokens[0] !== 'kd') return refuse('command', 'the command is not kd');
  const dataFields = KD_FIELDS.length - 2;
  if (tokens.length > dataFields + 1) return refuse('crc', 'extra fields before the CRC');
  const present = tokens.length - 1;
  if (present < dataFields) return refuse(KD_FIELDS[present + 1] as KdField, 'missing');
  const [, date, org, registerId, receiptNo, type, returnAmount, salesAmount, ...vatTokens] = tokens as string[];
  // A malformed number becomes NaN, which validation refuses in line order with the field's code.
  const vat = vatTokens.map((token): KdVat => {
    const parts = token.split(';');
    return parts.length === 2
      ? { rate: parseDecimal(parts[0] as string), amount: parseDecimal(parts[1] as string) }
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
    if (error instanceof KdFieldError) return { ok: false, returnCode: error.returnCode, message: error.message };
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
  const body = reply.controlCode === undefined ? String(reply.code) : `${reply.code} ${reply.controlCode}`;
  return `${body} ${crcToken(body)}${EOL}`;
}

/** A unit's reply: `{code, controlCode}`, or a framing or CRC error (the bridge retries those once). */
export function decodeKdReply(text: string): KdReplyResult {
  const frame = checkFrame(text);
  if ('error' in frame) return { ok: false, error: frame.error, message: frame.message, text };
  const framing = (message: string): KdReplyResult => ({ ok: false, error: 'framing', message, text });
  const [codeToken, controlCode, ...rest] = frame.body.split(' ');
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
    .slice(0, 16);
  if (id === '') throw new KdFieldError('registerId', `"${cashRegisterName}" has no letter or digit to name it by`);
  return id;
}

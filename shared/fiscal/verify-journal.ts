/**
 * Offline verification of a register's signed electronic journal (v33
 * `GET /{sellerId}/generated-e-journals/{cash}`).
 *
 * Meant to be copied into an auditor's or a register's code base with shared/signing/ecdsa-p256.ts (the
 * signature check it shares with the activation-code verifier): the two depend on node:crypto only
 * (Node.js 18 or newer). The public key is the one served at
 * `GET /v{N}/noauth/activations/public-keys/{publicKeyFileName}`.
 *
 * What is checked, in this order, stopping at the first fault:
 * 1. every entry's `hash` is the SHA-256 (lowercase hex) of the canonical JSON (below) of the entry
 *    without its `hash` key;
 * 2. the chain: sequences are consecutive integers, each `previousHash` is the previous entry's `hash`,
 *    and an entry with sequence 1 has 64 zeros as `previousHash` (a slice starting later is checked
 *    from its own first `previousHash`, which that entry's hash covers);
 * 3. `head` is `{sequence, hash}` of the last entry (of an empty journal: sequence 0 and 64 zeros);
 * 4. `signature` is the base64 of a DER ECDSA P-256 / SHA-256 signature, by the served key, over the
 *    UTF-8 bytes of `canonicalJson({cashRegisterName, generated, hash, sellerId, sequence})` with the
 *    head's `hash` and `sequence` (see `headMessage`).
 */
import { createHash } from 'node:crypto';
import { verifyEcdsaP256 } from '../signing/ecdsa-p256.ts';

/** A value JSON can carry. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** One journal entry as it is served; every key is present, absent values are null. */
export interface JournalEntryRecord {
  /** 1, 2, 3, ... per register, without gaps. */
  sequence: number;
  type: string;
  /** When it was written, epoch milliseconds. */
  created: number;
  dayNumber: number | null;
  saleIdentifier: string | null;
  receiptNumber: number | null;
  printType: string | null;
  /** Integer hundredths; the event's type says what it is the amount of. */
  amount: number | null;
  controlCode: string | null;
  data: JsonValue;
  /** The previous entry's `hash`; 64 zeros for sequence 1. */
  previousHash: string;
  /** SHA-256 (hex) of the canonical JSON of this entry without `hash`. */
  hash: string;
}

/** The last entry of a journal or slice: its sequence and hash. */
export interface JournalHead {
  sequence: number;
  hash: string;
}

/** The signed journal document: the whole chain or a contiguous slice, with its head signed. */
export interface SignedJournal<Entry extends JournalEntryRecord = JournalEntryRecord> {
  sellerId: string;
  cashRegisterName: string;
  /** When the document was made, epoch milliseconds. */
  generated: number;
  entries: Entry[];
  head: JournalHead;
  /** Base64 of the DER ECDSA P-256 / SHA-256 signature over `headMessage(document)`. */
  signature: string;
  /** The file name under which the server serves the public key. */
  publicKeyFileName: string;
}

/**
 * `valid: false` names the first broken entry's `sequence`, or null when the fault is not in one entry
 * (the document's shape, its head or its signature).
 */
export type JournalVerification =
  { valid: true; entries: number; head: JournalHead } | { valid: false; reason: string; sequence: number | null };

/** The `previousHash` of sequence 1, and the hash of an empty journal's head. */
export const ZERO_HASH = '0'.repeat(64);

/**
 * The canonical JSON text of `value`: the exact characters every entry hash and head signature covers,
 * hashed and signed as UTF-8. Anyone re-implementing it must write:
 * - `null`, `true`, `false` as those words;
 * - numbers as ECMAScript's `JSON.stringify` writes them (shortest round-trip form: `125`, `-3`,
 *   `0.5`, `1e+21`; `-0` as `0`); NaN and the infinities are refused;
 * - strings as `JSON.stringify` writes them: in double quotes, `"` and `\` escaped with a backslash,
 *   U+0008, U+0009, U+000A, U+000C, U+000D as `\b \t \n \f \r`, the other characters below U+0020 as
 *   `\u00xx` (lowercase hex), every other character as itself (no `\u` escapes of non-ASCII);
 * - arrays as `[` elements `,`-separated in their order `]`;
 * - objects as `{` `"key":value` pairs `,`-separated `}`, keys sorted ascending by their UTF-16 code
 *   units (JavaScript's default sort; for keys in the Basic Multilingual Plane this is code-point order);
 * - no whitespace anywhere outside strings.
 * This is RFC 8785 (the JSON Canonicalization Scheme) for the values a journal holds. Anything that is not
 * JSON (undefined, functions, bigints, symbols, class instances such as Date) is refused with a TypeError.
 */
export function canonicalJson(value: unknown): string {
  return canonical(value, []);
}

/**
 * A string JSON.stringify writes as itself in quotes: no `"`, `\\`, control character or lone surrogate, which it
 * escapes. Any other string goes to JSON.stringify (U+007F-U+009F too, which it leaves as they are).
 */
const PLAIN = /^[^"\\\p{Cc}\p{Cs}]*$/u;

/**
 * `at` is the path to `value` (keys and indexes), pushed and popped as the walk goes: it is joined into text only
 * for an error's message, since building it for every value cost more than the rest of the walk.
 */
function canonical(value: unknown, at: (string | number)[]): string {
  if (typeof value === 'string') return PLAIN.test(value) ? `"${value}"` : JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`${pathOf(at)} is ${value}, which JSON cannot carry`);
    return String(value); // as JSON.stringify writes a finite number
  }
  if (value === null || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    let text = '[';
    for (let index = 0; index < value.length; index++) {
      at.push(index);
      text += (index === 0 ? '' : ',') + canonical(value[index], at);
      at.pop();
    }
    return `${text}]`;
  }
  if (typeof value === 'object') {
    const prototype: unknown = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) throw new TypeError(`${pathOf(at)} is not a plain object`);
    const record = value as Record<string, unknown>;
    let text = '{';
    for (const key of Object.keys(record).sort()) {
      at.push(key);
      text += (text === '{' ? '' : ',') + `${canonical(key, at)}:${canonical(record[key], at)}`;
      at.pop();
    }
    return `${text}}`;
  }
  throw new TypeError(`${pathOf(at)} is ${typeof value}, which JSON cannot carry`);
}

/** `$.saleProducts[2].delta`: a path as an error names it. */
const pathOf = (at: readonly (string | number)[]): string =>
  at.reduce<string>((path, step) => (typeof step === 'number' ? `${path}[${step}]` : `${path}.${step}`), '$');

/** An entry's `hash`: SHA-256 (lowercase hex) of the UTF-8 canonical JSON of the entry without `hash`. */
export function entryHash(entry: Omit<JournalEntryRecord, 'hash'>): string {
  return createHash('sha256')
    .update(canonicalJson(entry as unknown as JsonValue), 'utf8')
    .digest('hex');
}

/** The text whose UTF-8 bytes the head signature covers. */
export function headMessage(journal: Pick<SignedJournal, 'sellerId' | 'cashRegisterName' | 'generated' | 'head'>): string {
  const { sellerId, cashRegisterName, generated, head } = journal;
  return canonicalJson({ cashRegisterName, generated, hash: head.hash, sellerId, sequence: head.sequence });
}

const HASH = /^[0-9a-f]{64}$/;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isSequence = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
const isHash = (value: unknown): value is string => typeof value === 'string' && HASH.test(value);

/** The first fault of one entry given the entry before it (undefined for the first), or undefined. */
function entryFault(
  entry: unknown,
  index: number,
  previous: JournalHead | undefined,
): { reason: string; sequence: number | null } | undefined {
  if (!isRecord(entry)) return { reason: `entry ${index} is not an object`, sequence: null };
  const { hash, ...withoutHash } = entry;
  const { sequence, previousHash } = withoutHash;
  if (!isSequence(sequence) || sequence === 0) {
    return { reason: `entry ${index} has no sequence (a positive integer)`, sequence: null };
  }
  if (previous && sequence !== previous.sequence + 1) {
    return { reason: `sequence ${sequence} follows ${previous.sequence}`, sequence };
  }
  if (!isHash(hash)) return { reason: 'hash is not 64 lowercase hex digits', sequence };
  if (!isHash(previousHash)) return { reason: 'previousHash is not 64 lowercase hex digits', sequence };
  let computed: string;
  try {
    computed = entryHash(withoutHash as unknown as Omit<JournalEntryRecord, 'hash'>);
  } catch (error) {
    return { reason: `entry is not JSON: ${(error as Error).message}`, sequence };
  }
  if (computed !== hash) return { reason: 'hash does not match the entry', sequence };
  if (previous && previousHash !== previous.hash) {
    return { reason: `previousHash is not the hash of sequence ${previous.sequence}`, sequence };
  }
  if (sequence === 1 && previousHash !== ZERO_HASH) return { reason: 'sequence 1 does not chain to 64 zeros', sequence };
  return undefined;
}

/**
 * Whether `document` is an unbroken, unaltered journal (or contiguous slice of one) whose head was
 * signed by the holder of `publicKeyPem`. Never throws: a malformed document, a wrong key or signature
 * are `valid: false`, with the first broken entry's sequence where one entry is at fault.
 */
export function verifyJournal(document: unknown, publicKeyPem: string): JournalVerification {
  const invalid = (reason: string, sequence: number | null = null): JournalVerification => ({ valid: false, reason, sequence });
  // The document usually comes straight from JSON.parse, so its shape is checked, not assumed.
  if (!isRecord(document)) return invalid('journal is not an object');
  const { sellerId, cashRegisterName, generated, entries, head, signature } = document;
  if (typeof sellerId !== 'string') return invalid('sellerId is not a string');
  if (typeof cashRegisterName !== 'string') return invalid('cashRegisterName is not a string');
  if (!Number.isSafeInteger(generated)) return invalid('generated is not an integer');
  if (!Array.isArray(entries)) return invalid('entries is not an array');
  if (!isRecord(head) || !isSequence(head.sequence) || !isHash(head.hash)) {
    return invalid('head is not {sequence, hash}');
  }
  if (typeof signature !== 'string') return invalid('signature is not a string');
  if (typeof publicKeyPem !== 'string') return invalid('public key is not a PEM public key');

  let last: JournalHead | undefined;
  for (const [index, entry] of entries.entries()) {
    const fault = entryFault(entry, index, last);
    if (fault) return invalid(fault.reason, fault.sequence);
    const { sequence, hash } = entry as JournalHead;
    last = { sequence, hash };
  }
  const expectedHead = last ?? { sequence: 0, hash: ZERO_HASH };
  if (head.sequence !== expectedHead.sequence || head.hash !== expectedHead.hash) {
    return invalid(last ? 'head does not match the last entry' : 'head of an empty journal is not sequence 0');
  }
  const verifiedHead: JournalHead = { sequence: head.sequence, hash: head.hash };
  const failure = verifyEcdsaP256(
    headMessage({ sellerId, cashRegisterName, generated: generated as number, head: verifiedHead }),
    signature,
    publicKeyPem,
    'the head',
  );
  if (failure !== undefined) return invalid(failure);
  return { valid: true, entries: entries.length, head: verifiedHead };
}

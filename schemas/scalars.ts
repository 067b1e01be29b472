/**
 * The scalar types of spec 2.1, shared by every resource schema through
 * `$ref: 'scalars#/$defs/<name>'`. The definitions carry only constraints; the referring
 * property says `type: 'string'` (req) or `type: ['string', 'null']` (null), so one definition
 * serves both. Every string of a body refers to one of them (or is an enumeration).
 */

/**
 * Refused in every string (docs/decisions.md, Text hygiene): C0 and C1 control characters and DEL,
 * UTF-16 surrogates, which a `u`-mode pattern (Ajv's default) sees only when they are unpaired, and U+FFFD, the mark a
 * lenient UTF-8 decoder leaves where bytes were lost.
 */
const refused = '\\u0000-\\u001F\\u007F-\\u009F\\uD800-\\uDFFF\\uFFFD';
/** A multi-line field takes tab, LF and CR (U+0009, U+000A, U+000D) as well. */
const refusedInMultiline = '\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F\\uD800-\\uDFFF\\uFFFD';
/** Control characters and \ ? * : " ; | / < > are never allowed (spec 2.1). */
const allowedChars = `[^${refused}\\\\?*:";|/<>]`;
const singleLine = `^[^${refused}]*$`;
const multiline = `^[^${refusedInMultiline}]*$`;
/** Device-style names a file system reserves (spec 2.1), refused as whole values. */
const reservedNames = '(?!(?:PRN|AUX|CLOCK\\$|NUL|CON|COM[0-9]|LPT[0-9]|\\.|\\.\\.)$)';

export const scalars = {
  $id: 'scalars',
  $defs: {
    identifier: { minLength: 1, maxLength: 50, pattern: `^${reservedNames}${allowedChars}+$` },
    corporateId: { minLength: 1, maxLength: 95, pattern: `^${allowedChars}+$` },
    productionNumber: { minLength: 1, maxLength: 25, pattern: `^${allowedChars}+$` },
    deviceId: { minLength: 1, maxLength: 17, pattern: `^${allowedChars}+$` },
    applicationPackage: { minLength: 1, maxLength: 120, pattern: `^${allowedChars}+$` },
    country: { minLength: 2, maxLength: 2, pattern: '^[A-Z]{2}$' },
    cashRegisterName: { minLength: 1, maxLength: 16, pattern: `^${allowedChars}+$` },
    custom: { maxLength: 65535, pattern: multiline },
    /** Every other string: `$ref` one of these, so no string escapes the rule (tests/unit/text-hygiene.test.ts). */
    text: { pattern: singleLine },
    multilineText: { pattern: multiline },
    /**
     * Base64 text (RFC 4648, standard alphabet, padded): the characters here, the padding's place and the length in
     * `functions/email`. A char-class pattern stays linear on megabytes, where a grouped one overflows the stack.
     * `contentEncoding` makes a mismatch `SHOULD_BE_BASE64_ENCODED` (shared/http/validation.ts).
     */
    base64: { pattern: '^[A-Za-z0-9+/]*={0,2}$', contentEncoding: 'base64' },
    /** A Java int: every integer the spec names is one unless it says Date. */
    int32: { minimum: -2147483648, maximum: 2147483647 },
    /** A Date: milliseconds since the epoch, within the range a JavaScript Date can hold. */
    date: { minimum: -8640000000000000, maximum: 8640000000000000 },
  },
} as const;

export type ScalarName = keyof (typeof scalars)['$defs'];

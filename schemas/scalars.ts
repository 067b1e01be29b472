/**
 * The scalar types of spec 2.1, shared by every resource schema through
 * `$ref: 'scalars#/$defs/<name>'`. The definitions carry only constraints; the referring
 * property says `type: 'string'` (req) or `type: ['string', 'null']` (null), so one definition
 * serves both.
 */

/** Control characters and \ ? * : " ; | / < > are never allowed (spec 2.1). */
const allowedChars = '[^\\u0000-\\u001F\\u007F-\\u009F\\\\?*:";|/<>]';
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
    custom: { maxLength: 65535 },
    /** A Java int: every integer the spec names is one unless it says Date. */
    int32: { minimum: -2147483648, maximum: 2147483647 },
    /** A Date: milliseconds since the epoch, within the range a JavaScript Date can hold. */
    date: { minimum: -8640000000000000, maximum: 8640000000000000 },
  },
} as const;

export type ScalarName = keyof (typeof scalars)['$defs'];

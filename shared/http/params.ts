import { scalars } from '#schemas/scalars.ts';
import { patternMismatch, valueNotValid } from '#shared/errors.ts';
import { splitSellerId } from '#shared/domain/seller.ts';
import { intParam, notNegative } from './query.ts';

interface TextRule {
  minLength: number;
  maxLength: number;
  pattern: string;
  regex: RegExp;
}

/** The scalar rules path parameters use, their patterns compiled once per cold start. */
const compile = (rule: { minLength: number; maxLength: number; pattern: string }): TextRule => ({
  ...rule,
  regex: new RegExp(rule.pattern, 'u'),
});
const identifier = compile(scalars.$defs.identifier);
const corporateId = compile(scalars.$defs.corporateId);
const country = compile(scalars.$defs.country);
const cashRegisterName = compile(scalars.$defs.cashRegisterName);
const productionNumber = compile(scalars.$defs.productionNumber);
const deviceId = compile(scalars.$defs.deviceId);
const applicationPackage = compile(scalars.$defs.applicationPackage);
/** A control unit's serial: 1 to 20 characters (spec 8), none of them a path separator. */
const controlUnitSerial = compile({ minLength: 1, maxLength: 20, pattern: '^[^/]+$' });

function checkText(field: string, value: string, rule: TextRule): void {
  const length = [...value].length;
  if (length < rule.minLength || length > rule.maxLength) {
    const code = rule.minLength === rule.maxLength ? 'SIZE_SHOULD_BE_EQUAL_EXACTLY' : 'SIZE_SHOULD_BE_IN_RANGE';
    throw valueNotValid(code, `${field} has the wrong size`, {
      field,
      actualValue: length,
      sizeMin: rule.minLength,
      sizeMax: rule.maxLength,
    });
  }
  if (!rule.regex.test(value)) throw patternMismatch(field, value, rule.pattern);
}

/** An identifierType value outside the path (a query parameter such as an image's `filename`): 400 ValueNotValid. */
export const checkIdentifier = (field: string, value: string): void => checkText(field, value, identifier);

/** A seller id in a path: the country code followed directly by the corporate id (docs/conventions.md §9). */
export function parseSellerId(value: string, field = 'sellerId'): { country: string; corporateId: string } {
  const parsed = splitSellerId(value);
  checkText(field, parsed.country, country);
  checkText(field, parsed.corporateId, corporateId);
  return parsed;
}

/**
 * Every path parameter name the service uses, with its rule; the router applies them to each
 * matched route, so a domain function only ever sees well-formed parameters.
 */
const rules: Record<string, (name: string, value: string) => void> = {
  sellerId: (name, value) => void parseSellerId(value, name),
  identifier: (name, value) => checkText(name, value, identifier),
  cash: (name, value) => checkText(name, value, cashRegisterName),
  versionFrom: (name, value) => void notNegative(name, intParam(name, value) ?? 0),
  versionTo: (name, value) => void notNegative(name, intParam(name, value) ?? 0),
  username: (name, value) => checkText(name, value, identifier),
  productionNumber: (name, value) => checkText(name, value, productionNumber),
  deviceId: (name, value) => checkText(name, value, deviceId),
  applicationPackage: (name, value) => checkText(name, value, applicationPackage),
  publicKeyFileName: (name, value) => checkText(name, value, identifier),
  activationId: (name, value) => void notNegative(name, intParam(name, value) ?? 0),
  vendorId: (name, value) => void notNegative(name, intParam(name, value) ?? 0),
  serial: (name, value) => checkText(name, value, controlUnitSerial),
  categoryIdentifier: (name, value) => checkText(name, value, identifier),
  productIdentifier: (name, value) => checkText(name, value, identifier),
  // Image file names follow identifierType (spec 2.3, 8).
  pictureFilename: (name, value) => checkText(name, value, identifier),
  // imageVersionType (`current`, `version`; v15) or a version number (v26, v33); the route tells which the version takes.
  pictureVersion: (name, value) => {
    if (value !== 'current' && value !== 'version') notNegative(name, intParam(name, value) ?? 0);
  },
  orderId: (name, value) => void notNegative(name, intParam(name, value) ?? 0),
  saleId: (name, value) => checkText(name, value, identifier),
  // A digital receipt's token: any value reaches the function, which answers 404 for one it never made (docs/conventions.md §16).
  token: () => undefined,
  // A register's day is named by its dayNumber (docs/conventions.md §17).
  dayId: (name, value) => void notNegative(name, intParam(name, value) ?? 0),
  dayIdentifier: (name, value) => void notNegative(name, intParam(name, value) ?? 0),
  // An export job's id (docs/conventions.md §28).
  exportId: (name, value) => checkText(name, value, identifier),
};

export function checkPathParams(params: Readonly<Record<string, string>>): void {
  for (const [name, value] of Object.entries(params)) rules[name]?.(name, value);
}

/** Refuses, at cold start, a path parameter without a rule here (`RouteTable` asks for each one a route names). */
export function assertKnownParam(name: string, path: string): void {
  if (!rules[name]) throw new Error(`Path parameter {${name}} of ${path} has no rule in shared/http/params.ts`);
}

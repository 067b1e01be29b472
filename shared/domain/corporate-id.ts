import { valueNotValid } from '#shared/errors.ts';
import type { CorporateIdValidationMethod } from './records.ts';

/**
 * A Swedish organisation or personal identity number as written: ten digits (`YYMMDD-NNNC`, the
 * separator `-`, `+` for a person over a hundred, or none), or twelve with the century in front
 * (`19`, `20`, ...; `16` for an organisation), optionally with `-`.
 */
const SWEDISH = /^(?<century>16|18|19|20)?(?<head>\d{6})(?<separator>[-+]?)(?<tail>\d{4})$/;

const between = (value: number, low: number, high: number) => value >= low && value <= high;

/** Organisation numbers have 20 or more where a personal number has its month. */
const isOrganisation = (digits: string) => Number(digits.slice(2, 4)) >= 20;

/** A birth date's month and day; coordination numbers add 60 to the day. */
function isPersonal(digits: string): boolean {
  const month = Number(digits.slice(2, 4));
  const day = Number(digits.slice(4, 6));
  return between(month, 1, 12) && (between(day, 1, 31) || between(day, 61, 91));
}

/** The ten digits of a well-formed number, or undefined when the text is no Swedish number. */
function swedishDigits(text: string): string | undefined {
  const groups = SWEDISH.exec(text)?.groups;
  if (!groups) return undefined;
  const { century, head = '', separator, tail = '' } = groups;
  const digits = head + tail;
  if (century === undefined) return isOrganisation(digits) || isPersonal(digits) ? digits : undefined;
  if (separator === '+') return undefined;
  return (century === '16' ? isOrganisation(digits) : isPersonal(digits)) ? digits : undefined;
}

/** The Luhn check (weights 2, 1, 2, ... from the left) over the ten digits, the last being the check digit. */
function luhnValid(digits: string): boolean {
  let sum = 0;
  for (const [index, character] of [...digits].entries()) {
    const product = Number(character) * (index % 2 === 0 ? 2 : 1);
    sum += product > 9 ? product - 9 : product;
  }
  return sum % 10 === 0;
}

/**
 * Checks a seller's corporate id with its application's validation method (spec 2.2
 * corporateIdValidationMethodType): `NONE` accepts anything; `VALIDATE_SWEDISH` wants a Swedish
 * organisation or personal number, throwing 400 ValueNotValid `SHOULD_MATCH_CORPORATE_ID_VALIDATION_SWEDISH`
 * for another shape and `SHOULD_MATCH_CORPORATE_ID_VALIDATION_LUHN` for a wrong check digit.
 */
export function checkCorporateId(method: CorporateIdValidationMethod, corporateId: string, field = 'corporateId'): void {
  if (method === 'NONE') return;
  const digits = swedishDigits(corporateId);
  if (digits === undefined) {
    throw valueNotValid(
      'SHOULD_MATCH_CORPORATE_ID_VALIDATION_SWEDISH',
      `${field} is not a Swedish organisation or personal number`,
      { field, actualValue: corporateId },
    );
  }
  if (!luhnValid(digits)) {
    throw valueNotValid('SHOULD_MATCH_CORPORATE_ID_VALIDATION_LUHN', `${field} has a wrong check digit`, {
      field,
      actualValue: corporateId,
    });
  }
}

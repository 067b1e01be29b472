import { describe, expect, it } from 'vitest';
import { checkCorporateId } from '#shared/domain/corporate-id.ts';
import { ApiError } from '#shared/errors.ts';

/** The error a check throws, as a client would see it; undefined when the id is accepted. */
function refusal(corporateId: string, field?: string) {
  try {
    checkCorporateId('VALIDATE_SWEDISH', corporateId, field);
    return undefined;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { status: error.status, exception: error.exception, code: error.code, details: error.details };
  }
}

const SWEDISH = 'SHOULD_MATCH_CORPORATE_ID_VALIDATION_SWEDISH';
const LUHN = 'SHOULD_MATCH_CORPORATE_ID_VALIDATION_LUHN';

describe('checkCorporateId', () => {
  it.each([
    ['5560360793', 'an organisation number, ten digits'],
    ['556036-0793', 'an organisation number with its hyphen'],
    ['165560360793', 'an organisation number with the 16 prefix'],
    ['16556036-0793', 'an organisation number with the 16 prefix and a hyphen'],
    ['8112189876', 'a personal number, ten digits'],
    ['811218-9876', 'a personal number with its hyphen'],
    ['811218+9876', 'a personal number of someone over a hundred'],
    ['198112189876', 'a personal number with the century'],
    ['19811218-9876', 'a personal number with the century and a hyphen'],
    ['20121212-1212', 'a personal number of this century'],
    ['811278-9873', 'a coordination number (day + 60)'],
  ])('VALIDATE_SWEDISH accepts %s (%s)', (corporateId) => {
    expect(refusal(corporateId)).toBeUndefined();
  });

  it.each([
    ['556036-0794', 'an organisation number'],
    ['5560360790', 'an organisation number without hyphen'],
    ['165560360792', 'an organisation number with the 16 prefix'],
    ['19811218-9875', 'a personal number'],
    ['811278-9874', 'a coordination number'],
  ])('VALIDATE_SWEDISH refuses %s (%s with a wrong check digit) with LUHN', (corporateId) => {
    expect(refusal(corporateId)).toEqual({
      status: 400,
      exception: 'ValueNotValid',
      code: LUHN,
      details: { field: 'corporateId', actualValue: corporateId },
    });
  });

  it.each([
    ['12345', 'too short'],
    ['55603607930', 'eleven digits'],
    ['5560360793 ', 'a trailing space'],
    ['556036 0793', 'a space for a separator'],
    ['556036--0793', 'two separators'],
    ['', 'empty'],
    ['abcdefghij', 'letters'],
    ['215560360793', 'a twelve-digit number with an unknown prefix'],
    ['19556036-0793', 'an organisation number with a century'],
    ['16811218-9876', 'a personal number with the organisation prefix'],
    ['19811218+9876', 'a plus with a century'],
    ['811318-9876', 'month 13'],
    ['810018-9876', 'month 00'],
    ['811200-9876', 'day 00'],
    ['811232-9876', 'day 32'],
    ['811260-9876', 'day 60 (neither a date nor a coordination number)'],
    ['811292-9876', 'day 92'],
  ])('VALIDATE_SWEDISH refuses %s (%s) with SWEDISH', (corporateId) => {
    expect(refusal(corporateId)).toMatchObject({ status: 400, exception: 'ValueNotValid', code: SWEDISH });
  });

  it('names the field it was given', () => {
    expect(refusal('12345', 'installation.corporateId')).toEqual({
      status: 400,
      exception: 'ValueNotValid',
      code: SWEDISH,
      details: { field: 'installation.corporateId', actualValue: '12345' },
    });
  });

  it('NONE accepts anything', () => {
    for (const corporateId of ['12345', '556036-0794', 'Acme Ltd', '']) {
      expect(() => checkCorporateId('NONE', corporateId)).not.toThrow();
    }
  });
});

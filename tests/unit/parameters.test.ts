import { describe, expect, it } from 'vitest';
import { parseBasic } from '#shared/auth/credentials.ts';
import { ApiError } from '#shared/errors.ts';
import { checkPreconditions, preconditions, unchangedSince } from '#shared/http/conditions.ts';
import { parseSellerId } from '#shared/http/params.ts';
import { listParams, requiredInt } from '#shared/http/query.ts';
import { merge, present } from '#shared/versions.ts';

function failure(run: () => unknown) {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, exception: error.exception, code: error.code };
    throw error;
  }
  throw new Error('accepted');
}

describe('LIST parameters', () => {
  it('default to firstResult 0 and maxResults 100', () => {
    expect(listParams(new URLSearchParams(), ['name'])).toEqual({
      firstResult: 0,
      maxResults: 100,
      like: undefined,
      orderBy: undefined,
      orderDesc: false,
    });
  });

  it('accept maxResults up to 1000 and refuse more with SERVER_IS_OVERLOADED', () => {
    expect(listParams(new URLSearchParams('maxResults=1000'), []).maxResults).toBe(1000);
    expect(failure(() => listParams(new URLSearchParams('maxResults=1001'), []))).toEqual({
      status: 409,
      exception: 'InconsistentData',
      code: 'SERVER_IS_OVERLOADED',
    });
  });

  it('refuse a negative value with QUERY_PARAM_CANT_BE_NEGATIVE', () => {
    expect(failure(() => listParams(new URLSearchParams('firstResult=-1'), []))).toMatchObject({
      status: 409,
      code: 'QUERY_PARAM_CANT_BE_NEGATIVE',
    });
  });

  it('refuse a value of the wrong type with TypeMismatch', () => {
    for (const query of ['maxResults=ten', 'firstResult=1.5', 'orderDesc=maybe', 'orderBy=colour']) {
      expect(failure(() => listParams(new URLSearchParams(query), ['name']))).toMatchObject({
        status: 400,
        exception: 'TypeMismatch',
      });
    }
  });

  it('a required parameter that is absent is RequestParameterMissing', () => {
    expect(failure(() => requiredInt('from', null))).toEqual({ status: 400, exception: 'RequestParameterMissing', code: null });
  });
});

describe('entity tags', () => {
  it('a malformed If-Match is InvalidETagFormat', () => {
    for (const tag of ['3', 'W/"3"', '"x"', '"3']) {
      expect(failure(() => preconditions({ 'if-match': tag }))).toMatchObject({ status: 400, exception: 'InvalidETagFormat' });
    }
  });

  it('If-Match must name the current version; * needs the entity to exist', () => {
    expect(() => checkPreconditions(preconditions({ 'if-match': '"3", "4"' }), 4)).not.toThrow();
    expect(failure(() => checkPreconditions(preconditions({ 'if-match': '"3"' }), 4))).toMatchObject({
      status: 409,
      exception: 'VersionConflict',
    });
    expect(failure(() => checkPreconditions(preconditions({ 'if-match': '*' }), undefined))).toMatchObject({ status: 409 });
  });

  it('If-None-Match: * makes a write create-only', () => {
    expect(() => checkPreconditions(preconditions({ 'if-none-match': '*' }), undefined)).not.toThrow();
    expect(failure(() => checkPreconditions(preconditions({ 'if-none-match': '*' }), 1))).toMatchObject({ status: 409 });
  });

  it('a read whose If-None-Match names the current version is unchanged', () => {
    expect(unchangedSince({ 'if-none-match': '"7"' }, 7)).toBe(true);
    expect(unchangedSince({ 'if-none-match': '"6"' }, 7)).toBe(false);
    expect(unchangedSince({}, 7)).toBe(false);
  });
});

describe('credentials and path parameters', () => {
  it('reads Basic credentials, the password may hold colons', () => {
    const header = `Basic ${Buffer.from('anna:pa:ss').toString('base64')}`;
    expect(parseBasic(header)).toEqual({ username: 'anna', password: 'pa:ss' });
  });

  it('Basic credentials without a colon are an API key, as apps written for srv4pos send it', () => {
    const header = `Basic ${Buffer.from('Zm9vYmFyLWtleS0xMjM0NTY3ODkwYWJj').toString('base64')}`;
    expect(parseBasic(header)).toEqual({ apiKey: 'Zm9vYmFyLWtleS0xMjM0NTY3ODkwYWJj' });
  });

  it('an empty username, another scheme or broken base64 is AUTHORIZATION_DATA_IS_NOT_VALID', () => {
    for (const header of [`Basic ${Buffer.from(':secret').toString('base64')}`, 'Bearer abc', 'Basic !!!', 'Basic']) {
      expect(failure(() => parseBasic(header))).toEqual({
        status: 403,
        exception: 'Forbidden',
        code: 'AUTHORIZATION_DATA_IS_NOT_VALID',
      });
    }
  });

  it('a seller id is the country code followed by the corporate id', () => {
    expect(parseSellerId('SE5560360793')).toEqual({ country: 'SE', corporateId: '5560360793' });
    expect(failure(() => parseSellerId('SE'))).toMatchObject({ exception: 'ValueNotValid', code: 'SIZE_SHOULD_BE_IN_RANGE' });
    expect(failure(() => parseSellerId('se123'))).toMatchObject({ code: 'SHOULD_MATCH_PATTERN' });
  });
});

describe('versioned views', () => {
  const fieldsV15 = ['name', 'city'] as const;
  type Shop = { name?: string | null; city?: string | null; zip?: string | null };

  it('a write through an older version keeps the fields only newer versions have', () => {
    const stored: Shop = { name: 'A', city: 'Lund', zip: '22100' };
    expect(merge<Shop>(stored, { name: 'B', city: null }, [...fieldsV15])).toEqual({ name: 'B', zip: '22100' });
  });

  it('a version shows its own fields only, absent ones as null', () => {
    expect(present<Shop>({ name: 'A', zip: '1' }, [...fieldsV15])).toEqual({ name: 'A', city: null });
  });
});

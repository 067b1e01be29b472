import { describe, expect, it } from 'vitest';
import {
  ApiError,
  controlUnitReceipt,
  entityTooLarge,
  EXCEPTIONS,
  type Exception,
  headerMissing,
  inconsistentData,
  invalidETag,
  messageNotReadable,
  parameterMissing,
  patternMismatch,
  typeMismatch,
  unauthorized,
  valueNotValid,
} from '#shared/errors.ts';
import { errorBody, errorResult } from '#shared/http/response.ts';

const parsed = (error: ApiError) => JSON.parse(String(errorResult(error).body)) as unknown;

describe('the error body (docs/conventions.md §3)', () => {
  it('names every exception with the suffix JsonException beside exception, code and message', () => {
    for (const exception of Object.keys(EXCEPTIONS) as Exception[]) {
      const body = errorBody(new ApiError<Exception>(exception, null, 'text'));
      expect(body).toEqual({ error: `${exception}JsonException`, exception, code: null, message: 'text', details: [] });
    }
  });

  it('answers the status, the JSON media type and the headers of the error', () => {
    const result = errorResult(unauthorized());
    expect(result.statusCode).toBe(401);
    expect(result.headers).toMatchObject({
      'Content-Type': 'application/json;charset=UTF-8',
      'WWW-Authenticate': expect.any(String),
    });
    expect(parsed(unauthorized())).toEqual({
      error: 'UnauthorizedJsonException',
      exception: 'Unauthorized',
      code: null,
      message: 'Credentials are required',
      details: [],
    });
  });

  it('lists a ValueNotValid as one item: field, the code and message again, the rest in params', () => {
    const error = valueNotValid('SIZE_SHOULD_BE_IN_RANGE', 'name has the wrong size', {
      field: 'name',
      actualValue: 0,
      sizeMin: 1,
      sizeMax: 32,
    });
    expect(parsed(error)).toEqual({
      error: 'ValueNotValidJsonException',
      exception: 'ValueNotValid',
      code: 'SIZE_SHOULD_BE_IN_RANGE',
      message: 'name has the wrong size',
      details: [
        {
          field: 'name',
          code: 'SIZE_SHOULD_BE_IN_RANGE',
          message: 'name has the wrong size',
          params: { actualValue: 0, sizeMin: 1, sizeMax: 32 },
        },
      ],
    });
  });

  it('keeps a pattern and a cut echo in params', () => {
    const [item] = errorBody(patternMismatch('corporateId', 'x'.repeat(100), '^[0-9]+$')).details;
    expect(item).toEqual({
      field: 'corporateId',
      code: 'SHOULD_MATCH_PATTERN',
      message: 'corporateId does not match the required pattern',
      params: { actualValue: `${'x'.repeat(64)}…`, pattern: '^[0-9]+$' },
    });
  });

  it('names the missing header or parameter, and the mistyped parameter, in field', () => {
    expect(errorBody(headerMissing('Content-Type')).details).toEqual([
      { field: 'Content-Type', code: null, message: 'Header Content-Type is required', params: {} },
    ]);
    expect(errorBody(parameterMissing('from')).details).toEqual([
      { field: 'from', code: null, message: 'Query parameter from is required', params: {} },
    ]);
    expect(errorBody(typeMismatch('maxResults', 'an integer', 'ten')).details).toEqual([
      { field: 'maxResults', code: null, message: 'Parameter maxResults must be an integer', params: { actualValue: 'ten' } },
    ]);
  });

  it('gives field null where the error is about no one value, and its details in params', () => {
    expect(errorBody(entityTooLarge(1024)).details).toEqual([
      { field: null, code: null, message: 'The request body exceeds 1024 bytes', params: { sizeMax: 1024 } },
    ]);
    expect(errorBody(invalidETag('W/"1"')).details[0]).toMatchObject({ field: null, params: { actualValue: 'W/"1"' } });
    expect(errorBody(messageNotReadable('Too deep', { depthMax: 32 })).details[0]).toMatchObject({
      field: null,
      params: { depthMax: 32 },
    });
    expect(errorBody(controlUnitReceipt('Refused', { returnCode: 5, controlUnitSerial: 'CU1' })).details[0]).toEqual({
      field: null,
      code: null,
      message: 'Refused',
      params: { returnCode: 5, controlUnitSerial: 'CU1' },
    });
    expect(errorBody(inconsistentData('SERVER_CANT_BE_REMOVED', 'Still named', { activationIds: [1, 2] })).details[0]).toEqual({
      field: null,
      code: 'SERVER_CANT_BE_REMOVED',
      message: 'Still named',
      params: { activationIds: [1, 2] },
    });
  });

  it('keeps a MessageNotReadable about a value at its field', () => {
    expect(errorBody(messageNotReadable('currency is unknown', { field: 'currency', actualValue: 'XXX' })).details).toEqual([
      { field: 'currency', code: null, message: 'currency is unknown', params: { actualValue: 'XXX' } },
    ]);
  });
});

import type { ValidateFunction } from 'ajv';
import { ApiError } from '#shared/errors.ts';
import { validate } from '#shared/http/validation.ts';

/** The error a client would get for this body. */
export function rejection(validator: ValidateFunction, body: unknown) {
  try {
    validate(validator, body);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { status: error.status, exception: error.exception, code: error.code, details: error.details };
  }
  throw new Error('the body was accepted');
}

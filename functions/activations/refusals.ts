import { type ApiError, inconsistentData, referenceNotFound } from '#shared/errors.ts';
import type { ApiVersion } from '#shared/versions.ts';

/**
 * The InconsistentData codes of spec 7.2 that the activation endpoints raise. v26 and v33 list
 * them under 404 ReferenceNotFound in the endpoint tables of 4.2; v15 names InconsistentData (409).
 */
export type ActivationRefusal =
  | 'VALID_FROM_AND_VALID_TO_INCONSISTENCY'
  | 'REGISTRATION_EXISTS_FOR_SELLER_AND_INSTALLATION'
  | 'SV_MISMATCH_IN_APP_DESC_AND_CU'
  | 'ACTIVATION_APPLICATION_PACKAGE_MUST_BE_NULL_OR_EQUAL'
  | 'ACTIVATION_PRODUCTION_NUMBER_SHOULD_BE_NULL'
  | 'ACTIVATION_PRODUCTION_NUMBER_SHOULD_BE_NULL_OR_EQUAL'
  | 'ACTIVATION_MUST_HAVE_INSTALLATION_OR_ACTIVATION_CODE'
  | 'ACTIVATION_CODE_WRONG_LENGTH'
  | 'PRODUCTION_NUMBER_AND_CONNECTION_MISMATCH'
  | 'PRODUCTION_NUMBER_AND_DEVICE_ID_MISMATCH';

export type Fail = (code: ActivationRefusal, message: string) => ApiError;

export const refusal = (version: ApiVersion, code: ActivationRefusal, message: string): ApiError =>
  version === 15 ? inconsistentData(code, message) : referenceNotFound(message, code);

/** Connection codes are 4 to 9 characters (spec 8). */
export function checkCodeLength(code: string, version: ApiVersion): void {
  const length = [...code].length;
  if (length < 4 || length > 9) {
    throw refusal(version, 'ACTIVATION_CODE_WRONG_LENGTH', 'An activation code has 4 to 9 characters');
  }
}

/**
 * The one error type of the service and the registry of every exception and error code it answers
 * (spec 7). Thrown anywhere; turned into the error body of docs/conventions.md in exactly one place
 * (`shared/http/response.ts`). A factory takes only the codes its exception lists below, so a
 * misspelt or misplaced code does not compile.
 */

/** Exception name -> HTTP status (spec 7, plus the v15 exceptions the service answers). */
export const EXCEPTIONS = {
  InvalidETagFormat: 400,
  NonUnique: 400,
  MessageNotReadable: 400,
  HttpHeaderMissing: 400,
  RequestParameterMissing: 400,
  TypeMismatch: 400,
  ValueNotValid: 400,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  ReferenceNotFound: 404,
  RequestMethodNotSupported: 405,
  VersionConflict: 409,
  InconsistentData: 409,
  /** v15's refusal of a register name taken by another installation. */
  CashRegisterNameIsNotUnique: 409,
  OutdatedVersion: 410,
  RequestEntityTooLarge: 413,
  UnprocessableEntity: 422,
  /** v15's names for the refusals of a register's day and receipts (spec 3; docs/conventions.md §15). */
  DayClosed: 422,
  DayNotClosed: 422,
  ReceiptNotPrinted: 422,
  ReceiptAlreadyPrinted: 422,
  InternalServerError: 500,
  /** A control unit refused a kd (spec 4.3; docs/conventions.md §25), or the register has no unit to send it to. */
  ControlUnitReceipt: 500,
  /** The unit's edge bridge is offline, or no reply came by the deadline. */
  ControlUnitUnavailable: 500,
  /** The line to the unit kept garbling the exchange (framing or CRC errors after one retry). */
  ControlUnitCommunication: 500,
  ServiceUnavailable: 503,
} as const;

export type Exception = keyof typeof EXCEPTIONS;

/** The codes each exception carries (spec 7.1-7.5 and the endpoint tables of spec 4; a code may serve two exceptions). */
export const CODES = {
  NotFound: [
    'ENDPOINT_NOT_FOUND',
    'DAY_IS_NOT_CLOSED',
    'REPORT_IS_NOT_PRINTED',
    'REPORT_IS_PRINTED_ALREADY',
    'RECEIPT_IS_NOT_PRINTED',
    // A v26 gateway payment for a seller without a currency (spec 4.1; docs/conventions.md §22).
    'SELLER_MUST_HAVE_CURRENCY',
  ],
  /** v26/v33 list the activation refusals of spec 7.2 and the treasurer codes of 7.1 under 404 (spec 4.1, 4.2). */
  ReferenceNotFound: [
    'VALID_FROM_AND_VALID_TO_INCONSISTENCY',
    'REGISTRATION_EXISTS_FOR_SELLER_AND_INSTALLATION',
    'SV_MISMATCH_IN_APP_DESC_AND_CU',
    'ACTIVATION_APPLICATION_PACKAGE_MUST_BE_NULL_OR_EQUAL',
    'ACTIVATION_PRODUCTION_NUMBER_SHOULD_BE_NULL',
    'ACTIVATION_PRODUCTION_NUMBER_SHOULD_BE_NULL_OR_EQUAL',
    'ACTIVATION_MUST_HAVE_INSTALLATION_OR_ACTIVATION_CODE',
    'ACTIVATION_CODE_WRONG_LENGTH',
    'PRODUCTION_NUMBER_AND_CONNECTION_MISMATCH',
    'PRODUCTION_NUMBER_AND_DEVICE_ID_MISMATCH',
    'TREASURER_IS_JOINED_TO_USER_ALREADY',
    'TREASURER_IS_NOT_JOINED_TO_USER',
    'USER_HAS_TREASURER_WITH_SAME_SELLER_ID_ALREADY',
    // A sale write or balance read while the register's day does not allow it (spec 4.7).
    'DAY_IS_CLOSED',
    'DAY_IS_NOT_CLOSED',
    'REPORT_IS_NOT_PRINTED',
    /** `GET /kd-facets` (v26, v33) gives the register filter's refusals of spec 7.2 as 404 (spec 4.3). */
    'SELLER_SHOULD_BE_PROVIDED_FOR_CR',
    'SELLER_HAS_NOT_REGISTRATION',
  ],
  /** Opening a day while one is open or before the last Z report is printed; changing a closed day (spec 4.7 POST, PUT /days). */
  VersionConflict: ['DAY_IS_CLOSED', 'DAY_IS_NOT_CLOSED', 'REPORT_IS_NOT_PRINTED'],
  DayClosed: ['DAY_IS_CLOSED'],
  DayNotClosed: ['DAY_IS_NOT_CLOSED'],
  /** v15 has no report exceptions: a Z report is the day's receipt. */
  ReceiptNotPrinted: ['RECEIPT_IS_NOT_PRINTED', 'REPORT_IS_NOT_PRINTED'],
  ReceiptAlreadyPrinted: ['RECEIPT_IS_PRINTED_ALREADY', 'REPORT_IS_PRINTED_ALREADY'],
  NonUnique: ['ORDER_ALREADY_HAS_PRECEPT'],
  Forbidden: [
    'INSUFFICIENT_ACCESS_RIGHTS',
    'ACTIVATION_CLOSED_ALREADY',
    'ACTIVATION_STILL_ISSUED',
    'ACTIVATION_NO_FEATURE',
    'SELLER_NOT_FOUND',
    'WRONG_ACTIVATION_PERIOD',
    'WRONG_USERNAME_OR_PASSWORD',
    'AUTHORIZATION_DATA_IS_NOT_VALID',
    'INCOMPATIBILITY_OF_SESSION_ID',
    'CU_ARE_NOT_MANAGEABLE_BY_SVA',
    'REGISTRATION_IS_NOT_APPA',
    'EMAIL_IS_NOT_FREE',
    'GATEWAY_VERIFICATION_FAILURE',
    'SELLER_IS_NOT_PUBLIC',
    'OLD_PASSWORD_IS_INCORRECT',
    // Ours, in the spec's style (docs/conventions.md §26): a username refused for its recent wrong passwords.
    'TOO_MANY_WRONG_PASSWORDS',
  ],
  UnprocessableEntity: [
    'TREASURER_IS_JOINED_TO_USER_ALREADY',
    'USER_HAS_TREASURER_WITH_SAME_SELLER_ID_ALREADY',
    'TREASURER_IS_NOT_JOINED_TO_USER',
    'COMPANY_NAME_MUST_BE_SET_IF_NO_SELLER',
    'CU_LOCATION_MUST_BE_SET',
    'INSTALLATION_IS_OUT_OF_DATE',
    'CU_IS_MISSING_FOR_ACTIVATION',
    'AUTO_ACTIVATE_IS_NOT_POSSIBLE_ON_NEW_CU',
    'PRODUCTION_NUMBER_AND_DEVICE_ID_MISMATCH',
    'APPLICATION_PACKAGES_MISMATCH',
    'APP_DESC_HAS_REFERENCED_DATA',
    'SOFTWARE_VENDOR_HAS_REFERENCED_DATA',
    'SOFTWARE_VENDOR_IS_MISSING',
    'PROHIBITED_ORDER_STATUS_CHANGE',
    'CU_HAS_REFERENCED_DATA',
    'DAY_IS_CLOSED',
    'DAY_IS_NOT_CLOSED',
    'RECEIPT_IS_PRINTED_ALREADY',
    'RECEIPT_IS_NOT_PRINTED',
    'REPORT_IS_PRINTED_ALREADY',
    'REPORT_IS_NOT_PRINTED',
    'ACTIVATION_IS_CLOSED_ALREADY',
    'ACTIVATION_IS_ACTIVE_ALREADY',
    'ACTIVATION_IS_WORKING_ALREADY',
    'ORDER_ALREADY_HAS_PRECEPT',
    'SELLER_MUST_HAVE_CURRENCY',
    'CONTROL_UNIT_IS_CONNECTED_ALREADY',
    'CONTROL_UNIT_IS_DISCONNECTED_ALREADY',
    // Ours, in the spec's style (docs/decisions.md): a referenced catalog entity; a role change of a non-regular user.
    'ENTITY_HAS_REFERENCED_DATA',
    'USER_IS_NOT_REGULAR',
  ],
  InconsistentData: [
    'SV_MISMATCH_IN_APP_DESC_AND_CU',
    'VALID_FROM_AND_VALID_TO_INCONSISTENCY',
    'ACTIVATION_CODE_WRONG_LENGTH',
    'ACTIVATION_CODE_ALREADY_EXISTS',
    'ACTIVATION_STATUS_IS_NOT_MODIFIABLE_BY_PUT',
    'QUERY_PARAM_CANT_BE_NEGATIVE',
    'SELLER_HAS_NOT_REGISTRATION',
    'SELLER_SHOULD_BE_PROVIDED_FOR_CR',
    'SERVER_IS_OVERLOADED',
    'IDENTIFIER_LENGTH_VIOLATION',
    'SERVER_CANT_BE_REMOVED',
    'URL_AND_BODY_IDENTIFIERS_MISMATCH',
    'LOCAL_AND_SERVER_VERSIONS_INCONSISTENCY',
    'WORKING_WITH_CU_IS_NOT_SUPPORTED_BY_APP',
    'PRODUCTION_NUMBER_AND_CONNECTION_MISMATCH',
    'PRODUCTION_NUMBER_AND_DEVICE_ID_MISMATCH',
    'REGISTRATION_EXISTS_FOR_SELLER_AND_INSTALLATION',
    'ACTIVATION_APPLICATION_PACKAGE_MUST_BE_NULL_OR_EQUAL',
    'ACTIVATION_PRODUCTION_NUMBER_SHOULD_BE_NULL',
    'ACTIVATION_PRODUCTION_NUMBER_SHOULD_BE_NULL_OR_EQUAL',
    'ACTIVATION_MUST_HAVE_INSTALLATION_OR_ACTIVATION_CODE',
    // Ours (docs/conventions.md §15, §16): a sale whose totals do not add up; a receipt number not next in turn; a print without its control code.
    'SALE_TOTALS_INCONSISTENT',
    'RECEIPT_NUMBER_OUT_OF_SEQUENCE',
    'CONTROL_CODE_MISSING',
    // Ours (docs/conventions.md §19): the auditor's export needs a fact no record holds; the message names it.
    'JOURNAL_EXPORT_INCOMPLETE',
  ],
  ValueNotValid: [
    'SHOULD_NOT_BE_NULL',
    'SHOULD_MATCH_PATTERN',
    'SIZE_SHOULD_BE_EQUAL_EXACTLY',
    'SIZE_SHOULD_BE_LESS_THEN',
    'SIZE_SHOULD_BE_MORE_THEN',
    'SIZE_SHOULD_BE_IN_RANGE',
    'VALUE_SHOULD_BE_GREATER_THEN',
    'VALUE_SHOULD_BE_LESS_THEN',
    'VALUE_SHOULD_NOT_BE_NEGATIVE',
    'SHOULD_MATCH_CORPORATE_ID_VALIDATION_SWEDISH',
    'SHOULD_MATCH_CORPORATE_ID_VALIDATION_LUHN',
    'SHOULD_BE_BASE64_ENCODED',
  ],
  ServiceUnavailable: ['SERVER_IS_DOWN', 'REQUIRES_SETUP'],
  ControlUnitReceipt: ['WORKING_WITH_CU_IS_NOT_SUPPORTED_BY_APP'],
} as const satisfies Partial<Record<Exception, readonly string[]>>;

/** The codes an exception may carry; `never` for one that carries none. */
export type CodeOf<E extends Exception> = E extends keyof typeof CODES ? (typeof CODES)[E][number] : never;

/** Every error code of the service. */
export type ErrorCode = CodeOf<Exception>;

export class ApiError<E extends Exception = Exception> extends Error {
  readonly status: (typeof EXCEPTIONS)[E];
  readonly exception: E;
  readonly code: CodeOf<E> | null;
  /**
   * What the error tells beyond its code, as one object (`field`, `header` or `parameter` for the value at fault, and
   * `actualValue`, `sizeMax`, `printType`, ...). The error body lists it as `details[0]`: `field` beside `params`
   * (`errorBody` in shared/http/response.ts, docs/conventions.md §3).
   */
  readonly details: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(
    exception: E,
    code: CodeOf<E> | null,
    message: string,
    options: { details?: Record<string, unknown>; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ApiError';
    this.status = EXCEPTIONS[exception];
    this.exception = exception;
    this.code = code;
    const details = options.details ?? {};
    // The one echo of a caller's value that every exception may carry; cut here so that no factory can forget it.
    this.details = 'actualValue' in details ? { ...details, actualValue: echo(details.actualValue) } : details;
    this.headers = options.headers ?? {};
  }
}

/**
 * How much of a caller's value an error echoes (docs/conventions.md §3): enough to recognise the value, never a
 * body sent back (a body can be a megabyte, or nested a hundred thousand levels deep).
 */
export const ECHO_MAX_CHARS = 64;

/** Marks a value cut by `echo`. */
const CUT = '…';

/**
 * A caller's value as an error may echo it, in `details` or in a message: a string is cut to its first 64 characters
 * (code points) and marked `…`; an array or object becomes the first 64 characters of its JSON text, read without
 * recursing past them; numbers, booleans and null are kept as they are.
 */
export function echo(value: string): string;
export function echo(value: unknown): unknown;
export function echo(value: unknown): unknown {
  if (typeof value === 'string') return prefix(value);
  if (typeof value === 'object' && value !== null) return prefix(jsonPrefix(value, ECHO_MAX_CHARS + 1));
  // undefined stays absent from the JSON body, as it was before the cut.
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined) return value;
  return prefix(String(value));
}

function prefix(text: string): string {
  let kept = '';
  let chars = 0;
  for (const char of text) {
    if (chars === ECHO_MAX_CHARS) return kept + CUT;
    kept += char;
    chars += 1;
  }
  return kept;
}

/**
 * The JSON text of `value` up to about `budget` characters. Each level writes a character before it descends and none
 * descends once the budget is spent, so a value nested deeper than the stack is read only `budget` levels down.
 */
function jsonPrefix(value: unknown, budget: number): string {
  let text = '';
  const write = (item: unknown): void => {
    if (text.length >= budget) return;
    if (typeof item === 'string') text += JSON.stringify(item.slice(0, budget));
    else if (Array.isArray(item)) {
      text += '[';
      for (let index = 0; index < item.length && text.length < budget; index += 1) {
        if (index > 0) text += ',';
        write(item[index]);
      }
      text += ']';
    } else if (typeof item === 'object' && item !== null) {
      text += '{';
      let first = true;
      for (const key in item) {
        if (text.length >= budget) break;
        if (!first) text += ',';
        first = false;
        text += `${JSON.stringify(key.slice(0, budget))}:`;
        write((item as Record<string, unknown>)[key]);
      }
      text += '}';
    } else text += typeof item === 'number' || typeof item === 'boolean' ? String(item) : 'null';
  };
  write(value);
  return text;
}

/** Field-level detail of a ValueNotValid error (docs/conventions.md §3). */
export interface ValueDetails {
  field: string;
  actualValue?: unknown;
  pattern?: string;
  sizeMin?: number;
  sizeMax?: number;
  valueMin?: number;
  valueMax?: number;
}

export const notFound = (message: string, code: CodeOf<'NotFound'> | null = null) => new ApiError('NotFound', code, message);
export const endpointNotFound = (method: string, path: string) =>
  new ApiError('NotFound', 'ENDPOINT_NOT_FOUND', `No endpoint ${echo(method)} ${echo(path)}`);
export const referenceNotFound = (message: string, code: CodeOf<'ReferenceNotFound'> | null = null) =>
  new ApiError('ReferenceNotFound', code, message);
export const methodNotSupported = (method: string, allowed: readonly string[]) =>
  new ApiError('RequestMethodNotSupported', null, `Method ${echo(method)} is not supported here`, {
    headers: { Allow: allowed.join(', ') },
  });
/** 400 NonUnique: a value that must be unique is taken (spec 7). */
export const nonUnique = (message: string, code: CodeOf<'NonUnique'> | null = null) => new ApiError('NonUnique', code, message);
export const versionConflict = (message: string) => new ApiError('VersionConflict', null, message);
export const inconsistentData = (code: CodeOf<'InconsistentData'>, message: string, details: Record<string, unknown> = {}) =>
  new ApiError('InconsistentData', code, message, { details });
export const outdatedVersion = (message: string) => new ApiError('OutdatedVersion', null, message);
export const unprocessable = (code: CodeOf<'UnprocessableEntity'>, message: string) =>
  new ApiError('UnprocessableEntity', code, message);
export const forbidden = (code: CodeOf<'Forbidden'>, message: string) => new ApiError('Forbidden', code, message);
/**
 * 403 TOO_MANY_WRONG_PASSWORDS: the username had too many wrong passwords lately from the caller's address, and no
 * password from there is checked until `Retry-After` seconds have passed (docs/conventions.md §26).
 */
export const tooManyWrongPasswords = (retryAfterSeconds: number) =>
  new ApiError('Forbidden', 'TOO_MANY_WRONG_PASSWORDS', `Too many wrong passwords; try again in ${retryAfterSeconds} s`, {
    headers: { 'Retry-After': String(retryAfterSeconds) },
  });
export const unauthorized = () =>
  new ApiError('Unauthorized', null, 'Credentials are required', {
    headers: { 'WWW-Authenticate': 'Basic realm="cash-register", charset="UTF-8"' },
  });
export const messageNotReadable = (message: string, details: Record<string, unknown> = {}) =>
  new ApiError('MessageNotReadable', null, message, { details });
export const headerMissing = (header: string) =>
  new ApiError('HttpHeaderMissing', null, `Header ${header} is required`, { details: { header } });
export const parameterMissing = (parameter: string) =>
  new ApiError('RequestParameterMissing', null, `Query parameter ${parameter} is required`, { details: { parameter } });
export const typeMismatch = (parameter: string, expected: string, actualValue: string) =>
  new ApiError('TypeMismatch', null, `Parameter ${parameter} must be ${expected}`, { details: { parameter, actualValue } });
export const valueNotValid = (code: CodeOf<'ValueNotValid'>, message: string, details: ValueDetails) =>
  new ApiError('ValueNotValid', code, message, { details: { ...details } });
export const patternMismatch = (field: string, actualValue: unknown, pattern: string) =>
  valueNotValid('SHOULD_MATCH_PATTERN', `${field} does not match the required pattern`, { field, actualValue, pattern });
export const invalidETag = (value: string) =>
  new ApiError('InvalidETagFormat', null, 'An entity tag must look like "<version>"', { details: { actualValue: value } });
export const entityTooLarge = (limit: number) =>
  new ApiError('RequestEntityTooLarge', null, `The request body exceeds ${limit} bytes`, { details: { sizeMax: limit } });
export const serviceBusy = (message: string, options: { cause?: unknown } = {}) =>
  new ApiError('ServiceUnavailable', null, message, { headers: { 'Retry-After': '1' }, ...options });
/** The service is switched to maintenance (shared/http/maintenance-mode.ts): every route answers this until it is off. */
export const serverIsDown = (retryAfterSeconds: number) =>
  new ApiError('ServiceUnavailable', 'SERVER_IS_DOWN', 'The service is down for maintenance; try again later', {
    headers: { 'Retry-After': String(retryAfterSeconds) },
  });
/** Whatever went wrong inside: the client learns nothing of it; `cause` keeps it for the log. */
export const internalError = (cause?: unknown) =>
  new ApiError('InternalServerError', null, 'The request could not be completed; it has been logged', { cause });
/** v15: the register name is taken by another installation of the seller. */
export const registerNameTaken = (message: string) => new ApiError('CashRegisterNameIsNotUnique', null, message);
/** 500 ControlUnitReceipt: the unit refused the kd (`details.returnCode`), or the register has no unit (docs/conventions.md §25). */
export const controlUnitReceipt = (
  message: string,
  details: Record<string, unknown> = {},
  code: CodeOf<'ControlUnitReceipt'> | null = null,
) => new ApiError('ControlUnitReceipt', code, message, { details });
/** 500 ControlUnitUnavailable: the unit's bridge is offline or did not answer by the deadline. */
export const controlUnitUnavailable = (message: string, details: Record<string, unknown> = {}) =>
  new ApiError('ControlUnitUnavailable', null, message, { details });
/** 500 ControlUnitCommunication: framing or CRC errors on the line to the unit persisted after one retry. */
export const controlUnitCommunication = (message: string, details: Record<string, unknown> = {}) =>
  new ApiError('ControlUnitCommunication', null, message, { details });
/** 503 REQUIRES_SETUP: the unit's bridge was never provisioned or has never connected (spec 7.5). */
export const requiresSetup = (message: string) => new ApiError('ServiceUnavailable', 'REQUIRES_SETUP', message);

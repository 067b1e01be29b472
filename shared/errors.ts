/**
 * The one error type of the service. Thrown anywhere; turned into the pinned error body
 * (`{exception, code, message, details}`) in exactly one place: `shared/http/error-handler.ts`.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly exception: string;
  readonly code: string | null;
  readonly details: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    exception: string,
    code: string | null,
    message: string,
    details: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.exception = exception;
    this.code = code;
    this.details = details;
    this.headers = headers;
  }
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

export const notFound = (message: string, code: string | null = null) => new ApiError(404, 'NotFound', code, message);
export const endpointNotFound = (method: string, path: string) =>
  new ApiError(404, 'NotFound', 'ENDPOINT_NOT_FOUND', `No endpoint ${method} ${path}`);
export const referenceNotFound = (message: string, code: string | null = null) =>
  new ApiError(404, 'ReferenceNotFound', code, message);
export const methodNotSupported = (method: string, allowed: readonly string[]) =>
  new ApiError(
    405,
    'RequestMethodNotSupported',
    null,
    `Method ${method} is not supported here`,
    {},
    {
      Allow: allowed.join(', '),
    },
  );
/** 400 NonUnique: a value that must be unique is taken (spec 7). */
export const nonUnique = (message: string, code: string | null = null) => new ApiError(400, 'NonUnique', code, message);
export const versionConflict = (message: string) => new ApiError(409, 'VersionConflict', null, message);
export const inconsistentData = (code: string, message: string) => new ApiError(409, 'InconsistentData', code, message);
export const outdatedVersion = (message: string) => new ApiError(410, 'OutdatedVersion', null, message);
export const unprocessable = (code: string, message: string) => new ApiError(422, 'UnprocessableEntity', code, message);
export const forbidden = (code: string, message: string) => new ApiError(403, 'Forbidden', code, message);
export const unauthorized = () =>
  new ApiError(
    401,
    'Unauthorized',
    null,
    'Credentials are required',
    {},
    {
      'WWW-Authenticate': 'Basic realm="cash-register", charset="UTF-8"',
    },
  );
export const messageNotReadable = (message: string, details: Record<string, unknown> = {}) =>
  new ApiError(400, 'MessageNotReadable', null, message, details);
export const headerMissing = (header: string) =>
  new ApiError(400, 'HttpHeaderMissing', null, `Header ${header} is required`, { header });
export const parameterMissing = (parameter: string) =>
  new ApiError(400, 'RequestParameterMissing', null, `Query parameter ${parameter} is required`, { parameter });
export const typeMismatch = (parameter: string, expected: string, actualValue: string) =>
  new ApiError(400, 'TypeMismatch', null, `Parameter ${parameter} must be ${expected}`, {
    parameter,
    actualValue,
  });
export const valueNotValid = (code: string, message: string, details: ValueDetails) =>
  new ApiError(400, 'ValueNotValid', code, message, { ...details });
export const invalidETag = (value: string) =>
  new ApiError(400, 'InvalidETagFormat', null, 'An entity tag must look like "<version>"', { actualValue: value });
export const entityTooLarge = (limit: number) =>
  new ApiError(413, 'RequestEntityTooLarge', null, `The request body exceeds ${limit} bytes`, { sizeMax: limit });
export const serviceBusy = (message: string) =>
  new ApiError(503, 'ServiceUnavailable', null, message, {}, { 'Retry-After': '1' });

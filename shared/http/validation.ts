import type { ErrorObject, ValidateFunction } from 'ajv';
import { type ApiError, type CodeOf, echo, messageNotReadable, patternMismatch, valueNotValid } from '#shared/errors.ts';

/**
 * `/saleProducts/2/delta` -> `saleProducts[2].delta` (docs/conventions.md §3). A map's keys are the caller's, so each
 * segment is cut as an echoed value is; the depth limit of a body bounds the number of segments.
 */
export function fieldPath(instancePath: string, property?: string): string {
  const parts = instancePath.split('/').slice(1);
  if (property !== undefined) parts.push(property);
  return parts
    .map((part) => echo(part.replace(/~1/g, '/').replace(/~0/g, '~')))
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');
}

interface Bounds {
  /** `base64` on the base64 scalar: its pattern's mismatch is SHOULD_BE_BASE64_ENCODED. */
  contentEncoding?: string;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minProperties?: number;
  maxProperties?: number;
}

/** The size code names the bounds the schema sets, not only the one that was broken (spec 7.3). */
function sizeCode(min: number | undefined, max: number | undefined): CodeOf<'ValueNotValid'> {
  if (min !== undefined && max !== undefined) return min === max ? 'SIZE_SHOULD_BE_EQUAL_EXACTLY' : 'SIZE_SHOULD_BE_IN_RANGE';
  return max !== undefined ? 'SIZE_SHOULD_BE_LESS_THEN' : 'SIZE_SHOULD_BE_MORE_THEN';
}

function sizeOf(value: unknown): number {
  if (Array.isArray(value)) return value.length;
  if (typeof value === 'object' && value !== null) return Object.keys(value).length;
  return typeof value === 'string' ? [...value].length : 0;
}

/** `^(A|B)$`: the pattern of a value that must be one of `names` (none: only the empty name). */
const oneOfPattern = (names: readonly unknown[]) => `^(${names.map(String).join('|')})$`;

/** The tag values of a `discriminator`'s `oneOf` (schemas/fiscal.ts `journalUpload`): each branch's `enum` of the tag. */
function tagValues(parentSchema: unknown, tag: string): unknown[] {
  const branches = (parentSchema as { oneOf?: { properties?: Record<string, { enum?: unknown[] }> }[] }).oneOf ?? [];
  return branches.flatMap((branch) => branch.properties?.[tag]?.enum ?? []);
}

/** One Ajv error -> the spec's error: ValueNotValid with its code, or MessageNotReadable for a wrong type or enum value. */
export function toApiError(error: ErrorObject): ApiError {
  if (error.propertyName !== undefined && error.keyword === 'enum') {
    // A field name `propertyNames` refuses (an object of exactly its fields): `enum` lists them (`''` alone: none).
    const names = Array.isArray(error.schema) ? (error.schema as unknown[]) : [];
    return patternMismatch(fieldPath(error.instancePath, error.propertyName), error.propertyName, oneOfPattern(names));
  }
  if (error.keyword === 'discriminator') {
    // A `type` that names no body: what it may name, as a pattern.
    const tag = String(error.params.tag);
    return patternMismatch(
      fieldPath(error.instancePath, tag),
      error.params.tagValue,
      oneOfPattern(tagValues(error.parentSchema, tag)),
    );
  }
  const field = fieldPath(error.instancePath, error.keyword === 'required' ? String(error.params.missingProperty) : undefined);
  const parent = (error.parentSchema ?? {}) as Bounds;
  const actualValue = error.data;
  switch (error.keyword) {
    case 'required':
      return valueNotValid('SHOULD_NOT_BE_NULL', `${field} must not be null`, { field });
    case 'type':
      if (actualValue === null) return valueNotValid('SHOULD_NOT_BE_NULL', `${field} must not be null`, { field });
      // A value of the wrong JSON type cannot be read into the field at all (as a JSON binder would say).
      return messageNotReadable(`${field || 'The body'} must be ${String(error.params.type)}`, { field, actualValue });
    case 'enum':
      return messageNotReadable(`${field} is not one of the accepted values`, { field, actualValue });
    case 'minLength':
    case 'maxLength':
    case 'minItems':
    case 'maxItems':
    case 'minProperties':
    case 'maxProperties': {
      const [min, max] = error.keyword.endsWith('Length')
        ? [parent.minLength, parent.maxLength]
        : error.keyword.endsWith('Items')
          ? [parent.minItems, parent.maxItems]
          : [parent.minProperties, parent.maxProperties];
      return valueNotValid(sizeCode(min, max), `${field} has the wrong size`, {
        field,
        actualValue: sizeOf(actualValue),
        ...(min === undefined ? {} : { sizeMin: min }),
        ...(max === undefined ? {} : { sizeMax: max }),
      });
    }
    case 'pattern':
      if (parent.contentEncoding === 'base64') {
        // No actualValue: an attachment is megabytes, and echoing it back helps no one.
        return valueNotValid('SHOULD_BE_BASE64_ENCODED', `${field} is not base64`, { field });
      }
      return patternMismatch(field, actualValue, String(error.params.pattern));
    case 'format':
      return patternMismatch(field, actualValue, String(error.params.pattern ?? error.params.format));
    case 'minimum': {
      const valueMin = Number(error.params.limit);
      return valueMin === 0
        ? valueNotValid('VALUE_SHOULD_NOT_BE_NEGATIVE', `${field} must not be negative`, { field, actualValue, valueMin })
        : valueNotValid('VALUE_SHOULD_BE_GREATER_THEN', `${field} must be at least ${valueMin}`, {
            field,
            actualValue,
            valueMin,
          });
    }
    case 'maximum': {
      const valueMax = Number(error.params.limit);
      return valueNotValid('VALUE_SHOULD_BE_LESS_THEN', `${field} must be at most ${valueMax}`, { field, actualValue, valueMax });
    }
    default:
      return messageNotReadable(`${field || 'The body'} is not valid`, { field });
  }
}

/** Validates (and strips unknown properties from) `value`; throws the spec's error for the first problem found. */
export function validate<T>(validator: ValidateFunction<T>, value: unknown): T {
  if (validator(value)) return value;
  const [first] = validator.errors ?? [];
  throw first ? toApiError(first) : messageNotReadable('The body is not valid');
}

/** The API versions the service speaks; the first path segment is `v` followed by one of them. */
export const API_VERSIONS = [15, 26, 33] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];

export const ALL_VERSIONS: readonly ApiVersion[] = API_VERSIONS;
export const SINCE_26: readonly ApiVersion[] = [26, 33];

/** `v26` -> 26; anything else -> undefined. */
export function parseVersionSegment(segment: string | undefined): ApiVersion | undefined {
  const match = /^v(\d{2})$/.exec(segment ?? '');
  const value = Number(match?.[1]);
  return API_VERSIONS.find((v) => v === value);
}

/**
 * A versioned view of one canonical entity: which canonical fields each API version shows
 * and writes. A write through a version replaces only that version's fields, so fields of
 * newer versions survive a write through an older one.
 */
export type VersionView<T> = Record<ApiVersion, readonly (keyof T & string)[]>;

/** The entity as one API version shows it: its fields only, absent ones as null. */
export function present<T extends object>(entity: T, fields: readonly (keyof T & string)[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) out[field] = entity[field] ?? null;
  return out;
}

/** The stored entity after a write through one version: that version's fields from `input`, the rest kept. */
export function merge<T extends object>(stored: T | undefined, input: Partial<T>, fields: readonly (keyof T & string)[]): T {
  const owned = new Set<string>(fields);
  const next: Record<string, unknown> = Object.fromEntries(Object.entries(stored ?? {}).filter(([field]) => !owned.has(field)));
  for (const field of fields) {
    const value = input[field];
    if (value !== undefined && value !== null) next[field] = value;
  }
  return next as T;
}

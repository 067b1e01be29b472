/**
 * Builders of described answer schemas (schemas/fiscal-responses.ts and the other answers of schemas/responses.ts):
 * every property says what it is and, for a number, its unit. Answers only: the OpenAPI documents, the typed client and
 * the contract tests read them, never a function. Instants are milliseconds since the epoch (UTC) throughout.
 */
export type Schema = { readonly [key: string]: unknown };

/** A described schema. */
export const d = <const S extends Schema>(description: string, schema: S) => ({ ...schema, description });
export const integer = (description: string) => ({ type: 'integer', description }) as const;
export const nullableInteger = (description: string) => ({ type: ['integer', 'null'], description }) as const;
export const text = (description: string) => ({ type: 'string', description }) as const;
export const nullableText = (description: string) => ({ type: ['string', 'null'], description }) as const;
export const flag = (description: string) => ({ type: 'boolean', description }) as const;
export const instant = (what: string) => integer(`${what}: milliseconds since the epoch (UTC)`);
export const nullableInstant = (what: string) => nullableInteger(`${what}: milliseconds since the epoch (UTC)`);

/** An object of exactly these properties, all present (null where the record has none). */
export const exact = <const P extends Record<string, Schema>>(description: string, properties: P) => ({
  type: 'object',
  description,
  additionalProperties: false,
  required: Object.keys(properties) as (keyof P & string)[],
  properties,
});

/** An object whose properties are all optional: what a record written before a field was kept may lack. */
export const open = <const P extends Record<string, Schema>>(description: string, properties: P) => ({
  type: 'object',
  description,
  properties,
});

export const list = <const I extends Schema>(description: string, items: I) => ({ type: 'array', description, items }) as const;

/** Another schema of the documents by its component name (a request body's view is `<name>View`). */
export const component = (name: string) => `#/components/schemas/${name}`;

/** A property holding another schema of the documents, described by what it holds here. */
export const ref = (description: string, name: string) => ({ $ref: component(name), description });

/** A property holding another schema of the documents, or null where the record has none. */
export const nullableRef = (description: string, name: string) => ({
  anyOf: [{ $ref: component(name) }, { type: 'null' }],
  description,
});

/** An object schema that is null where the record has none. */
export const orNull = <const S extends { type: string }>(description: string, schema: S) => ({
  ...schema,
  type: [schema.type, 'null'],
  description,
});

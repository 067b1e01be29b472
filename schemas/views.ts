/** The fields a schema's object has: a version's view of a canonical entity is exactly its schema's properties. */
export const fieldsOf = <S extends { properties: object }>(schema: S) =>
  Object.keys(schema.properties) as (keyof S['properties'] & string)[];

import type { AttributeValue } from '@aws-sdk/client-dynamodb';

/**
 * Plain values to DynamoDB's attribute values and back, as the table holds them: numbers read back as
 * numbers, an undefined field or list element is left out, an empty string stays a string. The rules are
 * the document client's (`@aws-sdk/util-dynamodb` with `removeUndefinedValues`), so items written before
 * read the same; the document client itself stays out of the bundles, which every cold start parses.
 */
export type Attributes = Record<string, AttributeValue>;

// Every item a request reads or writes passes here: the loops below make no [name, value] pairs and no
// intermediate lists, and test the common kinds first (half the CPU of Object.entries, filter and map).

/** An item (a key, expression values) as attribute values. */
export function toAttributes(record: object): Attributes {
  const attributes: Attributes = {};
  for (const name of Object.keys(record)) {
    const value: unknown = (record as Record<string, unknown>)[name];
    if (value !== undefined && typeof value !== 'function') attributes[name] = toAttribute(value);
  }
  return attributes;
}

/** An item as plain values. */
export function fromAttributes(attributes: Attributes): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const name of Object.keys(attributes)) record[name] = fromAttribute(attributes[name] as AttributeValue);
  return record;
}

function toAttribute(value: unknown): AttributeValue {
  switch (typeof value) {
    case 'string':
      return { S: value };
    case 'number':
    case 'bigint':
      return { N: numberText(value) };
    case 'boolean':
      return { BOOL: value };
  }
  if (value === null) return { NULL: true };
  if (Array.isArray(value)) {
    const list: AttributeValue[] = [];
    for (const item of value) if (item !== undefined && typeof item !== 'function') list.push(toAttribute(item));
    return { L: list };
  }
  if (value instanceof Set) return toSet(value);
  if (value instanceof Uint8Array) return { B: value };
  if (typeof value === 'object') {
    const prototype: unknown = Object.getPrototypeOf(value);
    if (prototype === Object.prototype || prototype === null) return { M: toAttributes(value) };
  }
  throw new TypeError(`No DynamoDB attribute holds ${Object.prototype.toString.call(value)}`);
}

/** A number DynamoDB keeps exactly as JavaScript meant it: a BigInt, or a finite number within the safe range. */
function numberText(value: number | bigint): string {
  if (typeof value === 'bigint') return value.toString();
  if (!Number.isFinite(value)) throw new RangeError(`DynamoDB holds no ${value}`);
  if (Math.abs(value) > Number.MAX_SAFE_INTEGER) throw new RangeError(`${value} is beyond Number.MAX_SAFE_INTEGER; use a BigInt`);
  return String(value);
}

function toSet(set: Set<unknown>): AttributeValue {
  const members = [...set].filter((member) => member !== undefined);
  const [first] = members;
  if (typeof first === 'string') return { SS: members as string[] };
  if (typeof first === 'number' || typeof first === 'bigint')
    return { NS: members.map((member) => numberText(member as number | bigint)) };
  if (first instanceof Uint8Array) return { BS: members as Uint8Array[] };
  throw new TypeError('DynamoDB holds no empty set, nor a set of anything but strings, numbers or bytes');
}

function fromAttribute(value: AttributeValue): unknown {
  if (value.S !== undefined) return value.S;
  if (value.N !== undefined) return numberOf(value.N);
  if (value.BOOL !== undefined) return value.BOOL;
  if (value.NULL !== undefined) return null;
  if (value.M !== undefined) return fromAttributes(value.M);
  if (value.L !== undefined) return value.L.map(fromAttribute);
  if (value.B !== undefined) return value.B;
  if (value.SS !== undefined) return new Set(value.SS);
  if (value.NS !== undefined) return new Set(value.NS.map(numberOf));
  if (value.BS !== undefined) return new Set(value.BS);
  throw new TypeError(`An attribute of no known type: ${Object.keys(value).join(', ')}`);
}

/** A stored number: a JavaScript number, or a BigInt where a number would lose digits. */
function numberOf(text: string): number | bigint {
  const value = Number(text);
  return Math.abs(value) > Number.MAX_SAFE_INTEGER && Number.isFinite(value) ? BigInt(text) : value;
}

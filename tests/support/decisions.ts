/** Helpers for unit tests of pure decisions: what a refusal says, and what a transaction step does. */
import type { Stamp, Stored } from '#shared/db/streams.ts';
import type { Activation } from '#shared/domain/records.ts';
import type { Step } from '#shared/db/transact.ts';
import { ApiError } from '#shared/errors.ts';
import type { ApiRequest } from '#shared/http/types.ts';
import type { ApiVersion } from '#shared/versions.ts';

/** The error `act` throws, as a client would see it (status, exception, code); fails when it throws none or another error. */
export function refusal(act: () => unknown): { status: number; exception: string; code: string | null } {
  try {
    act();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { status: error.status, exception: error.exception, code: error.code };
  }
  throw new Error('expected a refusal, but the decision went through');
}

/** What one step of a transaction does: its operation, key, condition and values (without the table name). */
export function stepOf(step: Step): {
  op: string;
  key: { pk: unknown; sk: unknown };
  condition?: string;
  update?: string;
  values?: Record<string, unknown>;
  item?: Record<string, unknown>;
  refuses: boolean;
} {
  const [op, body] = Object.entries(step.write).find(([, value]) => value !== undefined) ?? [];
  if (op === undefined || typeof body !== 'object' || body === null) throw new Error('a step without a write');
  const write = body as {
    Key?: Record<string, unknown>;
    Item?: Record<string, unknown>;
    ConditionExpression?: string;
    UpdateExpression?: string;
    ExpressionAttributeValues?: Record<string, unknown>;
  };
  const source = write.Key ?? write.Item ?? {};
  return {
    op,
    key: { pk: source.pk, sk: source.sk },
    ...(write.ConditionExpression === undefined ? {} : { condition: write.ConditionExpression }),
    ...(write.UpdateExpression === undefined ? {} : { update: write.UpdateExpression }),
    ...(write.ExpressionAttributeValues === undefined ? {} : { values: write.ExpressionAttributeValues }),
    ...(write.Item === undefined ? {} : { item: write.Item }),
    refuses: step.refused !== undefined,
  };
}

/** The error a step raises when its condition fails, as a client would see it. */
export function stepRefusal(step: Step | undefined) {
  const refused = step?.refused;
  if (!refused) throw new Error('the step names no refusal');
  return refusal(() => {
    throw refused();
  });
}

/** An item as a versioned read returns it: the data with its stamp and key. */
export const storedAs = <T extends object>(data: T, stamp: Partial<Stamp> & { pk?: string; sk?: string } = {}): Stored<T> => ({
  pk: 'S#SE5560360793',
  sk: 'ANY',
  version: 1,
  deleted: false,
  modified: 0,
  ...data,
  ...stamp,
});

/** An activation of a seller's register, ACTIVE, with the given fields. */
export const activationOf = (fields: Partial<Activation>): Activation => ({
  id: 1,
  status: 'ACTIVE',
  issued: 0,
  sellerId: 'SE5560360793',
  country: 'SE',
  corporateId: '5560360793',
  sellerName: null,
  cashRegisterName: 'Kassa 1',
  applicationPackage: null,
  productionNumber: null,
  validFrom: 0,
  validTo: 0,
  features: [],
  controlUnitLocation: 'REMOTE',
  controlUnitSerial: null,
  controlUnitGeolocation: null,
  contact: null,
  comment: null,
  keyHash: null,
  ...fields,
});

/** A PUT as a domain function receives it (no HTTP): the body, the version, nothing else. */
export const requestOf = <B>(body: B, version: ApiVersion = 33): ApiRequest<B> => ({
  version,
  method: 'PUT',
  params: {},
  query: new URLSearchParams(),
  headers: {},
  body,
  principal: undefined,
  sellerCounter: undefined,
});

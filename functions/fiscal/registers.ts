import { readItem, readPair, readPartition } from '#shared/db/reads.ts';
import { inconsistentData, parameterMissing } from '#shared/errors.ts';
import { type Register, type RegisterCounter, registerKeys } from '#shared/fiscal/ledger.ts';
import type { ApiRequest } from '#shared/http/types.ts';
import { registrationKeys } from '#shared/domain/records.ts';

/** A request whose path names the seller and perhaps the register (`{cash}`; docs/conventions.md §14). */
export type RegisterRequest<B = unknown> = ApiRequest<B, 'sellerId'> & { params: Partial<Record<'cash', string>> };

/**
 * The register a read is about: the path's `{cash}`; without one (v15 paths) the `cashRegisterName`
 * query parameter, which a register may leave out to mean its own and a user must give.
 */
export function readRegister(request: RegisterRequest): Register {
  const { sellerId, cash } = request.params;
  if (cash !== undefined) return { sellerId, cash };
  const named = request.query.get('cashRegisterName');
  if (named) return { sellerId, cash: named };
  if (request.principal?.kind === 'activation') return { sellerId, cash: request.principal.cashRegisterName };
  throw parameterMissing('cashRegisterName');
}

/**
 * The register's stream counter for a read: a register of the seller that has recorded nothing yet is
 * at version 0; a name the seller has no registration for is `409 SELLER_HAS_NOT_REGISTRATION`.
 */
export async function registerCounter(register: Register): Promise<RegisterCounter> {
  const [registration, counter] = await readPair(
    registrationKeys.registration(register.sellerId, register.cash),
    registerKeys.counter(register.sellerId, register.cash),
  );
  if (!registration || registration.deleted) {
    throw inconsistentData('SELLER_HAS_NOT_REGISTRATION', `The seller has no register ${register.cash}`);
  }
  return counter ?? { ver: 0, live: true };
}

/** A register a seller-wide read covers, and how to read its counter when the read comes to it. */
export interface CoveredRegister {
  register: Register;
  counter(): Promise<RegisterCounter>;
}

/**
 * The registers a seller-wide read covers, in name order: the one named by `cashRegisterName`, or all of the
 * seller's live ones. Their registrations are read here once; a counter is read only when asked for.
 */
export async function registersOf(request: RegisterRequest): Promise<CoveredRegister[]> {
  const sellerId = request.params.sellerId;
  const named = request.query.get('cashRegisterName');
  if (named) {
    const counter = await registerCounter({ sellerId, cash: named });
    return [{ register: { sellerId, cash: named }, counter: async () => counter }];
  }
  const registrations = await readPartition(registrationKeys.registrations(sellerId));
  return registrations
    .filter((registration) => !registration.deleted)
    .map((registration) => registration.cashRegisterName)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((cash) => ({
      register: { sellerId, cash },
      counter: async () => (await readItem(registerKeys.counter(sellerId, cash))) ?? { ver: 0, live: true },
    }));
}

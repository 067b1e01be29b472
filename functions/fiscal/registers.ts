import { rememberedRegister } from '#shared/auth/credentials.ts';
import type { Key } from '#shared/db/keys.ts';
import { readItem, readPair, readPartition } from '#shared/db/reads.ts';
import { inconsistentData, parameterMissing } from '#shared/errors.ts';
import { fiscalContextAhead } from '#shared/fiscal/context.ts';
import { type Register, type RegisterCounter, registerKeys, rememberLatestDay } from '#shared/fiscal/ledger.ts';
import { checkPathParams } from '#shared/http/params.ts';
import type { AheadRequest } from '#shared/http/router.ts';
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

/** A read's request as its route's `readAhead` sees it: the path names the seller, perhaps the register. */
export type RegisterAheadRequest = AheadRequest<undefined, '{sellerId}'> & { params: Partial<Record<'cash', string>> };

/** Whether a register name may go in a key unchecked: a malformed query value could fail the read ahead's batch. */
function wellFormedName(cash: string): boolean {
  try {
    checkPathParams({ cash });
    return true;
  } catch {
    return false;
  }
}

/**
 * A read route's `readAhead` (its request `P`): the items `registerCounter` reads, and those `more` names of the register,
 * among them, as it chooses, the receipt's context (`context`: what `readFiscalContext` reads). The register is the one
 * `readRegister` will read: the path's `{cash}`, a well-formed `cashRegisterName`, or the caller's own as this process
 * remembers its API key, whose activation is then the latest its registration names. None when it cannot be told yet.
 */
export const registerReadsAhead =
  <P extends RegisterAheadRequest>(more: (register: Register, context: Key[], request: P) => Key[]) =>
  (request: P): Key[] => {
    const { sellerId, cash } = request.params;
    const named = request.query.get('cashRegisterName');
    const own = rememberedRegister(request.credentials);
    const name = cash ?? (named ? (wellFormedName(named) ? named : undefined) : own?.cash);
    if (name === undefined) return [];
    const register = { sellerId, cash: name };
    const ownActivation = own?.sellerId === sellerId && own.cash === name ? own.activationId : undefined;
    return [...counterKeys(register), ...more(register, fiscalContextAhead(register, ownActivation), request)];
  };

/** The register's registration and stream counter. */
const counterKeys = (register: Register) =>
  [
    registrationKeys.registration(register.sellerId, register.cash),
    registerKeys.counter(register.sellerId, register.cash),
  ] as const;

/**
 * The register's stream counter for a read: a register of the seller that has recorded nothing yet is
 * at version 0; a name the seller has no registration for is `409 SELLER_HAS_NOT_REGISTRATION`.
 */
export async function registerCounter(register: Register): Promise<RegisterCounter> {
  const [registration, counter] = await readPair(...counterKeys(register));
  if (!registration || registration.deleted) {
    throw inconsistentData('SELLER_HAS_NOT_REGISTRATION', `The seller has no register ${register.cash}`);
  }
  // The latest day it names, for the register's next read ahead (a balance read).
  rememberLatestDay(register, counter?.ledger);
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

/**
 * Who sold and where: what a receipt (SKVFS 2014:9, 7 kap. 1 §), its digital link and the X/Z report (7 kap. 2-3 §§)
 * print about the seller and the register, read in one place (docs/conventions.md §16, §17). It is read as it is
 * now, not frozen at the sale: the seller's profile, the register's registration and its latest activation.
 */
import type { Key } from '#shared/db/keys.ts';
import { readItem } from '#shared/db/reads.ts';
import { timeZoneOf } from './dates.ts';
import { type Activation, type Registration, activationKeys, registrationKeys, unitNameOf } from '#shared/domain/records.ts';
import { type Seller, sellerKeys } from '#shared/domain/seller.ts';
import type { Register } from './ledger.ts';

export interface FiscalContext {
  sellerId: string;
  seller: {
    name: string | null;
    corporateId: string;
    /** Where the sale takes place (7 kap. 1 § b): the seller's address; registrations carry no geolocation yet. */
    address: string | null;
    zip: string | null;
    city: string | null;
    country: string;
    /** The seller's currency (ISO 4217), or null when its profile names none. */
    currency: string | null;
  };
  register: {
    cashRegisterName: string;
    productionNumber: string | null;
    controlUnitSerial: string | null;
  };
  /** The seller's time zone: receipts and reports show their times in it. */
  timeZone: string;
}

/** The records a fiscal context is made of, as read (undefined: none). */
export interface ContextRecords {
  seller: Seller | undefined;
  registration: Registration | undefined;
  activation: Activation | undefined;
}

/** The seller's profile and the register's registration, read together: what every context starts from. */
export const readSellerAndRegistration = (register: Register) =>
  Promise.all([
    readItem(sellerKeys.profile(register.sellerId)),
    readItem(registrationKeys.registration(register.sellerId, register.cash)),
  ]);

/** The latest activation a registration names, or undefined. */
export const latestActivationKey = (registration: Registration | undefined) => {
  const latest = registration?.activationIds[0];
  return latest === undefined ? undefined : activationKeys.activation(latest);
};

/**
 * What `readFiscalContext` reads, for a route's `readAhead`: the seller's profile, the registration and the latest
 * activation when the caller can guess it (a register's own is its registration's latest; the registration says).
 */
export const fiscalContextAhead = (register: Register, activationId: number | undefined): Key[] => [
  sellerKeys.profile(register.sellerId),
  registrationKeys.registration(register.sellerId, register.cash),
  ...(activationId === undefined ? [] : [activationKeys.activation(activationId)]),
];

/**
 * The context read started now, to be awaited inside a fiscal write's decision (its answer, kept under an
 * `Idempotency-Key`, needs it): a write refused before that leaves no unhandled rejection behind.
 */
export function fiscalContextBeside(register: Register): Promise<FiscalContext> {
  const read = readFiscalContext(register);
  read.catch(() => undefined);
  return read;
}

/** The seller's profile, the register's registration and its latest activation (three reads, two of them together). */
export async function readFiscalContext(register: Register): Promise<FiscalContext> {
  const [seller, registration] = await readSellerAndRegistration(register);
  const activationKey = latestActivationKey(registration);
  const activation = activationKey === undefined ? undefined : await readItem(activationKey);
  return fiscalContextOf(register, { seller, registration, activation });
}

/** The fiscal context the records make. */
export function fiscalContextOf(register: Register, { seller, registration, activation }: ContextRecords): FiscalContext {
  return {
    sellerId: register.sellerId,
    seller: {
      name: seller?.name ?? null,
      corporateId: registration?.corporateId ?? seller?.corporateId ?? '',
      address: seller?.address ?? null,
      zip: seller?.zip ?? null,
      city: seller?.city ?? null,
      country: registration?.country ?? seller?.country ?? '',
      currency: seller?.currency ?? null,
    },
    register: {
      cashRegisterName: register.cash,
      productionNumber: registration?.productionNumber ?? null,
      controlUnitSerial: unitNameOf(activation),
    },
    timeZone: timeZoneOf(register.sellerId),
  };
}

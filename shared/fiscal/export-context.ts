/**
 * Who the journal belongs to, as the auditor's export (SKVFS 2021:16) names it: the company block and the register
 * system block (docs/conventions.md §19). Read from the records that hold each fact, never invented: the seller's
 * profile (name, the address where sales happen), the registration (corporate id, production number), the
 * installation (program version), the application (its name and package) and the latest activation (the control
 * unit's serial). A day's closing entry freezes it, so a fetched journal exports offline with the same facts.
 */
import { readItem } from '#shared/db/reads.ts';
import { fiscalContextOf, latestActivationKey, readSellerAndRegistration } from './context.ts';
import type { Register } from './ledger.ts';
import { installationKey } from '#shared/domain/installations.ts';
import { applicationKeys } from '#shared/domain/records.ts';

export interface ExportContext {
  sellerId: string;
  /** The seller's time zone: the export's times are its wall clock. */
  timeZone: string;
  company: {
    corporateId: string;
    country: string;
    name: string | null;
    /** Where the sales take place: the seller's address, postal code and city on one line. */
    address: string | null;
  };
  system: {
    cashRegisterName: string;
    /** The installation's production number (Tillverkningsnummer för kassaregistret). */
    productionNumber: string | null;
    /** The application's name (Modellbeteckning). */
    model: string | null;
    /** The application's package (Modell eller program). */
    program: string | null;
    /** The installation's program version (Versionsnummer). */
    version: string | null;
    controlUnitSerial: string | null;
  };
}

/** `address, zip city`, leaving out what the profile lacks; null when it has none of them. */
export function addressLine(seller: { address: string | null; zip: string | null; city: string | null }): string | null {
  const place = [seller.zip, seller.city].filter((part) => part !== null && part !== '').join(' ');
  const line = [seller.address ?? '', place].filter((part) => part !== '').join(', ');
  return line === '' ? null : line;
}

/**
 * The register's export context as its records say now: the seller's profile and the registration, then together the
 * latest activation, the installation and the application the registration names (two round trips).
 */
export async function readExportContext(register: Register): Promise<ExportContext> {
  const [seller, registration] = await readSellerAndRegistration(register);
  const activationKey = latestActivationKey(registration);
  const productionNumber = registration?.productionNumber ?? null;
  const applicationPackage = registration?.applicationPackage ?? null;
  const [activation, installation, application] = await Promise.all([
    activationKey === undefined ? undefined : readItem(activationKey),
    productionNumber === null ? undefined : readItem(installationKey(productionNumber)),
    applicationPackage === null ? undefined : readItem(applicationKeys.application(applicationPackage)),
  ]);
  const context = fiscalContextOf(register, { seller, registration, activation });
  return {
    sellerId: register.sellerId,
    timeZone: context.timeZone,
    company: {
      corporateId: context.seller.corporateId,
      country: context.seller.country,
      name: context.seller.name,
      address: addressLine(context.seller),
    },
    system: {
      cashRegisterName: register.cash,
      productionNumber,
      model: application?.name ?? null,
      program: applicationPackage,
      version: installation?.programVersion ?? null,
      controlUnitSerial: context.register.controlUnitSerial,
    },
  };
}

/**
 * The requests of a public register library written for srv4pos (a hotel-software fiscalization library for Sweden,
 * C#, System.Text.Json with web defaults: camelCase names, null properties written as `null`, properties in the order
 * its DTO declares them). docs/compatibility.md says where each field comes from.
 */

/** What the library's own activation test passes in; everything else is null, as the library leaves it. */
export interface LibraryActivation {
  country: string;
  corporateId: string;
  cashRegisterName: string;
  features: string[];
  controlUnitSerial: string;
  controlUnitLocation: string;
  validFrom: number | null;
  validTo: number | null;
  applicationPackage: string;
  contactInfo: { name: string; email: string; phone: string } | null;
}

/**
 * The activations-advanced body exactly as the library writes it: its DTO's properties in their order, an address
 * (`registrationGeolocation`) with `address` and `companyName`, `applicationNameAndVersion`, an installation with an
 * empty `buildInfo` and a `programVersion`, and nulls for what the caller left out.
 */
export function libraryActivationJson(
  fields: Partial<LibraryActivation> & Pick<LibraryActivation, 'corporateId' | 'applicationPackage'>,
): string {
  const request: LibraryActivation = {
    country: 'SE',
    cashRegisterName: 'CashReg001',
    features: ['CONTROL_UNIT'],
    controlUnitSerial: 'PTEST900000000001',
    controlUnitLocation: 'REMOTE',
    validFrom: null,
    validTo: null,
    contactInfo: null,
    ...fields,
  };
  return JSON.stringify({
    country: request.country,
    corporateId: request.corporateId,
    cashRegisterName: request.cashRegisterName,
    features: request.features,
    controlUnitSerial: request.controlUnitSerial,
    controlUnitLocation: request.controlUnitLocation,
    validFrom: request.validFrom,
    validTo: request.validTo,
    registrationGeolocation: { address: 'Address line 1', city: 'Stockholm', postalCode: '12311', companyName: 'Test company' },
    applicationNameAndVersion: 'SE Test app 1.0',
    applicationPackage: request.applicationPackage,
    productionNumber: null,
    installationCreationInfo: { deviceId: 'SERVER', buildInfo: {}, programVersion: 'SE Test app' },
    contactInfo: request.contactInfo,
  });
}

/** The name-existence body as the library writes it. */
export const libraryExistenceJson = (corporateId: string, cashRegisterName: string, country = 'SE') =>
  JSON.stringify({ country, corporateId, cashRegisterName });

/** The headers the library's HttpClient sends: Basic `username:password` (UTF-8) and JsonContent's media type. */
export const libraryHeaders = (username?: string, password?: string): Record<string, string> => ({
  'Content-Type': 'application/json; charset=utf-8',
  ...(username === undefined
    ? {}
    : { Authorization: `Basic ${Buffer.from(`${username}:${password ?? ''}`, 'utf8').toString('base64')}` }),
});

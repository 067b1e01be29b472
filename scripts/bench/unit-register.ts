/**
 * The bench rows' shop on a control unit (the journal-export, history and cloud kd rows): the seller with the profile a
 * receipt and the export name, a software vendor with an application that works with a control unit, and the register
 * activated on the unit, each through its handler in-process. A shop without a serial orders its activation REMOTE and
 * gets its unit from the stage's cloud control-unit system (docs/conventions.md §27).
 */
import { randomUUID } from 'node:crypto';
import type { Caller, Handler, Sample } from '../bench.ts';

type Invoke = (
  handler: Handler,
  method: string,
  path: string,
  status: number,
  body?: unknown,
  caller?: Caller,
) => Promise<Sample>;

export interface UnitRegister {
  sellerId: string;
  cash: string;
  /** The unit on the counter; null: a REMOTE order without a serial, enrolled at the stage's cloud system. */
  serial: string | null;
  /** The shop's name, and the vendor's and application's after it. */
  name: string;
  /** The application's package and production-number prefix. */
  applicationPackage: string;
  productionNumberPrefix: string;
  /** The activation's period (epoch ms). */
  validFrom: number;
  validTo: number;
  programVersion: string;
}

/** Creates the shop: the seller's profile (with the address a receipt prints), a software vendor and its application. */
export async function createUnitShop(invoke: Invoke, shop: UnitRegister): Promise<void> {
  const [sellers, vendors] = await Promise.all([
    import('#functions/sellers/handler.ts'),
    import('#functions/vendors/handler.ts'),
  ]);
  await invoke(sellers.handler, 'PUT', `/v33/sellers/${shop.sellerId}`, 201, {
    corporateId: shop.sellerId.slice(2),
    country: 'SE',
    publicAccess: true,
    workHoursWeek: {},
    name: `${shop.name} AB`,
    address: 'Hamngatan 4',
    zip: '211 22',
    city: 'Malmö',
    currency: 'SEK',
  });
  const { id: softwareVendor } = (
    await invoke(vendors.handler, 'POST', '/v33/software-vendors', 201, { name: `Bench ${shop.name} AB` })
  ).body as { id: number };
  await invoke(vendors.handler, 'POST', '/v33/application-descriptions', 201, {
    applicationPackage: shop.applicationPackage,
    productionNumberPrefix: shop.productionNumberPrefix,
    controlUnitRequired: true,
    name: `Bench ${shop.name}`,
    softwareVendor,
    autoActivationCondition: 'NO_FEATURES',
    corporateIdValidationMethod: 'NONE',
  });
}

/** The body of the shop's `POST /v33/activations-advanced` for its register `cash`. */
export function unitActivationOrder(shop: UnitRegister, cash = shop.cash): Record<string, unknown> {
  return {
    country: 'SE',
    corporateId: shop.sellerId.slice(2),
    companyName: `${shop.name} AB`,
    cashRegisterName: cash,
    features: [],
    validFrom: shop.validFrom,
    validTo: shop.validTo,
    applicationPackage: shop.applicationPackage,
    ...(shop.serial === null
      ? { controlUnitLocation: 'REMOTE' }
      : {
          controlUnitSerial: shop.serial,
          controlUnitLocation: 'DEVICE',
          controlUnitGeolocation: { city: 'Malmö', postalCode: '211 20' },
        }),
    installationCreationInfo: {
      deviceId: randomUUID().slice(0, 16),
      buildInfo: { os: 'bench' },
      programVersion: shop.programVersion,
    },
  };
}

/** Creates the shop and activates its register on `serial`; answers the register's key and activation. */
export async function activateUnitRegister(
  invoke: Invoke,
  shop: UnitRegister,
): Promise<{ apiKey: string; activationId: number }> {
  const activations = await import('#functions/activations/handler.ts');
  await createUnitShop(invoke, shop);
  return (await invoke(activations.handler, 'POST', '/v33/activations-advanced', 201, unitActivationOrder(shop))).body as {
    apiKey: string;
    activationId: number;
  };
}

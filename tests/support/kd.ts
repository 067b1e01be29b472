/** Registers with a control unit, kd bodies and unit states for the tests of the kd path (docs/conventions.md §25). */
import { randomUUID } from 'node:crypto';
import { table } from '#shared/db/client.ts';
import { putItem } from '#shared/db/documents.ts';
import { encodeKd, type KdRequest } from '#shared/kd/codec.ts';
import { thingName, bridgeKeys } from '#shared/kd/protocol.ts';
import type { ApiVersion } from '#shared/versions.ts';
import { type CallOptions, v } from './http.ts';
import { DAY, newApp, newVendor } from './identity.ts';

export interface UnitApp {
  applicationPackage: string;
  softwareVendor: number;
}

/** An application that works with a control unit, of a vendor of its own. */
export async function unitApp(): Promise<UnitApp> {
  const softwareVendor = await newVendor('Kontrollenhet AB');
  const app = await newApp(softwareVendor, { controlUnitRequired: true, corporateIdValidationMethod: 'NONE' });
  return { applicationPackage: app.applicationPackage, softwareVendor };
}

/**
 * A register `cash` of seller `SE<corporateId>` activated (v33 activations-advanced) on control unit `serial`, its
 * installation running `programVersion` when one is given.
 */
export async function activateOnUnit(
  app: UnitApp,
  corporateId: string,
  cash: string,
  serial: string,
  programVersion?: string,
): Promise<CallOptions> {
  const answer = await v(33).post('/activations-advanced', {
    country: 'SE',
    corporateId,
    companyName: 'Kontrollbutiken',
    cashRegisterName: cash,
    features: [],
    validFrom: Date.now() - DAY,
    validTo: Date.now() + DAY,
    applicationPackage: app.applicationPackage,
    controlUnitSerial: serial,
    controlUnitLocation: 'DEVICE',
    controlUnitGeolocation: { city: 'Malmö', postalCode: '211 20' },
    installationCreationInfo: { deviceId: randomUUID().slice(0, 16), buildInfo: { os: 'Android 14' }, programVersion },
  });
  if (answer.status !== 201) throw new Error(`register ${cash} not activated on ${serial}: ${answer.status} ${answer.text}`);
  return { as: { apiKey: (answer.body as { apiKey: string }).apiKey } };
}

/** 2026-07-01 12:05:30 in Stockholm: the kd's `date` of the tests. */
export const KD_DATE = Date.UTC(2026, 6, 1, 10, 5, 30);

/** A kd body of a Normal receipt of `brutto` at 25 %, its fields replaced by `fields`. */
export const kdOf = (receiptNumber: number | null, brutto = 12500, fields: Record<string, unknown> = {}) => ({
  vatRateToSum: { '25': brutto },
  refund: false,
  printType: 'Normal',
  receiptNumber,
  date: KD_DATE,
  ...fields,
});

/** Sends a kd as a register of `version` sends it (v33 on its own path). */
export function sendKd(version: ApiVersion, sellerId: string, cash: string, body: unknown, register: CallOptions) {
  return version === 33
    ? v(33).post(`/${sellerId}/registration/${encodeURIComponent(cash)}/kd`, body, register)
    : v(version).post('/pospluses/kd', body, register);
}

/** The control code the simulated unit gives a command: its HMAC of the kd line (edge/simulator.ts). */
export function lineOf(command: KdRequest): string {
  return encodeKd(command).slice(0, -2);
}

/** A unit whose bridge is provisioned (its `#BRIDGE` record) and, when `seen`, last reported `online`, with no bridge running. */
export async function ghostUnit(serial: string, seen: { online: boolean } | undefined): Promise<void> {
  await putItem({
    TableName: table(),
    Item: { ...bridgeKeys.bridge(serial), serial, thingName: thingName(serial), provisioned: Date.now() },
  });
  if (seen) {
    await putItem({
      TableName: table(),
      Item: { ...bridgeKeys.status(serial), serial, online: seen.online, bridgeVersion: 'ghost', at: Date.now() },
    });
  }
}

/** Registers and sales for the tests of a register's trading day (docs/conventions.md §14-§19). */
import { randomUUID } from 'node:crypto';
import type { ApiVersion } from '#shared/versions.ts';
import { type CallOptions, v } from './http.ts';
import { DAY, newApp, newVendor } from './identity.ts';

export interface RegisterApp {
  applicationPackage: string;
}

/** An application without a control unit whose registers are ACTIVE as soon as they are ordered. */
export async function registerApp(): Promise<RegisterApp> {
  return newApp(await newVendor(), {
    controlUnitRequired: false,
    autoActivationCondition: 'ALWAYS',
    corporateIdValidationMethod: 'NONE',
    name: 'Dagkassan',
  });
}

const deviceId = () => randomUUID().replaceAll('-', '').slice(0, 16);

/**
 * Activates register `cash` of seller `SE<corporateId>` (created with it when new) the way a register of
 * `api` is activated: v15 orders it without credentials (its `activationSecurityToken` is its key),
 * v26 and v33 through the hyper admin's `activations-advanced`. Answers the register's credentials.
 */
export async function activateRegister(
  api: ApiVersion,
  app: RegisterApp,
  corporateId: string,
  cash: string,
): Promise<CallOptions> {
  const validity = { validFrom: Date.now() - DAY, validTo: Date.now() + DAY };
  const answer =
    api === 15
      ? await v(15).post(
          '/noauth/activations/order-activation',
          {
            installationOrderInfo: { deviceId: deviceId(), applicationPackage: app.applicationPackage },
            country: 'SE',
            corporateId,
            companyName: 'Dagbutiken',
            activationDetailsInfo: { ...validity, features: [] },
            cashRegisterName: cash,
          },
          { as: 'none' },
        )
      : await v(api).post('/activations-advanced', {
          country: 'SE',
          corporateId,
          companyName: 'Dagbutiken',
          cashRegisterName: cash,
          features: [],
          ...validity,
          applicationPackage: app.applicationPackage,
          installationCreationInfo: { deviceId: deviceId(), buildInfo: { os: 'Android 14' } },
        });
  if (answer.status !== 201) throw new Error(`register ${cash} not activated in v${api}: ${answer.status} ${answer.text}`);
  const body = answer.body as { apiKey?: string; activationSecurityToken?: string };
  return { as: { apiKey: body.apiKey ?? body.activationSecurityToken ?? '' } };
}

/** A sale of `brutto` at 25 % VAT paid in one payment (cash unless told), its fields replaced by `fields`. */
export function saleOf(brutto: number, fields: Record<string, unknown> = {}, paymentType = 'Cash') {
  const vat = Math.round(brutto / 5);
  return {
    identifier: randomUUID(),
    sellerIdentifier: 'Anna',
    saleState: 'Paid',
    refund: false,
    refundFor: null,
    brutto,
    vat,
    saleProducts: [{ productIdentifier: 'p1', deltaUnit: true, delta: 1, vat, netto: brutto - vat, brutto }],
    payments: [{ paymentType, amount: brutto }],
    vatRateSums: [{ vatRate: 2500, vat, netto: brutto - vat, brutto }],
    prints: [] as Record<string, unknown>[],
    ...fields,
  };
}

/** The register's stream version, as a syncing register reads it (`GET /registrations/{cash}/version`). */
export async function registerVersion(sellerId: string, cash: string): Promise<number> {
  const answer = await v(33).get(`/${sellerId}/registrations/${encodeURIComponent(cash)}/version`);
  if (answer.status !== 200) throw new Error(`no version of ${cash}: ${answer.status} ${answer.text}`);
  return (answer.body as { version: number }).version;
}

/**
 * A fiscal route's path (a template of `functions/fiscal/handler.ts`) for register `cash` of `sellerId`:
 * sale `s1`, day 1, the diffs from 0 to 1.
 */
export const fiscalPath = (template: string, sellerId: string, cash: string): string =>
  template.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (name === 'sellerId') return sellerId;
    if (name === 'cash') return encodeURIComponent(cash);
    if (name === 'versionFrom') return '0';
    if (name === 'versionTo') return '1';
    return /day/i.test(name) ? '1' : 's1';
  });

/** A body the register itself could send to a fiscal route; undefined for a route that takes none (reads included). */
export function fiscalBody({ method, path: template }: { method: string; path: string }): unknown {
  if (method === 'GET') return undefined;
  if (template.endsWith('/sales')) return saleOf(100);
  if (template.endsWith('/balance')) return { amount: 100, action: 'DEPOSIT' };
  if (template.endsWith('/e-journals/{cash}')) return { data: { note: 'x' } };
  if (template.endsWith('/days') || template.endsWith('/days/{identifier}')) return {};
  return undefined;
}

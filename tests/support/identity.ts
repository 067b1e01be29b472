import { randomUUID } from 'node:crypto';
import type { Role } from '#shared/auth/principal.ts';
import { createUserIfAbsent } from '#shared/auth/users.ts';
import { type CallOptions, uniqueCorporateId, v } from './http.ts';

export const DAY = 86_400_000;

/** A vendor created by the hyper admin; answers its id. */
export async function newVendor(name = 'Kassasystem AB'): Promise<number> {
  const answer = await v(33).post('/software-vendors', { name });
  if (answer.status !== 201) throw new Error(`vendor not created: ${answer.status} ${answer.text}`);
  return (answer.body as { id: number }).id;
}

/** A complete application description (v15/v26 shape) of `softwareVendor` with a package no other test uses. */
export const appOf = (softwareVendor: number, fields: Record<string, unknown> = {}) => ({
  applicationPackage: `se.example.pos.${randomUUID().slice(0, 8)}`,
  productionNumberPrefix: 'KA',
  controlUnitRequired: true,
  name: 'Kassa',
  softwareVendor,
  autoActivationCondition: 'NO_FEATURES',
  corporateIdValidationMethod: 'VALIDATE_SWEDISH',
  ...fields,
});

/** Creates an application description through v33; answers its body. */
export async function newApp(softwareVendor: number, fields: Record<string, unknown> = {}) {
  const app = appOf(softwareVendor, fields);
  const answer = await v(33).post('/application-descriptions', app);
  if (answer.status !== 201) throw new Error(`application not created: ${answer.status} ${answer.text}`);
  return app;
}

/** A user of the role (a vendor user for `softwareVendor`), and its Basic credentials. */
export async function userOf(role: Role, softwareVendor: number | null = null, sellers: string[] = []): Promise<CallOptions> {
  const basic: [string, string] = [`${role.toLowerCase()}-${randomUUID().slice(0, 8)}`, 'a-password'];
  await createUserIfAbsent({ username: basic[0], password: basic[1], email: 'u@example.com', role, softwareVendor, sellers });
  return { as: { basic } };
}

/**
 * A Swedish organisation number that passes the Luhn check and no other test uses: 5, a digit, a third digit of 2 to 9
 * (an organisation's "month" is 20 or more), 6 digits, the check digit. 8 x 10^7 of them, not the 10^6 of 556 + 6
 * digits: a run makes about a thousand sellers, and among 10^6 two would share one about every other run.
 */
export function swedishCorporateId(): string {
  const digits = uniqueCorporateId();
  const body = `5${digits.slice(-8, -7)}${2 + (Number(digits.slice(-7, -6)) % 8)}${digits.slice(-6)}`;
  const sum = [...body].reduce((total, char, index) => {
    const digit = Number(char) * (index % 2 === 0 ? 2 : 1);
    return total + (digit > 9 ? digit - 9 : digit);
  }, 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

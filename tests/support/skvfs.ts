/**
 * Skatteverket's own schemas (SKVFS 2021:16, ../shared/skvfs2021-16, with their provenance) as the oracle of every
 * export a test makes: libxml2's xmllint, as WebAssembly (scripts/export-schemas.ts), validates the document against
 * them, outside our code.
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { schemaProblems as problemsAgainst } from '../../scripts/export-schemas.ts';
import { type CallOptions, v } from './http.ts';
import { swedishCorporateId } from './identity.ts';
import { activateOnUnit, sendKd, type UnitApp } from './kd.ts';

const WRAPPER = fileURLToPath(new URL('../../../shared/skvfs2021-16/validate_wrapper.xsd', import.meta.url));

/** xmllint's verdict on `xml`: null when valid, else its complaints. */
export function schemaProblems(xml: string): Promise<string | null> {
  return problemsAgainst(xml, { wrapper: WRAPPER });
}

/** Fails the test unless `xml` is valid against Skatteverket's schemas. */
export async function expectValidExport(xml: string): Promise<void> {
  expect(await schemaProblems(xml)).toBeNull();
}

/** A register of a seller with a profile the export can name, on the test's unit. */
export interface Shop {
  sellerId: string;
  cash: string;
  register: CallOptions;
  /** `/{sellerId}/registrations/{cash}`. */
  base: string;
}

/**
 * A seller with a profile the export can name, and its register on `serial`, installed as version 4.2.0. Each
 * register has a name of its own: the unit numbers receipts per register name.
 */
export async function exportShop(app: UnitApp, serial: string): Promise<Shop> {
  const cash = `K${randomUUID().slice(0, 8)}`;
  const corporateId = swedishCorporateId();
  const sellerId = `SE${corporateId}`;
  const register = await activateOnUnit(app, corporateId, cash, serial, '4.2.0');
  const profile = await v(33).put(`/sellers/${sellerId}`, {
    corporateId,
    country: 'SE',
    publicAccess: true,
    workHoursWeek: {},
    name: 'Exportbutiken AB',
    address: 'Hamngatan 4',
    zip: '211 22',
    city: 'Malmö',
    currency: 'SEK',
  });
  expect(profile.status).toBe(204);
  return { sellerId, cash, register, base: `/${sellerId}/registrations/${cash}` };
}

/** The unit's control code for a kd, as the register asks for it before it prints. */
export async function codeFor(s: Shop, body: Record<string, unknown>): Promise<string> {
  const answer = await sendKd(33, s.sellerId, s.cash, body, s.register);
  expect([answer.status, answer.text]).toEqual([201, expect.any(String)]);
  return (answer.body as { response: string }).response;
}

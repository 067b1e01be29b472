import { tax as taxValidator } from '#schemas/generated/validators.js';
import { tax } from '#schemas/tax.ts';
import type { TaxBody } from '#schemas/types.ts';
import { fieldsOf } from '#schemas/views.ts';
import { ALL_VERSIONS } from '#shared/versions.ts';
import type { CatalogEntity } from './entity.ts';

/** Taxes (spec 4.5): one shape in every version. */
export const taxes: CatalogEntity<TaxBody> = {
  plural: 'taxes',
  kind: 'TAX',
  versions: ALL_VERSIONS,
  body: { 15: taxValidator, 26: taxValidator, 33: taxValidator },
  view: { 15: fieldsOf(tax), 26: fieldsOf(tax), 33: fieldsOf(tax) },
  orderFields: ['identifier', 'name', 'vat'],
  searched: ['name', 'identifier'],
};

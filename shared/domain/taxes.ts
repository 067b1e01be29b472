import { tax as taxFields } from '#schemas/generated/fields.js';
import { tax as taxValidator } from '#schemas/generated/validators.js';
import type { TaxBody } from '#schemas/types.ts';
import { everywhere, type VersionedEntity } from '#shared/versioned/entity.ts';

/** Taxes (spec 4.5): one shape in every version. */
export const taxes: VersionedEntity<TaxBody> = {
  plural: 'taxes',
  kind: 'TAX',
  versions: [15, 26, 33],
  ...everywhere<TaxBody>(taxValidator, taxFields),
  orderFields: ['identifier', 'name', 'vat'],
  searched: ['name', 'identifier'],
};

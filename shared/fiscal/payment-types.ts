import type { ApiVersion } from '#shared/versions.ts';
import { PAYMENT_TYPES, type PaymentType } from './model.ts';

const V15_V26 = ['Cash', 'Card', 'WalletA', 'ProviderB', 'ProviderC', 'ProviderD', 'ClosePayment'] as const;

/**
 * Each version's payment type names (spec 2.2), position by position the canonical `PAYMENT_TYPES`:
 * v15 and v26 say `Card` for `EmvStandalone` and `ProviderD` for `EmvIntegrated`.
 */
export const PAYMENT_TYPE_NAMES = {
  15: V15_V26,
  26: V15_V26,
  33: PAYMENT_TYPES,
} as const satisfies Record<ApiVersion, readonly string[]>;

export type PaymentTypeName<V extends ApiVersion = ApiVersion> = (typeof PAYMENT_TYPE_NAMES)[V][number];

/** The canonical payment type as `version` names it. */
export function paymentTypeIn<V extends ApiVersion>(type: PaymentType, version: V): PaymentTypeName<V> {
  return PAYMENT_TYPE_NAMES[version][PAYMENT_TYPES.indexOf(type)] as PaymentTypeName<V>;
}

/** The canonical payment type of a name of `version` (its schema admits only that version's names). */
export function paymentTypeFrom(name: PaymentTypeName, version: ApiVersion): PaymentType {
  const index = (PAYMENT_TYPE_NAMES[version] as readonly string[]).indexOf(name);
  const type = PAYMENT_TYPES[index];
  if (type === undefined) throw new Error(`${name} is no payment type of v${version}`);
  return type;
}

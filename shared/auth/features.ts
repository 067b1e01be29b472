import type { ApiVersion } from '#shared/versions.ts';

/**
 * Activation features (spec 2.2). The canonical set is the union of every version's names, spelt
 * as v33 spells them; v15 and v26 say `SYNCRONIZATION` for `SYNCHRONIZATION`. A version sees and
 * writes only the features it knows, so a v15 write keeps a feature only v33 can name.
 */
export const FEATURES = [
  'VOUCHERS',
  'PROVIDER_C',
  'WALLET_A',
  'PROVIDER_B',
  'CLOSEPAYMENT',
  'PROVIDER_D',
  'SUPPORT',
  'SYNCHRONIZATION',
  'MULTIUSERS',
  'PROVIDER_E',
  'CONTROL_UNIT',
  'COUPONS',
  'TAX_AUTHORITY',
] as const;
export type Feature = (typeof FEATURES)[number];

const COMMON = ['VOUCHERS', 'PROVIDER_C', 'WALLET_A', 'PROVIDER_B', 'CLOSEPAYMENT', 'PROVIDER_D', 'SUPPORT'] as const;

/** Each version's feature names, in the spec's order. */
export const FEATURE_NAMES = {
  15: [...COMMON, 'SYNCRONIZATION', 'MULTIUSERS', 'PROVIDER_E'],
  26: [...COMMON, 'SYNCRONIZATION', 'PROVIDER_E', 'CONTROL_UNIT', 'COUPONS'],
  33: [...COMMON, 'SYNCHRONIZATION', 'PROVIDER_E', 'CONTROL_UNIT', 'COUPONS', 'TAX_AUTHORITY'],
} as const satisfies Record<ApiVersion, readonly string[]>;

const toCanonical = (name: string): Feature => (name === 'SYNCRONIZATION' ? 'SYNCHRONIZATION' : (name as Feature));
const toVersion = (feature: Feature, version: ApiVersion): string =>
  feature === 'SYNCHRONIZATION' && version !== 33 ? 'SYNCRONIZATION' : feature;

const known = (version: ApiVersion) => new Set(FEATURE_NAMES[version].map(toCanonical));

/** The features as a version names them; features the version does not know are left out. */
export function featuresIn(features: readonly Feature[], version: ApiVersion): string[] {
  const visible = known(version);
  return features.filter((feature) => visible.has(feature)).map((feature) => toVersion(feature, version));
}

/**
 * The canonical features after a write through a version: the version's names replace the
 * features it knows; the features it does not know are kept. Duplicates collapse.
 */
export function mergeFeatures(stored: readonly Feature[], written: readonly string[], version: ApiVersion): Feature[] {
  const visible = known(version);
  const kept = stored.filter((feature) => !visible.has(feature));
  return FEATURES.filter((feature) => kept.includes(feature) || written.map(toCanonical).includes(feature));
}

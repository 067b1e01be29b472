import { forbidden } from '#shared/errors.ts';
import type { Principal } from './principal.ts';

/**
 * Who may call a route (spec 5.4), checked in one place before the domain function runs.
 * `credentials: false` routes (the `noauth` ones) take none.
 */
export interface AccessRule {
  credentials: boolean;
  allows(principal: Principal | undefined, params: Readonly<Record<string, string>>): boolean;
}

export const insufficientRights = () => forbidden('INSUFFICIENT_ACCESS_RIGHTS', 'Insufficient access rights');

/** Whether the principal may read and write the seller's data. */
export function canAccessSeller(principal: Principal | undefined, sellerId: string): boolean {
  if (principal === undefined) return false;
  if (principal.kind === 'activation') return principal.sellerId === sellerId;
  return principal.role === 'HYPER_ADMIN' || principal.sellers.includes(sellerId);
}

export const isHyperAdmin = (principal: Principal | undefined) => principal?.kind === 'user' && principal.role === 'HYPER_ADMIN';

export const access = {
  /** No credentials needed. */
  anyone: { credentials: false, allows: () => true } satisfies AccessRule,
  /** Any valid credentials; the domain function narrows what is shown. */
  authenticated: { credentials: true, allows: (principal) => principal !== undefined } satisfies AccessRule,
  hyperAdmin: { credentials: true, allows: isHyperAdmin } satisfies AccessRule,
  /** The seller named by the `sellerId` path parameter. */
  seller: {
    credentials: true,
    allows: (principal, params) => canAccessSeller(principal, params.sellerId ?? ''),
  } satisfies AccessRule,
} as const;

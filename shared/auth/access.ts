import { readItem } from '#shared/db/reads.ts';
import { sellerMissing, sellerReferenceMissing, splitSellerId } from '#shared/domain/seller.ts';
import { type ApiError, forbidden } from '#shared/errors.ts';
import type { Principal } from './principal.ts';
import { vendorKeys } from '#shared/domain/records.ts';

/**
 * Who may call a route (spec 5.4), checked in one place before the domain function runs.
 * `credentials: false` routes (the `noauth` ones) take none.
 */
export interface AccessRule {
  credentials: boolean;
  allows(principal: Principal | undefined, params: Readonly<Record<string, string>>): boolean | Promise<boolean>;
  /**
   * The `{sellerId}` of the path must be live, or the request is refused with this error before
   * the domain function runs (`requireLiveSeller`, after the path parameters are checked).
   */
  liveSeller?: (sellerId: string) => ApiError;
  /**
   * The seller id a path's `{sellerId}` segment stands for, for a route whose clients may name the caller's seller
   * another way; every check after credentials (access, path parameters, the live seller, the domain function) sees it.
   */
  sellerIdOf?: (principal: Principal | undefined, segment: string) => string;
}

export const insufficientRights = () => forbidden('INSUFFICIENT_ACCESS_RIGHTS', 'Insufficient access rights');

export type UserPrincipal = Extract<Principal, { kind: 'user' }>;

export const isHyperAdmin = (principal: Principal | undefined): boolean =>
  principal?.kind === 'user' && principal.role === 'HYPER_ADMIN';

/** A software-vendor user, with the vendor it acts for. */
export const vendorOf = (principal: Principal | undefined): number | undefined =>
  principal?.kind === 'user' && principal.role === 'SOFTWARE_VENDOR' ? (principal.softwareVendor ?? undefined) : undefined;

/** A user who administers something: the hyper admin, or a software-vendor user for its vendor. */
export const isAdministrator = (principal: Principal | undefined): boolean =>
  isHyperAdmin(principal) || vendorOf(principal) !== undefined;

/**
 * Whether the principal may read and write the seller's data (spec 5.4): the hyper admin any
 * seller; a software-vendor user the sellers that run its applications (a link written with
 * their registration); a regular user its connected sellers; a register's activation its own.
 */
export async function canAccessSeller(principal: Principal | undefined, sellerId: string): Promise<boolean> {
  if (principal === undefined) return false;
  if (principal.kind === 'activation') return principal.sellerId === sellerId;
  if (principal.role === 'HYPER_ADMIN') return true;
  const vendor = vendorOf(principal);
  if (vendor !== undefined) return (await readItem(vendorKeys.sellerLink(vendor, sellerId))) !== undefined;
  return principal.sellers.includes(sellerId);
}

/**
 * A register's own seller as an app written for srv4pos names it in its kd path (docs/compatibility.md): the seller id
 * in any letter case (`se5560360793`) or the bare corporate id (`5560360793`). Any other segment stands for itself.
 */
function registerSellerIdOf(principal: Principal | undefined, segment: string): string {
  if (principal?.kind !== 'activation') return segment;
  const own = principal.sellerId;
  const named = segment.toUpperCase() === own.toUpperCase() || segment === splitSellerId(own).corporateId;
  return named ? own : segment;
}

const ownRegister = {
  credentials: true,
  allows: (principal, params) =>
    principal?.kind === 'activation' &&
    principal.sellerId === params.sellerId &&
    (params.cash === undefined || params.cash === principal.cashRegisterName),
  liveSeller: sellerMissing,
} satisfies AccessRule;

export const access = {
  /** No credentials needed. */
  anyone: { credentials: false, allows: () => true } satisfies AccessRule,
  /** Any valid credentials; the domain function narrows what is shown. */
  authenticated: { credentials: true, allows: (principal) => principal !== undefined } satisfies AccessRule,
  /** Any user (not a register's activation); the domain function narrows what is shown. */
  user: { credentials: true, allows: (principal) => principal?.kind === 'user' } satisfies AccessRule,
  /** A register's activation (X-Api-Key). */
  register: { credentials: true, allows: (principal) => principal?.kind === 'activation' } satisfies AccessRule,
  hyperAdmin: { credentials: true, allows: isHyperAdmin } satisfies AccessRule,
  /** The hyper admin or a software-vendor user; the domain function scopes to the vendor. */
  administrator: { credentials: true, allows: isAdministrator } satisfies AccessRule,
  /** The data of the live seller named by the `sellerId` path parameter (a deleted seller's data is 404). */
  seller: {
    credentials: true,
    allows: (principal, params) => canAccessSeller(principal, params.sellerId ?? ''),
    liveSeller: sellerMissing,
  } satisfies AccessRule,
  /** As `seller`, where the seller is the owner a path refers to (images): a missing one is 404 ReferenceNotFound. */
  sellerReference: {
    credentials: true,
    allows: (principal, params) => canAccessSeller(principal, params.sellerId ?? ''),
    liveSeller: sellerReferenceMissing,
  } satisfies AccessRule,
  /**
   * A register writing its own fiscal records (docs/conventions.md §14): an activation of the path's seller, and of the
   * path's `{cash}` where the path names one (a path without it means the caller's register).
   */
  ownRegister,
  /** As `ownRegister`, where the path may name the register's seller as srv4pos clients do (the kd path). */
  ownRegisterSrv4pos: { ...ownRegister, sellerIdOf: registerSellerIdOf } satisfies AccessRule,
  /** The seller record itself (GET and PUT /sellers/{sellerId}): PUT may create it, so it need not be live. */
  sellerRecord: {
    credentials: true,
    allows: (principal, params) => canAccessSeller(principal, params.sellerId ?? ''),
  } satisfies AccessRule,
} as const;

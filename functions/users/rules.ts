/** Who may see and manage which user (docs/decisions.md, "Users and roles"). */
import { insufficientRights, isAdministrator, isHyperAdmin, type UserPrincipal, vendorOf } from '#shared/auth/access.ts';
import type { Principal, Role } from '#shared/auth/principal.ts';
import { getUser, type UserEntry, type UserRecord } from '#shared/auth/users.ts';
import { inconsistentData, notFound, unprocessable } from '#shared/errors.ts';

/** The caller as a user: the routes whose functions ask for one admit users only, so this narrows the type. */
export function userOf(principal: Principal | undefined): UserPrincipal {
  if (principal?.kind !== 'user') throw insufficientRights();
  return principal;
}

/** The hyper admin manages every user; a software-vendor user the users of its own vendor, hyper admins excepted. */
export function manages(caller: UserPrincipal, user: Pick<UserEntry, 'role' | 'softwareVendor'>): boolean {
  if (isHyperAdmin(caller)) return true;
  const vendor = vendorOf(caller);
  return vendor !== undefined && user.role !== 'HYPER_ADMIN' && user.softwareVendor === vendor;
}

/**
 * The user named in the path, when the caller is that user or manages it; otherwise 403. An
 * unknown name is 404 for administrators (they create users, so a 409 would tell them anyway) and
 * 403 for everyone else, who must not learn which names exist.
 */
export async function visibleUser(caller: UserPrincipal, username: string): Promise<UserRecord> {
  const user = await getUser(username);
  if (!user) throw isAdministrator(caller) ? notFound(`User ${username} does not exist`) : insufficientRights();
  if (user.username !== caller.username && !manages(caller, user)) throw insufficientRights();
  return user;
}

/** The username of a body that must name the user of the path (409 URL_AND_BODY_IDENTIFIERS_MISMATCH). */
export function sameUsername(params: Readonly<Record<string, string>>, body: { username: string }): string {
  if (body.username !== params.username) {
    throw inconsistentData('URL_AND_BODY_IDENTIFIERS_MISMATCH', 'The usernames of the URL and the body differ');
  }
  return body.username;
}

/**
 * The role and vendor a user gets from a write by `caller`. The software-vendor role needs a vendor
 * (422 SOFTWARE_VENDOR_IS_MISSING); a hyper admin has none. Nobody changes their own role or vendor
 * (no escalation, and the last hyper admin cannot demote itself); only the hyper admin makes hyper
 * admins or places users outside its vendor; a vendor user's users belong to its vendor.
 */
export function placement(
  caller: UserPrincipal,
  current: UserRecord | undefined,
  role: Role,
  softwareVendor: number | null,
): Pick<UserRecord, 'role' | 'softwareVendor'> {
  if (role === 'SOFTWARE_VENDOR' && softwareVendor === null) {
    throw unprocessable('SOFTWARE_VENDOR_IS_MISSING', 'A software-vendor user needs its softwareVendor');
  }
  if (current?.username === caller.username) {
    const vendor = role === 'HYPER_ADMIN' ? null : (softwareVendor ?? current.softwareVendor);
    if (role !== current.role || vendor !== current.softwareVendor) throw insufficientRights();
    return { role, softwareVendor: vendor };
  }
  if (isHyperAdmin(caller)) return { role, softwareVendor: role === 'HYPER_ADMIN' ? null : softwareVendor };
  const own = vendorOf(caller);
  if (own === undefined || role === 'HYPER_ADMIN' || (softwareVendor ?? own) !== own) throw insufficientRights();
  return { role, softwareVendor: own };
}

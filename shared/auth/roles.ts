import type { ApiVersion } from '#shared/versions.ts';
import type { Role } from './principal.ts';

/**
 * The role names of each API version (spec 2.2): v15 `roleType`, v26/v33 `userRoleType`, all
 * mapped onto the one canonical Role. v15's `ACTIVATION` names a register's activation, which is
 * not a user; it appears only in the v15 view of `/auth/user` called with an API key.
 */
const NAMES: Record<ApiVersion, Record<Role, string>> = {
  15: { HYPER_ADMIN: 'ROLE_HYPER_ADMIN', SOFTWARE_VENDOR: 'ROLE_SOFTWARE_VENDOR_ADMIN', REGULAR_USER: 'SELLER_ADMIN' },
  26: { HYPER_ADMIN: 'ROLE_HYPER_ADMIN', SOFTWARE_VENDOR: 'ROLE_SOFTWARE_VENDOR', REGULAR_USER: 'ROLE_REGULAR_USER' },
  33: { HYPER_ADMIN: 'ROLE_HYPER_ADMIN', SOFTWARE_VENDOR: 'ROLE_SOFTWARE_VENDOR', REGULAR_USER: 'ROLE_REGULAR_USER' },
};

export const V15_ACTIVATION_ROLE = 'ACTIVATION';

/** The role names a version accepts in a user body (the schemas' enumerations). */
export const roleNames = (version: ApiVersion): string[] => Object.values(NAMES[version]);

export const roleName = (role: Role, version: ApiVersion): string => NAMES[version][role];

/** The canonical role of a version's name; the body schema has already refused unknown names. */
export function roleOf(name: string, version: ApiVersion): Role {
  const entry = Object.entries(NAMES[version]).find(([, value]) => value === name);
  if (!entry) throw new Error(`Unknown role name ${name} in v${version}`);
  return entry[0] as Role;
}

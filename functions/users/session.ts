import { insufficientRights, isHyperAdmin } from '#shared/auth/access.ts';
import type { Principal } from '#shared/auth/principal.ts';
import { V15_ACTIVATION_ROLE } from '#shared/auth/roles.ts';
import { getUser } from '#shared/auth/users.ts';
import { readItems } from '#shared/db/reads.ts';
import { forbidden, notFound } from '#shared/errors.ts';
import { ok } from '#shared/http/response.ts';
import type { ApiRequest, Reply } from '#shared/http/types.ts';
import { userOf } from './rules.ts';
import { showUser } from './users.ts';

type Activation = Extract<Principal, { kind: 'activation' }>;

import { isSellerProfile, requireLiveSeller, sellerKeys } from '#shared/domain/seller.ts';
/** A register whose seller is not registered (or deleted) gets SELLER_NOT_FOUND, so the app registers it (spec 5.5). */
async function requireSeller(principal: Activation): Promise<void> {
  await requireLiveSeller(principal.sellerId, () =>
    forbidden('SELLER_NOT_FOUND', 'The seller of this activation is not registered'),
  );
}

/** GET /auth/handshake: 200 with no body once the credentials pass. */
export async function handshake(request: ApiRequest): Promise<Reply> {
  if (request.principal?.kind === 'activation') await requireSeller(request.principal);
  return ok(undefined);
}

/**
 * GET /auth/user: the caller's User view. v26/v33 add the connected sellers (deleted ones left
 * out). A register's key: v26/v33 refuse (spec 5.4: no user info under a seller role); v15 shows
 * the activation as a pseudo user with the role ACTIVATION.
 */
export async function currentUser(request: ApiRequest): Promise<Reply> {
  const { principal, version } = request;
  if (principal?.kind === 'activation') {
    if (version !== 15) throw insufficientRights();
    await requireSeller(principal);
    const username = String(principal.activationId);
    return ok({ username, email: null, role: V15_ACTIVATION_ROLE, softwareVendor: null, password: null });
  }
  const caller = userOf(principal);
  const user = await getUser(caller.username);
  if (!user) throw notFound(`User ${caller.username} does not exist`);
  if (version === 15) return ok(showUser(user, 15, isHyperAdmin(caller) ? user.passwordHash : null));
  const sellers = await readItems(user.sellers.map((sellerId) => sellerKeys.profile(sellerId)));
  const connectedSellers = sellers
    .filter(isSellerProfile)
    .map((seller) => ({ name: seller.name ?? null, country: seller.country, corporateId: seller.corporateId }));
  return ok({ ...showUser(user, version), connectedSellers });
}

import { canAccessSeller, insufficientRights } from '#shared/auth/access.ts';
import { saveUser, type UserRecord } from '#shared/auth/users.ts';
import { requireLiveSeller, sellerReferenceMissing } from '#shared/domain/seller.ts';
import { unprocessable } from '#shared/errors.ts';
import { noContent } from '#shared/http/response.ts';
import type { ApiRequest, Reply } from '#shared/http/types.ts';
import { userOf, visibleUser } from './rules.ts';

/**
 * The regular user and seller of a connection path: the caller must manage the user (or be it)
 * and have access to the seller itself; only regular users are connected to sellers (422).
 */
async function connection(
  request: ApiRequest<unknown, 'sellerId' | 'username'>,
): Promise<{ user: UserRecord; sellerId: string }> {
  const caller = userOf(request.principal);
  const { username, sellerId } = request.params;
  const user = await visibleUser(caller, username);
  if (user.role !== 'REGULAR_USER') {
    throw unprocessable('USER_IS_NOT_REGULAR', 'Only regular users are connected to sellers; administrators reach them by role');
  }
  if (!(await canAccessSeller(caller, sellerId))) throw insufficientRights();
  return { user, sellerId };
}

/** PUT /users/{username}/sellers/{sellerId}: connects a regular user to a registered seller (idempotent). */
export async function connectSeller(request: ApiRequest<unknown, 'sellerId' | 'username'>): Promise<Reply> {
  const { user, sellerId } = await connection(request);
  await requireLiveSeller(sellerId, sellerReferenceMissing);
  if (!user.sellers.includes(sellerId)) await saveUser(user, { sellers: [...user.sellers, sellerId] });
  return noContent();
}

/** DELETE /users/{username}/sellers/{sellerId}: disconnects (idempotent; a deleted seller can be disconnected too). */
export async function disconnectSeller(request: ApiRequest<unknown, 'sellerId' | 'username'>): Promise<Reply> {
  const { user, sellerId } = await connection(request);
  if (user.sellers.includes(sellerId)) await saveUser(user, { sellers: user.sellers.filter((id) => id !== sellerId) });
  return noContent();
}

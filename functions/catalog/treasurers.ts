import type { TreasurerBody } from '#schemas/types.ts';
import { access, insufficientRights } from '#shared/auth/access.ts';
import { notFound, referenceNotFound } from '#shared/errors.ts';
import { noContent } from '#shared/http/response.ts';
import { type Route, route } from '#shared/http/router.ts';
import type { ApiRequest, Reply } from '#shared/http/types.ts';
import { SINCE_26 } from '#shared/versions.ts';
import { treasurers } from './entities.ts';
import type { Change } from '#shared/versioned/entity.ts';
import { writeCatalogEntity } from './entity.ts';

/**
 * Joining a user to a treasurer (spec 4.1): the calling user becomes the treasurer's `user`, so a
 * register can sign that user in as the cashier. A user holds at most one treasurer of a seller
 * (the unique value of `treasurers`); a register's key is no user and may not join.
 */
function joinOrDisjoin(request: ApiRequest<unknown, 'identifier' | 'sellerId'>, join: boolean): Promise<Reply> {
  const { principal } = request;
  if (principal?.kind !== 'user') throw insufficientRights();
  const identifier = request.params.identifier;
  const change = treasurerUserChange(identifier, join ? principal.username : null);
  return writeCatalogEntity(treasurers, request, identifier, change);
}

/**
 * Joins the user to the treasurer (`username`), or disjoins it (null). Refused: no treasurer (404), a
 * join to a treasurer that has a user (TREASURER_IS_JOINED_TO_USER_ALREADY), a disjoin of one that has none.
 */
export const treasurerUserChange =
  (identifier: string, username: string | null): Change<TreasurerBody, Reply> =>
  (current) => {
    if (!current) throw notFound(`No treasurer ${identifier}`);
    if (username !== null && current.user) {
      throw referenceNotFound('The treasurer is joined to a user already; disjoin first', 'TREASURER_IS_JOINED_TO_USER_ALREADY');
    }
    if (username === null && !current.user) {
      throw referenceNotFound('The treasurer is not joined to a user', 'TREASURER_IS_NOT_JOINED_TO_USER');
    }
    return { data: { ...current, user: username }, result: noContent() };
  };

const path = '/{sellerId}/treasurers/{identifier}/user';
const joining = {
  versions: SINCE_26,
  access: access.seller,
  responses: { 204: null },
  errors: [
    ['NotFound'],
    [
      'ReferenceNotFound',
      'TREASURER_IS_JOINED_TO_USER_ALREADY',
      'TREASURER_IS_NOT_JOINED_TO_USER',
      'USER_HAS_TREASURER_WITH_SAME_SELLER_ID_ALREADY',
    ],
  ],
} as const;

export const treasurerUserRoutes: Route[] = [
  route({
    ...joining,
    summary: 'Joins the calling user to a treasurer',
    description:
      "The calling user becomes the treasurer's user, so a register can sign that user in as the cashier. A user holds " +
      'at most one treasurer of a seller, and a treasurer one user; a register may not join. The write moves the ' +
      "seller's version.",
    method: 'POST',
    path,
    handle: (request) => joinOrDisjoin(request, true),
  }),
  route({
    ...joining,
    summary: 'Disjoins a treasurer from its user',
    description: "The treasurer is left without a user. Called by a user, not a register; the write moves the seller's version.",
    method: 'DELETE',
    path,
    handle: (request) => joinOrDisjoin(request, false),
  }),
];

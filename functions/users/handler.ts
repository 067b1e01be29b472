import { newUser, passwordChange, user, userV15 } from '#schemas/generated/validators.js';
import type { UserBody, UserV15Body } from '#schemas/types.ts';
import { access } from '#shared/auth/access.ts';
import { httpApi } from '#shared/http/api.ts';
import { PAGE_QUERY } from '#shared/http/query.ts';
import { perVersion, type Route, route } from '#shared/http/router.ts';
import { ALL_VERSIONS, SINCE_26 } from '#shared/versions.ts';
import { connectSeller, disconnectSeller } from './sellers.ts';
import { currentUser, handshake } from './session.ts';
import { changePassword, createUser, deleteUser, listUsers, listUsersMinified, readUser, updateUser } from './users.ts';

/** Session and users (spec 4.1); who may do what is in `rules.ts`. */
export const routes: Route[] = [
  route({
    summary: 'Checks credentials',
    description:
      "Answers 200 with no body once the credentials pass. A register's key also needs its seller registered: " +
      'SELLER_NOT_FOUND tells the app to register the seller.',
    responses: { 200: null },
    method: 'GET',
    path: '/auth/handshake',
    versions: ALL_VERSIONS,
    access: access.authenticated,
    handle: handshake,
  }),
  route({
    summary: 'Reads the calling user',
    description:
      "Answers the caller's user; v26 and v33 add its `connectedSellers`. v15 shows the hyper admin its own password " +
      "hash and a register's key as a user of role `ACTIVATION`; v26 and v33 refuse a register.",
    responses: { 200: { 15: 'sessionUserV15', 26: 'sessionUser', 33: 'sessionUser' } },
    method: 'GET',
    path: '/auth/user',
    versions: ALL_VERSIONS,
    access: access.authenticated,
    handle: currentUser,
  }),
  route({
    summary: 'Lists users',
    description:
      'Lists the users the caller manages, in username order, paged (`like` on username and e-mail): every user for ' +
      "the hyper admin, its vendor's users for a software-vendor user. v15 shows the hyper admin their password " +
      'hashes.',
    query: PAGE_QUERY,
    responses: { 200: { 15: { list: 'userInfoV15' }, 26: { list: 'userInfo' }, 33: { list: 'userInfo' } } },
    method: 'GET',
    path: '/users',
    versions: ALL_VERSIONS,
    access: access.administrator,
    handle: listUsers,
  }),
  route({
    summary: 'Lists users in brief',
    description: 'Answers `username` and `role` of each user the caller manages, paged as the user list is.',
    query: PAGE_QUERY,
    responses: { 200: { list: 'userMinified' } },
    method: 'GET',
    path: '/users-minified',
    versions: SINCE_26,
    access: access.administrator,
    handle: listUsersMinified,
  }),
  route({
    summary: 'Reads a user',
    description:
      'Answers the user: the caller itself or a user it manages. An unknown name is not found for administrators, and ' +
      'forbidden for everyone else, who must not learn which names exist.',
    responses: { 200: 'userInfo' },
    errors: [['NotFound']],
    method: 'GET',
    path: '/users/{username}',
    versions: SINCE_26,
    access: access.user,
    handle: readUser,
  }),
  route({
    summary: 'Creates a user',
    description:
      "Creates the user the path names (the body's `username` must be the same) with its password, e-mail, role and " +
      'vendor, and answers the username. A software-vendor user creates only regular and software-vendor users of its ' +
      'own vendor; the software-vendor role needs a `softwareVendor`.',
    responses: { 201: 'identifierResult' },
    errors: [
      ['VersionConflict'],
      ['NotFound'],
      ['ReferenceNotFound'],
      ['InconsistentData'],
      ['UnprocessableEntity'],
      ['Forbidden', 'EMAIL_IS_NOT_FREE'],
    ],
    method: 'POST',
    path: '/users/{username}',
    versions: SINCE_26,
    access: access.administrator,
    body: newUser,
    handle: createUser,
  }),
  route({
    summary: 'Updates a user',
    description:
      "Sets the user's e-mail, role and vendor; an unknown user is not created. Nobody changes its own role or vendor. " +
      "A v15 body's non-null `password` sets a new password (another user's: the hyper admin only); v26 and v33 change " +
      'passwords through the password operation.',
    responses: { 204: null },
    errors: [
      ['NotFound'],
      ['ReferenceNotFound'],
      ['InconsistentData'],
      ['UnprocessableEntity'],
      ['Forbidden', 'EMAIL_IS_NOT_FREE'],
    ],
    method: 'PUT',
    path: '/users/{username}',
    versions: ALL_VERSIONS,
    access: access.user,
    body: perVersion<UserV15Body | UserBody>({ 15: userV15, 26: user, 33: user }),
    handle: updateUser,
  }),
  route({
    summary: "Changes a user's password",
    description:
      "Sets `newPassword`. A user changing its own gives its `oldPassword`; the hyper admin may set another user's " +
      'without it (one given must be right). The old password stops working at once.',
    responses: { 204: null },
    errors: [['NotFound'], ['Forbidden', 'OLD_PASSWORD_IS_INCORRECT']],
    method: 'PUT',
    path: '/users/{username}/password',
    versions: SINCE_26,
    access: access.user,
    body: passwordChange,
    handle: changePassword,
  }),
  // The spec's v15 "DELETE /v15" names no user; it is this operation (docs/decisions.md).
  route({
    summary: 'Deletes a user',
    description: 'Deletes a user the caller manages. Nobody deletes itself, so the last hyper admin stays.',
    responses: { 204: null },
    errors: [['NotFound'], ['UnprocessableEntity']],
    method: 'DELETE',
    path: '/users/{username}',
    versions: ALL_VERSIONS,
    access: access.administrator,
    handle: deleteUser,
  }),
  route({
    summary: 'Connects a user to a seller',
    description:
      'Gives a regular user access to a seller (administrators reach sellers by their role, so only regular users are ' +
      'connected). The caller must manage the user and have access to the seller. Connecting twice changes nothing.',
    responses: { 204: null },
    errors: [['NotFound'], ['ReferenceNotFound'], ['UnprocessableEntity']],
    method: 'PUT',
    path: '/users/{username}/sellers/{sellerId}',
    versions: ALL_VERSIONS,
    access: access.administrator,
    handle: connectSeller,
  }),
  route({
    summary: 'Disconnects a user from a seller',
    description:
      "Takes a regular user's access to the seller away. Disconnecting twice changes nothing, and a deleted seller can " +
      'be disconnected too.',
    responses: { 204: null },
    errors: [['NotFound'], ['ReferenceNotFound'], ['UnprocessableEntity']],
    method: 'DELETE',
    path: '/users/{username}/sellers/{sellerId}',
    versions: ALL_VERSIONS,
    access: access.administrator,
    handle: disconnectSeller,
  }),
];

export const handler = httpApi(routes);

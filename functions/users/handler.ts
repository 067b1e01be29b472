import { newUser, passwordChange, user, userV15 } from '#schemas/generated/validators.js';
import type { UserBody, UserV15Body } from '#schemas/types.ts';
import { access } from '#shared/auth/access.ts';
import { httpApi } from '#shared/http/api.ts';
import { perVersion, type Route, route } from '#shared/http/router.ts';
import { ALL_VERSIONS, SINCE_26 } from '#shared/versions.ts';
import { connectSeller, disconnectSeller } from './sellers.ts';
import { currentUser, handshake } from './session.ts';
import { changePassword, createUser, deleteUser, listUsers, listUsersMinified, readUser, updateUser } from './users.ts';

/** Session and users (spec 4.1); who may do what is in `rules.ts`. */
export const routes: Route[] = [
  route({ method: 'GET', path: '/auth/handshake', versions: ALL_VERSIONS, access: access.authenticated, handle: handshake }),
  route({ method: 'GET', path: '/auth/user', versions: ALL_VERSIONS, access: access.authenticated, handle: currentUser }),
  route({ method: 'GET', path: '/users', versions: ALL_VERSIONS, access: access.administrator, handle: listUsers }),
  route({
    method: 'GET',
    path: '/users-minified',
    versions: SINCE_26,
    access: access.administrator,
    handle: listUsersMinified,
  }),
  route({ method: 'GET', path: '/users/{username}', versions: SINCE_26, access: access.user, handle: readUser }),
  route({
    method: 'POST',
    path: '/users/{username}',
    versions: SINCE_26,
    access: access.administrator,
    body: newUser,
    handle: createUser,
  }),
  route({
    method: 'PUT',
    path: '/users/{username}',
    versions: ALL_VERSIONS,
    access: access.user,
    body: perVersion<UserV15Body | UserBody>({ 15: userV15, 26: user, 33: user }),
    handle: updateUser,
  }),
  route({
    method: 'PUT',
    path: '/users/{username}/password',
    versions: SINCE_26,
    access: access.user,
    body: passwordChange,
    handle: changePassword,
  }),
  // The spec's v15 "DELETE /v15" names no user; it is this operation (docs/decisions.md).
  route({
    method: 'DELETE',
    path: '/users/{username}',
    versions: ALL_VERSIONS,
    access: access.administrator,
    handle: deleteUser,
  }),
  route({
    method: 'PUT',
    path: '/users/{username}/sellers/{sellerId}',
    versions: ALL_VERSIONS,
    access: access.administrator,
    handle: connectSeller,
  }),
  route({
    method: 'DELETE',
    path: '/users/{username}/sellers/{sellerId}',
    versions: ALL_VERSIONS,
    access: access.administrator,
    handle: disconnectSeller,
  }),
];

export const handler = httpApi(routes);

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
    responses: { 200: null },
    method: 'GET',
    path: '/auth/handshake',
    versions: ALL_VERSIONS,
    access: access.authenticated,
    handle: handshake,
  }),
  route({
    responses: { 200: 'sessionUser' },
    method: 'GET',
    path: '/auth/user',
    versions: ALL_VERSIONS,
    access: access.authenticated,
    handle: currentUser,
  }),
  route({
    query: PAGE_QUERY,
    responses: { 200: { list: 'userView' } },
    method: 'GET',
    path: '/users',
    versions: ALL_VERSIONS,
    access: access.administrator,
    handle: listUsers,
  }),
  route({
    query: PAGE_QUERY,
    responses: { 200: { list: 'userMinified' } },
    method: 'GET',
    path: '/users-minified',
    versions: SINCE_26,
    access: access.administrator,
    handle: listUsersMinified,
  }),
  route({
    responses: { 200: 'userView' },
    errors: [['NotFound']],
    method: 'GET',
    path: '/users/{username}',
    versions: SINCE_26,
    access: access.user,
    handle: readUser,
  }),
  route({
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
    responses: { 204: null },
    errors: [['NotFound'], ['UnprocessableEntity']],
    method: 'DELETE',
    path: '/users/{username}',
    versions: ALL_VERSIONS,
    access: access.administrator,
    handle: deleteUser,
  }),
  route({
    responses: { 204: null },
    errors: [['NotFound'], ['ReferenceNotFound'], ['UnprocessableEntity']],
    method: 'PUT',
    path: '/users/{username}/sellers/{sellerId}',
    versions: ALL_VERSIONS,
    access: access.administrator,
    handle: connectSeller,
  }),
  route({
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

import type { NewUserBody, PasswordChangeBody, UserBody, UserV15Body } from '#schemas/types.ts';
import { insufficientRights, isHyperAdmin } from '#shared/auth/access.ts';
import { verifyPassword } from '#shared/auth/passwords.ts';
import { roleName, roleOf } from '#shared/auth/roles.ts';
import { createUserIfAbsent, listUserEntries, readUsers, removeUser, saveUser, type UserEntry } from '#shared/auth/users.ts';
import { pageOf } from '#shared/db/paging.ts';
import { forbidden, versionConflict } from '#shared/errors.ts';
import { pageParams } from '#shared/http/query.ts';
import { created, noContent, ok } from '#shared/http/response.ts';
import type { ApiRequest, Reply } from '#shared/http/types.ts';
import type { ApiVersion } from '#shared/versions.ts';
import { manages, placement, sameUsername, userOf, visibleUser } from './rules.ts';

/**
 * A user as a version shows it (spec 2.3): v15 has `password`, which holds the stored hash only
 * for the hyper admin (`hash`), null otherwise; v26 and v33 never show a password.
 */
export function showUser(user: UserEntry, version: ApiVersion, hash: string | null = null): Record<string, unknown> {
  const view = {
    username: user.username,
    email: user.email,
    role: roleName(user.role, version),
    softwareVendor: user.softwareVendor ?? null,
  };
  return version === 15 ? { ...view, password: hash } : view;
}

/** GET /users/{username} (v26, v33): the caller itself, or a user it manages. */
export async function readUser(request: ApiRequest<unknown, 'username'>): Promise<Reply> {
  const user = await visibleUser(userOf(request.principal), request.params.username);
  return ok(showUser(user, request.version));
}

/** The directory entries of the users the caller manages, one PAGE of them in username order. */
async function managedPage(request: ApiRequest): Promise<UserEntry[]> {
  const caller = userOf(request.principal);
  const page = pageParams(request.query);
  const entries = (await listUserEntries()).filter((entry) => manages(caller, entry));
  return pageOf<UserEntry, never>(
    entries,
    { ...page, orderBy: undefined, orderDesc: false },
    { searched: (entry) => [entry.username, entry.email], field: () => undefined, tiebreak: (entry) => entry.username },
  );
}

/** GET /users: the users the caller manages, from the directory; only v15 shows the hyper admin their hashes. */
export async function listUsers(request: ApiRequest): Promise<Reply> {
  const entries = await managedPage(request);
  if (request.version === 15 && isHyperAdmin(request.principal)) {
    // The hashes live on the user items, not in the directory: one BatchGet of the page.
    const users = await readUsers(entries.map((entry) => entry.username));
    return ok(users.map((user) => showUser(user, 15, user.passwordHash)));
  }
  return ok(entries.map((entry) => showUser(entry, request.version)));
}

/** GET /users-minified (v26, v33): `{username, role}` per user the caller manages. */
export async function listUsersMinified(request: ApiRequest): Promise<Reply> {
  const entries = await managedPage(request);
  return ok(entries.map((entry) => ({ username: entry.username, role: roleName(entry.role, request.version) })));
}

/** POST /users/{username} (v26, v33): 201 with the username as the identifier; an existing name is 409 VersionConflict. */
export async function createUser(request: ApiRequest<NewUserBody>): Promise<Reply> {
  const { body, version } = request;
  const username = sameUsername(request.params, body);
  const placed = placement(userOf(request.principal), undefined, roleOf(body.role, version), body.softwareVendor ?? null);
  const isNew = await createUserIfAbsent({ username, email: body.email, ...placed, password: body.password, sellers: [] });
  if (!isNew) throw versionConflict(`User ${username} exists already`);
  return created(username);
}

/**
 * PUT /users/{username}: email, role and vendor; a v15 body's non-null `password` sets a new one,
 * for the caller itself or, by the hyper admin, for anyone.
 */
export async function updateUser(request: ApiRequest<UserV15Body | UserBody>): Promise<Reply> {
  const { body, version } = request;
  const caller = userOf(request.principal);
  const user = await visibleUser(caller, sameUsername(request.params, body));
  const password = 'password' in body ? (body.password ?? undefined) : undefined;
  if (password !== undefined && user.username !== caller.username && !isHyperAdmin(caller)) throw insufficientRights();
  const placed = placement(caller, user, roleOf(body.role, version), body.softwareVendor ?? null);
  await saveUser(user, { email: body.email, ...placed, ...(password === undefined ? {} : { password }) });
  return noContent();
}

const oldPasswordIncorrect = () => forbidden('OLD_PASSWORD_IS_INCORRECT', 'The old password is incorrect');

/**
 * PUT /users/{username}/password (v26, v33; docs/conventions.md §12): a user changes its own password
 * with the old one; the hyper admin may set another user's without it (if given, it must be right).
 */
export async function changePassword(request: ApiRequest<PasswordChangeBody, 'username'>): Promise<Reply> {
  const caller = userOf(request.principal);
  const user = await visibleUser(caller, request.params.username);
  const self = user.username === caller.username;
  if (!self && !isHyperAdmin(caller)) throw insufficientRights();
  const { oldPassword, newPassword } = request.body;
  if (oldPassword === undefined || oldPassword === null) {
    if (self) throw oldPasswordIncorrect();
  } else if (!(await verifyPassword(oldPassword, user.passwordHash))) throw oldPasswordIncorrect();
  await saveUser(user, { password: newPassword });
  return noContent();
}

/** DELETE /users/{username}: a user the caller manages; nobody deletes itself (the last hyper admin would lock everyone out). */
export async function deleteUser(request: ApiRequest<unknown, 'username'>): Promise<Reply> {
  const caller = userOf(request.principal);
  const user = await visibleUser(caller, request.params.username);
  if (user.username === caller.username) throw insufficientRights();
  await removeUser(user);
  return noContent();
}

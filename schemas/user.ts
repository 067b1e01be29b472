/** User (spec 2.3) and the password change of docs/conventions.md §12. */
import { roleNames } from '#shared/auth/roles.ts';
import type { ApiVersion } from '#shared/versions.ts';
import { scalars } from './scalars.ts';

/** The identifier rules keep ':' out of a username, which Basic credentials (`user:password`) need. */
const username = { type: 'string', $ref: 'scalars#/$defs/identifier' } as const;
const email = {
  type: 'string',
  $ref: 'scalars#/$defs/text',
  minLength: 6,
  maxLength: 50,
  pattern: '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$',
} as const;
const password = { $ref: 'scalars#/$defs/text', minLength: 1, maxLength: 200 } as const;
const { minimum, maximum } = scalars.$defs.int32;

/** The fields every version's User has; the role names differ per version (`shared/auth/roles.ts`). */
const userProperties = (version: ApiVersion) =>
  ({
    username,
    email,
    role: { type: 'string', enum: roleNames(version) },
    softwareVendor: { type: ['integer', 'null'], minimum, maximum },
  }) as const;

const required = ['username', 'email', 'role'] as const;

/** v15 PUT /users/{username}: a non-null `password` sets a new one. */
export const userV15 = {
  $id: 'user.v15',
  type: 'object',
  additionalProperties: false,
  required,
  properties: { ...userProperties(15), password: { type: ['string', 'null'], ...password } },
} as const;

/** v26/v33 PUT /users/{username} (both versions name roles alike): no password (it changes through `/password`). */
export const user = {
  $id: 'user',
  type: 'object',
  additionalProperties: false,
  required,
  properties: userProperties(33),
} as const;

/** v26/v33 POST /users/{username}: a new user needs its password. */
export const newUser = {
  $id: 'user.new',
  type: 'object',
  additionalProperties: false,
  required: [...required, 'password'],
  properties: { ...userProperties(33), password: { type: 'string', ...password } },
} as const;

/** PUT /users/{username}/password (docs/conventions.md §12); the hyper admin may leave out `oldPassword` for another user. */
export const passwordChange = {
  $id: 'passwordChange',
  type: 'object',
  additionalProperties: false,
  required: ['newPassword'],
  properties: {
    oldPassword: { type: ['string', 'null'], $ref: 'scalars#/$defs/text', maxLength: 200 },
    newPassword: { type: 'string', ...password },
  },
} as const;

import { emailMessage } from '#schemas/generated/validators.js';
import { access } from '#shared/auth/access.ts';
import { httpApi } from '#shared/http/api.ts';
import { type Route, route } from '#shared/http/router.ts';
import { MAX_EMAIL_JSON_BYTES, sendEmail } from './message.ts';

/** A register's support message to its software vendor (docs/conventions.md §21). */
export const routes: Route[] = [
  route({
    responses: { 202: null },
    errors: [['ReferenceNotFound'], ['ValueNotValid', 'SHOULD_BE_BASE64_ENCODED']],
    method: 'POST',
    path: '/email',
    idempotent: true,
    versions: [26, 33],
    access: access.register,
    feature: 'SUPPORT',
    body: emailMessage,
    maxBodyBytes: MAX_EMAIL_JSON_BYTES,
    handle: sendEmail,
  }),
];

export const handler = httpApi(routes);

import { emailMessage } from '#schemas/generated/validators.js';
import { access } from '#shared/auth/access.ts';
import { httpApi } from '#shared/http/api.ts';
import { type Route, route } from '#shared/http/router.ts';
import { MAX_EMAIL_JSON_BYTES, sendEmail } from './message.ts';

/** A register's support message to its software vendor (docs/conventions.md §21). */
export const routes: Route[] = [
  route({
    summary: "Sends a message to the vendor's support",
    description:
      "Sends one message (a subject, a plain-text or HTML body, at most 20 base64 attachments of 5 MiB in all) from the register to the support address of the software vendor whose application it runs, and answers 202 once it is handed over for delivery. The register's seller, name and activation go in headers of their own; a vendor without a support address is 404 ReferenceNotFound and nothing is sent.",
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

import type { EmailMessageBody } from '#schemas/types.ts';
import { insufficientRights } from '#shared/auth/access.ts';
import { readItem } from '#shared/db/reads.ts';
import { entityTooLarge, referenceNotFound, valueNotValid } from '#shared/errors.ts';
import { keptAnswerKey } from '#shared/fiscal/kept-answers.ts';
import { doOnce } from '#shared/http/idempotency.ts';
import type { ApiRequest, Reply } from '#shared/http/types.ts';
import { mailer } from '#shared/mail/mailer.ts';
import { activationKeys, applicationKeys, vendorKeys } from '#shared/domain/records.ts';

/** At most 5 MiB of attachments, decoded, in one message (docs/conventions.md §21); above it `413`. */
export const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;

/**
 * The JSON body limit of `POST /email`: the base64 of 5 MiB of attachments (4 characters per 3 bytes) plus the
 * largest body, subject and attachment names, so that the decoded total, not the JSON text, decides the 413.
 */
export const MAX_EMAIL_JSON_BYTES = 7 * 1024 * 1024;

/** An attachment as the message carries it. */
export interface Attachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

/**
 * The attachments decoded, in order. Each body must be padded base64 (the schema has checked its characters; the
 * length and padding are checked here): otherwise `400 SHOULD_BE_BASE64_ENCODED`. More than
 * `MAX_ATTACHMENT_BYTES` decoded in all: `413`.
 */
export function decodeAttachments(attachments: EmailMessageBody['attachments']): Attachment[] {
  let total = 0;
  return (attachments ?? []).map((attachment, index) => {
    if (attachment.body.length % 4 !== 0) {
      const field = `attachments[${index}].body`;
      throw valueNotValid('SHOULD_BE_BASE64_ENCODED', `${field} is not base64`, { field });
    }
    const content = Buffer.from(attachment.body, 'base64');
    total += content.length;
    if (total > MAX_ATTACHMENT_BYTES) throw entityTooLarge(MAX_ATTACHMENT_BYTES);
    return {
      filename: attachment.filename ?? `attachment-${index + 1}`,
      contentType: attachment.contentType ?? 'application/octet-stream',
      content,
    };
  });
}

const noSupportAddress = () => referenceNotFound("The register's software vendor has no support e-mail address");

/** The support address of the vendor whose application the activation runs: activation -> application -> vendor. */
async function supportAddressOf(activationId: number): Promise<string> {
  const activation = await readItem(activationKeys.activation(activationId));
  const application = activation?.applicationPackage
    ? await readItem(applicationKeys.application(activation.applicationPackage))
    : undefined;
  const vendor = application ? await readItem(vendorKeys.vendor(application.softwareVendor)) : undefined;
  if (!vendor?.supportEmail) throw noSupportAddress();
  return vendor.supportEmail;
}

/** Who sent the message, in headers of its own: the vendor's support sees the register without trusting the text. */
export interface Origin {
  sellerId: string;
  cashRegisterName: string;
  activationId: number;
}

/**
 * The whole message as SES sends it, built by nodemailer's MailComposer; nothing in it is read from a file or URL.
 * The composer (about 130 KB) loads on first use: the function's Init stays that of its neighbours, and requests
 * refused before a message is built never load it.
 */
export async function composeMessage(
  message: EmailMessageBody,
  attachments: readonly Attachment[],
  addresses: { from: string; to: string },
  origin: Origin,
): Promise<Buffer> {
  const { default: MailComposer } = await import('nodemailer/lib/mail-composer');
  const content = message.contentType === 'text/html' ? { html: message.body } : { text: message.body };
  return new MailComposer({
    // Address objects, not strings: nodemailer never parses them as lists.
    from: { name: '', address: addresses.from },
    to: { name: '', address: addresses.to },
    subject: message.subject,
    ...content,
    attachments: attachments.map(({ filename, contentType, content: bytes }) => ({ filename, contentType, content: bytes })),
    headers: {
      'X-Seller-Id': origin.sellerId,
      'X-Cash-Register-Name': origin.cashRegisterName,
      'X-Activation-Id': String(origin.activationId),
    },
    disableFileAccess: true,
    disableUrlAccess: true,
  })
    .compile()
    .build();
}

/**
 * POST /email (v26, v33): the register's message to its software vendor's support address (docs/conventions.md §21), sent once.
 * No vendor address: `404 ReferenceNotFound`. Answers `202` with no body: the message is handed over for delivery.
 */
export async function sendEmail(request: ApiRequest<EmailMessageBody>): Promise<Reply> {
  const { principal, body } = request;
  // The route lets registers only in; the narrowing is for the compiler.
  if (principal?.kind !== 'activation') throw insufficientRights();
  const attachments = decodeAttachments(body.attachments);
  const to = await supportAddressOf(principal.activationId);
  const send = async (): Promise<Reply> => {
    const { mailer: transport, sender } = mailer();
    const raw = await composeMessage(body, attachments, { from: sender, to }, principal);
    await transport.send({ from: sender, to, raw });
    return { status: 202 };
  };
  const { idempotency } = request;
  // A register that lost the answer sends again with its key: the message goes once (docs/conventions.md §15).
  return idempotency
    ? doOnce(keptAnswerKey(principal.sellerId, principal.cashRegisterName, idempotency.key), idempotency, send)
    : send();
}

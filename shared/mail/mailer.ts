import { mailSending } from '#shared/config.ts';
import { outboxMailer } from './outbox-mailer.ts';
import { sesMailer } from './ses-mailer.ts';

/** A message ready to go: its envelope and the whole RFC 5322 text (headers, MIME parts) as built. */
export interface OutgoingMail {
  from: string;
  to: string;
  raw: Buffer;
}

/** Sends built messages (SES in AWS, a folder of `.eml` files locally): one call, one message. */
export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
}

let chosen: { mailer: Mailer; sender: string } | undefined;

/** The process's mailer and sender address, chosen once from `MAIL_TRANSPORT` (`mailSending` in `shared/config.ts`). */
export function mailer(): { mailer: Mailer; sender: string } {
  if (chosen) return chosen;
  const settings = mailSending();
  chosen = {
    mailer: settings.transport === 'ses' ? sesMailer() : outboxMailer(settings.dir),
    sender: settings.sender,
  };
  return chosen;
}

import type * as SES from './ses-sdk.ts';
import { config } from '#shared/config.ts';
import type { Mailer } from './mailer.ts';

let loaded: Promise<{ sdk: typeof SES; client: SES.SESv2Client }> | undefined;

/** The SES v2 SDK and client: one per process, loaded on first use (a file of its own in the bundle). */
function ses() {
  loaded ??= import('./ses-sdk.ts').then((sdk) => ({ sdk, client: new sdk.SESv2Client({ region: config().region }) }));
  return loaded;
}

/**
 * Messages through SES v2 `SendEmail` with raw content: SES sends the bytes as built, attachments included, and
 * authorizes it as `ses:SendRawEmail` on the sender's identity, the one action the function's role has.
 */
export function sesMailer(): Mailer {
  return {
    async send({ from, to, raw }) {
      const { sdk, client } = await ses();
      await client.send(
        new sdk.SendEmailCommand({
          FromEmailAddress: from,
          Destination: { ToAddresses: [to] },
          Content: { Raw: { Data: raw } },
        }),
      );
    },
  };
}

import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Mailer } from './mailer.ts';

/**
 * The local stage's stand-in for SES: each message becomes `<time>-<uuid>.eml` in `dir`, the exact bytes SES
 * would have sent, which any mail client opens. The envelope is in the message's own From and To headers.
 */
export function outboxMailer(dir: string): Mailer {
  return {
    async send({ raw }) {
      await mkdir(dir, { recursive: true });
      const name = `${new Date().toISOString().replaceAll(':', '-')}-${randomUUID()}.eml`;
      // Written beside and renamed over, so a reader of the folder never sees half a message.
      const temporary = join(dir, `.${name}.tmp`);
      await writeFile(temporary, raw);
      await rename(temporary, join(dir, name));
    },
  };
}

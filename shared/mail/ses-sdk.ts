/**
 * The part of the SES v2 SDK the mailer uses. `ses-mailer.ts` loads it with `import()` on first use, and the build
 * makes it a self-contained file of its own (scripts/build.ts, isolated SDKs): only what is named here is bundled.
 */
export { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';

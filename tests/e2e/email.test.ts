/** POST /email (docs/conventions.md §21): a register's message lands in the local outbox as MIME. */
import { randomBytes, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { ApiVersion } from '#shared/versions.ts';
import { type CallOptions, detailOf, expectError, uniqueCorporateId, v } from '../support/http.ts';
import { DAY, newApp } from '../support/identity.ts';

const outbox = inject('outboxDir');
const SUPPORT = 'support@kassa.example.com';

/** The outbox's messages, by file name. */
const messages = async (): Promise<string[]> => (await readdir(outbox).catch(() => [])).filter((name) => name.endsWith('.eml'));

/** The one message of the outbox whose subject carries `token`, parsed by a real mail parser. */
async function delivered(token: string) {
  const parsed = await Promise.all((await messages()).map(async (name) => simpleParser(await readFile(join(outbox, name)))));
  const found = parsed.filter((mail) => mail.subject?.includes(token));
  expect(found).toHaveLength(1);
  const [mail] = found;
  if (!mail) throw new Error(`no message with ${token} in ${outbox}`);
  return mail;
}

async function vendorWith(supportEmail: string | null): Promise<number> {
  const answer = await v(33).post('/software-vendors', { name: 'Kassasystem AB', supportEmail });
  expect(answer.status).toBe(201);
  return (answer.body as { id: number }).id;
}

/** A register of a new seller, activated through v`api` with `features` for an application of `vendor`. */
async function registerOf(vendor: number, features: string[], api: ApiVersion = 33): Promise<CallOptions> {
  const app = await newApp(vendor, {
    controlUnitRequired: false,
    autoActivationCondition: 'ALWAYS',
    corporateIdValidationMethod: 'NONE',
  });
  const answer = await v(api).post('/activations-advanced', {
    country: 'SE',
    corporateId: uniqueCorporateId(),
    companyName: 'Supportbutiken',
    cashRegisterName: 'Kassa 1',
    features,
    validFrom: Date.now() - DAY,
    validTo: Date.now() + DAY,
    applicationPackage: app.applicationPackage,
    installationCreationInfo: { deviceId: randomUUID().slice(0, 16) },
  });
  expect(answer.status).toBe(201);
  return { as: { apiKey: (answer.body as { apiKey: string }).apiKey } };
}

const base64 = (text: string | Buffer) => Buffer.from(text).toString('base64');

let register: CallOptions;
let withoutSupport: CallOptions;
let vendorWithoutAddress: CallOptions;

beforeAll(async () => {
  const vendor = await vendorWith(SUPPORT);
  register = await registerOf(vendor, ['SUPPORT', 'SYNCHRONIZATION']);
  withoutSupport = await registerOf(vendor, ['SYNCHRONIZATION']);
  vendorWithoutAddress = await registerOf(await vendorWith(null), ['SUPPORT']);
});

describe('POST /email', () => {
  it.each([26, 33] as const)(
    'v%i: the outbox holds one MIME message to the support address with the subject, body and attachments intact',
    async (api) => {
      // Prepare
      const token = randomUUID();
      const log = 'line 1\nline 2 åäö\n';
      const binary = randomBytes(70_000);
      const body = `Hej!\nThe printer jams.\n\n${'x'.repeat(4000)}`;

      // Act
      const answer = await v(api).post(
        '/email',
        {
          subject: `Printer ${token} åäö`,
          body,
          attachments: [{ body: base64(log), filename: 'app.log', contentType: 'text/plain' }, { body: base64(binary) }],
        },
        register,
      );

      // Assess
      expect(answer.status).toBe(202);
      expect(answer.text).toBe('');
      const mail = await delivered(token);
      expect(mail.subject).toBe(`Printer ${token} åäö`);
      expect(mail.text?.replace(/\r\n/g, '\n').trimEnd()).toBe(body.trimEnd());
      expect(mail.html).toBe(false);
      expect(mail.to && !Array.isArray(mail.to) ? mail.to.value.map((to) => to.address) : []).toEqual([SUPPORT]);
      expect(mail.from?.value.map((from) => from.address)).toEqual(['cash-register@localhost.invalid']);
      expect(mail.attachments.map(({ filename, contentType, content }) => ({ filename, contentType, content }))).toEqual([
        { filename: 'app.log', contentType: 'text/plain', content: Buffer.from(log) },
        { filename: 'attachment-2', contentType: 'application/octet-stream', content: binary },
      ]);
      expect(mail.headers.get('x-cash-register-name')).toBe('Kassa 1');
    },
  );

  it('sent twice with one Idempotency-Key: one message, the repeat answered 202 replayed; the key with another body is 409', async () => {
    const token = randomUUID();
    const withKey = { ...register, headers: { 'Idempotency-Key': token } };
    const message = { subject: `Once ${token}`, body: 'The drawer sticks.' };
    const first = await v(33).post('/email', message, withKey);
    const again = await v(33).post('/email', message, withKey);
    expect([first.status, first.headers.get('idempotent-replayed')]).toEqual([202, null]);
    expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([202, 'true']);
    expectError(await v(33).post('/email', { ...message, subject: `Other ${token}` }, withKey), 409, 'VersionConflict');
    const parsed = await Promise.all((await messages()).map(async (name) => simpleParser(await readFile(join(outbox, name)))));
    expect(parsed.filter((mail) => mail.subject?.includes(token)).map((mail) => mail.subject)).toEqual([`Once ${token}`]);
  });

  it('sends text/html as an HTML part', async () => {
    // Prepare
    const token = randomUUID();

    // Act
    const answer = await v(33).post(
      '/email',
      { subject: token, body: '<p>The <b>drawer</b> sticks</p>', contentType: 'text/html' },
      register,
    );

    // Assess
    expect(answer.status).toBe(202);
    const mail = await delivered(token);
    expect(mail.html).toContain('<p>The <b>drawer</b> sticks</p>');
    expect(mail.attachments).toEqual([]);
  });

  it('takes exactly 5 MiB of attachments, decoded', async () => {
    // Act
    const answer = await v(33).post(
      '/email',
      {
        subject: randomUUID(),
        body: 'Full logs',
        attachments: [{ body: base64(Buffer.alloc(3 * 1024 * 1024, 1)) }, { body: base64(Buffer.alloc(2 * 1024 * 1024, 2)) }],
      },
      register,
    );

    // Assess
    expect(answer.status).toBe(202);
  });

  describe('refuses, and sends nothing', () => {
    const refusals: [string, () => Promise<Awaited<ReturnType<ReturnType<typeof v>['post']>>>, number, string, string | null][] =
      [
        [
          'a register without the SUPPORT feature: 403 ACTIVATION_NO_FEATURE',
          () => v(33).post('/email', { subject: 's', body: 'b' }, withoutSupport),
          403,
          'Forbidden',
          'ACTIVATION_NO_FEATURE',
        ],
        [
          'a vendor without a support address: 404 ReferenceNotFound',
          () => v(26).post('/email', { subject: 's', body: 'b' }, vendorWithoutAddress),
          404,
          'ReferenceNotFound',
          null,
        ],
        [
          'a user, who is no register: 403 INSUFFICIENT_ACCESS_RIGHTS',
          () => v(33).post('/email', { subject: 's', body: 'b' }),
          403,
          'Forbidden',
          'INSUFFICIENT_ACCESS_RIGHTS',
        ],
        [
          'an attachment with characters outside base64: 400 SHOULD_BE_BASE64_ENCODED',
          () => v(33).post('/email', { subject: 's', body: 'b', attachments: [{ body: 'not base64!' }] }, register),
          400,
          'ValueNotValid',
          'SHOULD_BE_BASE64_ENCODED',
        ],
        [
          'an attachment whose base64 is cut short: 400 SHOULD_BE_BASE64_ENCODED',
          () => v(33).post('/email', { subject: 's', body: 'b', attachments: [{ body: 'QUJD' }, { body: 'QUJ' }] }, register),
          400,
          'ValueNotValid',
          'SHOULD_BE_BASE64_ENCODED',
        ],
        [
          'attachments of more than 5 MiB decoded: 413',
          () =>
            v(33).post(
              '/email',
              {
                subject: 's',
                body: 'b',
                attachments: [{ body: base64(Buffer.alloc(5 * 1024 * 1024)) }, { body: base64(Buffer.alloc(1)) }],
              },
              register,
            ),
          413,
          'RequestEntityTooLarge',
          null,
        ],
        [
          'a body over 5000 characters: 400 SIZE_SHOULD_BE_LESS_THEN',
          () => v(33).post('/email', { subject: 's', body: 'x'.repeat(5001) }, register),
          400,
          'ValueNotValid',
          'SIZE_SHOULD_BE_LESS_THEN',
        ],
        [
          'no subject: 400 SHOULD_NOT_BE_NULL',
          () => v(33).post('/email', { body: 'b' }, register),
          400,
          'ValueNotValid',
          'SHOULD_NOT_BE_NULL',
        ],
        [
          'v15, which has no e-mail: 404 ENDPOINT_NOT_FOUND',
          () => v(15).post('/email', { subject: 's', body: 'b' }, register),
          404,
          'NotFound',
          'ENDPOINT_NOT_FOUND',
        ],
      ];

    it.each(refusals)('%s', async (_, send, status, exception, code) => {
      // Prepare
      const before = await messages();

      // Act
      const answer = await send();

      // Assess
      expectError(answer, status, exception, code);
      expect(await messages()).toEqual(before);
    });

    it('names the attachment that is not base64, and the size limit', async () => {
      // Act
      const bad = await v(33).post(
        '/email',
        { subject: 's', body: 'b', attachments: [{ body: 'QUJD' }, { body: 'QU\nJD' }] },
        register,
      );
      const large = await v(33).post(
        '/email',
        { subject: 's', body: 'b', attachments: [{ body: base64(Buffer.alloc(5 * 1024 * 1024 + 1)) }] },
        register,
      );

      // Assess
      expect(detailOf(bad)).toEqual({ field: 'attachments[1].body' });
      expect(detailOf(large)).toEqual({ field: null, sizeMax: 5 * 1024 * 1024 });
    });
  });
});

describe("the software vendor's supportEmail", () => {
  it('is shown, kept by a PUT that leaves it out, removed by null, and must be an address', async () => {
    // Prepare
    const id = await vendorWith(SUPPORT);
    const path = `/software-vendors/${id}`;

    // Act
    const created = await v(15).get(path);
    const renamed = await v(26).put(path, { name: 'Renamed AB' });
    const afterRename = await v(33).get(path);
    const cleared = await v(33).put(path, { name: 'Renamed AB', supportEmail: null });
    const afterClear = await v(33).get(path);
    const invalid = await v(33).put(path, { name: 'Renamed AB', supportEmail: 'Support <a@b.se>' });

    // Assess
    expect(created.body).toEqual({ id, name: 'Kassasystem AB', supportEmail: SUPPORT });
    expect(renamed.status).toBe(204);
    expect(afterRename.body).toEqual({ id, name: 'Renamed AB', supportEmail: SUPPORT });
    expect(cleared.status).toBe(204);
    expect(afterClear.body).toEqual({ id, name: 'Renamed AB', supportEmail: null });
    expectError(invalid, 400, 'ValueNotValid', 'SHOULD_MATCH_PATTERN');
  });
});

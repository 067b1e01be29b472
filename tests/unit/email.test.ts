/** The e-mail message's pure parts (docs/conventions.md §21): attachment decoding and its limits. */
import { describe, expect, it } from 'vitest';
import { decodeAttachments, MAX_ATTACHMENT_BYTES } from '#functions/email/message.ts';
import { refusal } from '../support/decisions.ts';

const of = (bytes: number) => ({ body: Buffer.alloc(bytes, 7).toString('base64') });

describe('decodeAttachments', () => {
  it('decodes each attachment, naming the unnamed ones and typing the untyped ones as bytes', () => {
    // Act
    const decoded = decodeAttachments([{ body: 'aGVq', filename: 'hej.txt', contentType: 'text/plain' }, { body: '' }]);

    // Assess
    expect(decoded).toEqual([
      { filename: 'hej.txt', contentType: 'text/plain', content: Buffer.from('hej') },
      { filename: 'attachment-2', contentType: 'application/octet-stream', content: Buffer.alloc(0) },
    ]);
  });

  it('takes exactly 5 MiB in all, and refuses one byte more: 413', () => {
    expect(decodeAttachments([of(MAX_ATTACHMENT_BYTES - 1), of(1)]).map(({ content }) => content.length)).toEqual([
      MAX_ATTACHMENT_BYTES - 1,
      1,
    ]);
    expect(refusal(() => decodeAttachments([of(MAX_ATTACHMENT_BYTES), of(1)]))).toEqual({
      status: 413,
      exception: 'RequestEntityTooLarge',
      code: null,
    });
  });

  it.each(['QUJ', 'QUJDR', 'QU=='.slice(0, 3)])(
    'refuses base64 without its padding (%s): 400 SHOULD_BE_BASE64_ENCODED',
    (body) => {
      expect(refusal(() => decodeAttachments([{ body }]))).toEqual({
        status: 400,
        exception: 'ValueNotValid',
        code: 'SHOULD_BE_BASE64_ENCODED',
      });
    },
  );
});

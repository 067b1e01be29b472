import { messageNotReadable } from '#shared/errors.ts';
import type { RawBodySpec } from '#shared/http/router.ts';
import type { RawBody } from '#shared/http/types.ts';

/** An image format we store: its media type, the extension of generated file names, and how its bytes begin. */
interface ImageFormat {
  mediaType: string;
  extension: string;
  matches(bytes: Buffer): boolean;
}

const startsWith = (bytes: Buffer, prefix: readonly number[], at = 0) =>
  bytes.length >= at + prefix.length && prefix.every((byte, index) => bytes[at + index] === byte);
const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

/**
 * PNG, JPEG, WebP and GIF: what register screens show. SVG is refused: it is a document that can
 * carry script, and it would be served from the API's own origin.
 */
const FORMATS: readonly ImageFormat[] = [
  { mediaType: 'image/png', extension: 'png', matches: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { mediaType: 'image/jpeg', extension: 'jpg', matches: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  { mediaType: 'image/webp', extension: 'webp', matches: (b) => startsWith(b, ascii('RIFF')) && startsWith(b, ascii('WEBP'), 8) },
  { mediaType: 'image/gif', extension: 'gif', matches: (b) => startsWith(b, ascii('GIF87a')) || startsWith(b, ascii('GIF89a')) },
];

/** `image/jpg` is not a registered type, but cameras and phone apps send it for JPEG. */
const ALIASES: Readonly<Record<string, string>> = { 'image/jpg': 'image/jpeg' };

/**
 * The largest image: 2 MiB. Base64 in the Lambda event makes it 2.8 MB, well inside Lambda's 6 MB
 * request and response payloads and API Gateway's 10 MB; a register photo of a product needs far less.
 */
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;

/** The raw body an image upload takes (`shared/http/api.ts` applies it). */
export const IMAGE_BODY: RawBodySpec = {
  mediaTypes: [...FORMATS.map((format) => format.mediaType), ...Object.keys(ALIASES)],
  maxBytes: MAX_IMAGE_BYTES,
};

/**
 * The format of an uploaded image: its Content-Type must be one we take (checked by the HTTP layer)
 * and its bytes must begin as that format's do, else 400 MessageNotReadable: the body cannot be read
 * as the type it claims.
 */
export function imageFormat(body: RawBody): { mediaType: string; extension: string } {
  const mediaType = ALIASES[body.mediaType] ?? body.mediaType;
  const format = FORMATS.find((candidate) => candidate.mediaType === mediaType);
  if (!format?.matches(body.bytes)) {
    const actual = FORMATS.find((candidate) => candidate.matches(body.bytes));
    throw messageNotReadable(`The body's bytes are not ${mediaType}, as its Content-Type says`, {
      contentType: body.mediaType,
      detected: actual?.mediaType ?? null,
    });
  }
  return { mediaType: format.mediaType, extension: format.extension };
}

import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { type ApiError, inconsistentData } from '#shared/errors.ts';
import type { Reply } from './types.ts';

export const JSON_CONTENT_TYPE = 'application/json;charset=UTF-8';

/** 200 with a JSON body; a versioned entity also carries its ETag (docs/conventions.md §5). */
export const ok = (body: unknown, version?: number): Reply => ({
  status: 200,
  body,
  ...(version === undefined ? {} : { headers: { ETag: `"${version}"` } }),
});
/** 201 for a POST or PUT that creates, with the created record's `{identifier}` (docs/conventions.md §4): never empty. */
export const created = (identifier: string): Reply => ({ status: 201, body: { identifier } });
/** 204 with no body, for updates and deletes (docs/conventions.md §4). */
export const noContent = (): Reply => ({ status: 204 });
/** 304 for a conditional read whose entity did not change (docs/conventions.md §5). */
export const notModified = (version: number): Reply => ({ status: 304, headers: { ETag: `"${version}"` } });

/** 200 with a text body of another media type. */
export const okText = (body: string, contentType: string): Reply => ({ status: 200, text: { body, contentType } });

/**
 * 200 with a binary body (an image) of its media type; a versioned one carries its ETag (docs/conventions.md §5).
 * `nosniff`: a browser must never read uploaded bytes as another type (HTML, script) than the one stored.
 */
export const okBinary = (body: Buffer, contentType: string, version?: number): Reply => ({
  status: 200,
  binary: { body, contentType },
  headers: { 'X-Content-Type-Options': 'nosniff', ...(version === undefined ? {} : { ETag: `"${version}"` }) },
});

/**
 * 200 with a document made in chunks (the auditor's export), or null when it made none. API Gateway's HTTP API buffers
 * a function's answer (6 MB at most), so the chunks are compressed as they come when the client accepts gzip: the
 * function then holds the compressed document and one chunk, never the whole text (docs/decisions.md). Past `maxBytes`
 * (the answer's limit, as `toResult` counts it) it stops reading at once: SERVER_IS_OVERLOADED.
 */
export async function okChunks(
  chunks: AsyncIterable<string>,
  contentType: string,
  acceptEncoding: string | undefined,
  maxBytes: number,
): Promise<Reply | null> {
  const tooLarge = () =>
    inconsistentData(
      'SERVER_IS_OVERLOADED',
      'The document is larger than an answer may be: ask for a shorter period, with Accept-Encoding: gzip',
    );
  if (!/\bgzip\b/i.test(acceptEncoding ?? '')) {
    const parts: string[] = [];
    let bytes = 0;
    for await (const chunk of chunks) {
      bytes += Buffer.byteLength(chunk);
      if (bytes > maxBytes) throw tooLarge();
      parts.push(chunk);
    }
    return bytes === 0 ? null : okText(parts.join(''), contentType);
  }
  const gzip = createGzip();
  const compressed: Buffer[] = [];
  let bytes = 0;
  gzip.on('data', (part: Buffer) => {
    compressed.push(part);
    bytes += part.length;
  });
  let empty = true;
  for await (const chunk of chunks) {
    empty = false;
    if (!gzip.write(chunk)) await once(gzip, 'drain');
    // Sent as base64: 4 characters for every 3 bytes.
    if (Math.ceil(bytes / 3) * 4 > maxBytes) {
      gzip.destroy();
      throw tooLarge();
    }
  }
  gzip.end();
  await once(gzip, 'end');
  if (empty) return null;
  return { status: 200, binary: { body: Buffer.concat(compressed), contentType }, headers: { 'Content-Encoding': 'gzip' } };
}

/**
 * A JSON body as sent: compact, ending in a newline, so that `curl`'s output ends its line before the shell's prompt
 * (the newline is whitespace JSON allows after a value; Content-Length counts it as the gateway sets it from the body).
 */
export const jsonText = (body: unknown): string => `${JSON.stringify(body)}\n`;

/** Serializes a reply into the HTTP API v2 result; a body too large to send is a SERVER_IS_OVERLOADED. */
export function toResult(reply: Reply, maxBytes: number): APIGatewayProxyStructuredResultV2 {
  if (reply.text) {
    if (Buffer.byteLength(reply.text.body) > maxBytes) {
      throw inconsistentData('SERVER_IS_OVERLOADED', 'The result is too large to send; ask for less');
    }
    return {
      statusCode: reply.status,
      headers: { 'Content-Type': reply.text.contentType, ...reply.headers },
      body: reply.text.body,
    };
  }
  if (reply.binary) {
    const body = reply.binary.body.toString('base64');
    if (body.length > maxBytes) throw inconsistentData('SERVER_IS_OVERLOADED', 'The result is too large to send');
    return {
      statusCode: reply.status,
      headers: { 'Content-Type': reply.binary.contentType, ...reply.headers },
      body,
      isBase64Encoded: true,
    };
  }
  if (reply.body === undefined) return { statusCode: reply.status, headers: { ...reply.headers } };
  const body = jsonText(reply.body);
  if (Buffer.byteLength(body) > maxBytes) {
    throw inconsistentData('SERVER_IS_OVERLOADED', 'The result is too large; ask for fewer items with maxResults');
  }
  return { statusCode: reply.status, headers: { 'Content-Type': JSON_CONTENT_TYPE, ...reply.headers }, body };
}

/** One item of an error body's `details` list (docs/conventions.md §3). */
export interface ErrorDetail {
  /** The offending value's path into the body, or the name of the missing or mistyped header or parameter. */
  field: string | null;
  code: string | null;
  message: string;
  /** Everything else the error tells: `actualValue`, `pattern`, `sizeMin`, `sizeMax`, `valueMin`, `valueMax`, ... */
  params: Record<string, unknown>;
}

/**
 * `Content-Disposition` for a file name (built from an identifier, so no quote, backslash or control character): the
 * name itself, and for a name beyond ASCII an ASCII stand-in plus the UTF-8 name (RFC 6266).
 */
export function attachment(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_');
  const plain = `attachment; filename="${ascii}"`;
  return ascii === fileName ? plain : `${plain}; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** The error body of every version (docs/conventions.md §3). */
export interface ErrorBody {
  /** The exception's name with the suffix `JsonException`, as the service's clients read it. */
  error: string;
  exception: string;
  code: string | null;
  message: string;
  details: ErrorDetail[];
}

/** The keys of an error's details that name the value it is about: the item's `field`, in this order. */
const FIELD_KEYS = ['field', 'header', 'parameter'] as const;

/**
 * An error's details object as the list of the error body: none when it has nothing to add, else one item whose
 * `field` is the value's path (or the header's or parameter's name) and whose `params` hold every other key.
 */
export function detailsList(error: ApiError): ErrorDetail[] {
  if (Object.keys(error.details).length === 0) return [];
  const key = FIELD_KEYS.find((name) => typeof error.details[name] === 'string');
  const params = Object.fromEntries(Object.entries(error.details).filter(([name]) => name !== key));
  return [{ field: key === undefined ? null : (error.details[key] as string), code: error.code, message: error.message, params }];
}

/** The error body (docs/conventions.md §3): every error of every version becomes it here and nowhere else. */
export function errorBody(error: ApiError): ErrorBody {
  return {
    error: `${error.exception}JsonException`,
    exception: error.exception,
    code: error.code,
    message: error.message,
    details: detailsList(error),
  };
}

/** The pinned error answer (docs/conventions.md §3). */
export function errorResult(error: ApiError): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode: error.status,
    headers: { 'Content-Type': JSON_CONTENT_TYPE, ...error.headers },
    body: jsonText(errorBody(error)),
  };
}

/**
 * Preloaded into serverless-offline by the local stack (`node --import`), never deployed: it mends, as serverless-offline's
 * modules load, where 14.8.2's HTTP API v2 events differ from API Gateway's (docs/decisions.md, Local stack and tooling).
 * Each mend fails the start loudly if a new serverless-offline no longer has the text it replaces.
 *
 * - Binary bodies. API Gateway hands a function a binary body (an image upload) base64-encoded with isBase64Encoded;
 *   serverless-offline does so only for application/octet-stream and multipart/form-data, and turns every other body
 *   into a UTF-8 string, which mangles the bytes of an image/png. `image/` joins its list of binary media types.
 * - Bytes that are not UTF-8. serverless-offline decodes a JSON body leniently, so such bytes reach the function as
 *   U+FFFD and the function's strict decoding never sees them. A body that is not UTF-8 is handed over as its bytes
 *   (base64, isBase64Encoded), whatever its media type, so the function refuses it as it would refuse those bytes anywhere.
 * - Request ids. serverless-offline gives every v2 event the constant `offlineContext_resourceId` as
 *   `requestContext.requestId`; API Gateway gives each request its own, which the request's log line carries.
 * - Function errors. When a function fails (it threw, or outlived its timeout), serverless-offline builds the error
 *   object `{errorMessage, errorType, stackTrace}` and, for a v2 event, passes it on as a 200 with that JSON as its
 *   body: a client took a lost answer for a success. An HTTP API answers a function error or timeout with
 *   `500 {"message":"Internal Server Error"}`, and so does the local stack.
 * - A GET's body. hapi reads no body of a GET (or HEAD), so serverless-offline ran the function without it, answered
 *   before the client had sent it, and closed the connection with the body unread (hapi's `Connection: close`), which
 *   the kernel turns into a TCP reset that can take the answer with it (RFC 9112 §9.6). API Gateway reads the whole
 *   request and hands the function its body whatever the method; so does this mend, with the limit serverless-offline
 *   gives the other methods (10 MiB, then hapi's 413), before the event is built.
 */
import { registerHooks } from 'node:module';

interface Mend {
  /** The module's path inside node_modules. */
  file: string;
  /** The text replaced: what the start checks is still there. */
  find: RegExp;
  replace: (found: string) => string;
}

const UTILS = '/serverless-offline/src/utils/index.js';
const HTTP_SERVER = '/serverless-offline/src/events/http/HttpServer.js';
/** serverless-offline's `maxBytes` for the bodies hapi reads (API Gateway's payload limit), kept for a GET's. */
const BODY_LIMIT = 10 * 1024 * 1024;
/** Reads the rest of a GET's body off the socket whatever its size (nothing stays unread), keeping at most the limit. */
const READ_BODY = `
import offlineEventsBoom from "@hapi/boom"
async function offlineEventsReadBody(request) {
  const chunks = []
  let size = 0
  for await (const chunk of request.raw.req) {
    size += chunk.length
    if (size <= ${BODY_LIMIT}) chunks.push(chunk)
  }
  if (size > ${BODY_LIMIT}) throw offlineEventsBoom.entityTooLarge("Payload content length greater than maximum allowed: ${BODY_LIMIT}")
  return Buffer.concat(chunks)
}
`;
const MENDS: readonly Mend[] = [
  { file: UTILS, find: /const possibleBinaryContentTypes = \[/, replace: (list) => `${list}\n  "image/",` },
  {
    // detectEncoding(request) is asked twice per request: first with the payload's Buffer (HttpServer), then, building
    // the event, with that Buffer kept as request.raw.req.payload. Both answers must agree.
    file: UTILS,
    find: /export function detectEncoding\(request\) \{/,
    replace: (head) =>
      `import { isUtf8 as offlineEventsIsUtf8 } from "node:buffer"\n${head}\n` +
      '  const bytes = Buffer.isBuffer(request.payload) ? request.payload : request.raw?.req?.payload\n' +
      '  if (Buffer.isBuffer(bytes) && !offlineEventsIsUtf8(bytes)) return "binary"',
  },
  { file: HTTP_SERVER, find: /^export default class HttpServer \{/m, replace: (head) => `${READ_BODY}\n${head}` },
  {
    // The first step of every route's handler, before its encoding is detected and its event built.
    file: HTTP_SERVER,
    find: /const encoding = detectEncoding\(request\)/,
    replace: (line) =>
      'if (request.payload === undefined && (request.method === "get" || request.method === "head") &&\n' +
      '  (request.headers["content-length"] !== undefined || request.headers["transfer-encoding"] !== undefined))\n' +
      '  request.payload = await offlineEventsReadBody(request)\n' +
      line,
  },
  {
    // At the head of the proxy response's branch, before it wraps the error object (no statusCode) into a 200.
    file: HTTP_SERVER,
    find: /\/\* LAMBDA PROXY INTEGRATION HAPIJS RESPONSE CONFIGURATION \*\//,
    replace: (head) =>
      `${head}\n        if (err && endpoint.isHttpApi && endpoint.payload === "2.0") result = ` +
      '{ statusCode: 500, headers: { "Content-Type": "application/json" }, body: \'{"message":"Internal Server Error"}\', ' +
      'isBase64Encoded: false }',
  },
  {
    file: '/serverless-offline/src/events/http/lambda-events/LambdaProxyIntegrationEventV2.js',
    find: /requestId: "offlineContext_resourceId",/,
    replace: () => 'requestId: crypto.randomUUID(),',
  },
];

registerHooks({
  load(url, context, nextLoad) {
    const result = nextLoad(url, context);
    const mends = MENDS.filter((mend) => url.endsWith(mend.file));
    if (mends.length === 0 || result.source === undefined) return result;
    let source = typeof result.source === 'string' ? result.source : new TextDecoder().decode(result.source);
    for (const mend of mends) {
      if (!mend.find.test(source)) throw new Error(`infra/local/offline-events.ts: ${String(mend.find)} is not in ${url}`);
      source = source.replace(mend.find, mend.replace);
    }
    return { ...result, source };
  },
});

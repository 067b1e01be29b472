/**
 * Preloaded into serverless-offline by the local stack (`node --import`), never deployed.
 *
 * API Gateway hands a function a binary body (an image upload) base64-encoded with isBase64Encoded;
 * serverless-offline 14 does so only for application/octet-stream and multipart/form-data, and turns
 * every other body into a UTF-8 string, which mangles the bytes of an image/png. This hook adds
 * `image/` to serverless-offline's list of binary media types as its module is loaded, so locally an
 * image arrives as it does in AWS. It fails the start loudly if a new serverless-offline changed the list.
 */
import { registerHooks } from 'node:module';

const TARGET = '/serverless-offline/src/utils/index.js';
const LIST = /const possibleBinaryContentTypes = \[/;

registerHooks({
  load(url, context, nextLoad) {
    const result = nextLoad(url, context);
    if (!url.endsWith(TARGET) || result.source === undefined) return result;
    const source = typeof result.source === 'string' ? result.source : new TextDecoder().decode(result.source);
    if (!LIST.test(source)) throw new Error(`infra/local/offline-binary-bodies.ts: no binary media type list in ${url}`);
    return { ...result, source: source.replace(LIST, (list) => `${list}\n  "image/",`) };
  },
});

/**
 * A document made in chunks (the auditor's export; shared/http/response.ts `okChunks`): gzipped for a client that
 * accepts it and plain for one that does not, nothing for no chunks, and a document past the answer's limit refused
 * as soon as it passes it, without reading the rest.
 */
import { randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { okChunks } from '#shared/http/response.ts';

async function* chunks(count: number, seen: { count: number } = { count: 0 }) {
  for (let index = 0; index < count; index += 1) {
    seen.count += 1;
    yield `<Handelse>${index}</Handelse>\n`;
  }
}

describe('okChunks', () => {
  it('gzips for a client that accepts gzip, sends plain text to one that does not, and nothing for no chunks', async () => {
    const plain = await okChunks(chunks(3), 'application/xml', 'identity', 1000);
    expect(plain).toEqual({
      status: 200,
      text: { body: '<Handelse>0</Handelse>\n<Handelse>1</Handelse>\n<Handelse>2</Handelse>\n', contentType: 'application/xml' },
    });
    const zipped = await okChunks(chunks(3), 'application/xml', 'br, gzip;q=0.8', 1000);
    expect(zipped?.headers).toEqual({ 'Content-Encoding': 'gzip' });
    expect(gunzipSync(zipped?.binary?.body ?? Buffer.alloc(0)).toString('utf8')).toBe(plain?.text?.body);
    expect(await okChunks(chunks(0), 'application/xml', 'gzip', 1000)).toBeNull();
  });

  it('stops at the first chunk past the limit: SERVER_IS_OVERLOADED', async () => {
    const seen = { count: 0 };
    // Each chunk is 23 bytes: the fifth passes 100.
    await expect(okChunks(chunks(1000, seen), 'application/xml', undefined, 100)).rejects.toMatchObject({
      exception: 'InconsistentData',
      code: 'SERVER_IS_OVERLOADED',
    });
    expect(seen.count).toBe(5);
  });

  it('stops a gzipped document too, once what it would send passes the limit', async () => {
    const seen = { count: 0 };
    async function* noise() {
      for (let index = 0; index < 1000; index += 1) {
        seen.count += 1;
        yield randomBytes(48 * 1024).toString('base64');
      }
    }
    await expect(okChunks(noise(), 'application/xml', 'gzip', 200_000)).rejects.toMatchObject({ code: 'SERVER_IS_OVERLOADED' });
    expect(seen.count).toBeLessThan(20);
  });
});

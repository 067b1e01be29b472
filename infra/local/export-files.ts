/**
 * The local stack's download links of export files (docs/conventions.md §28): what S3 answers a pre-signed GET, served
 * from the export folder. A link is checked as `localExportStore` signed it (shared/exports/local-store.ts); a link past
 * its time, or one whose signature does not match, is refused with 403 and S3's error code, a missing file with 404.
 */
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkLocalLink, type LocalExportSettings } from '../../shared/exports/local-store.ts';
import { EXPORT_CONTENT_TYPE } from '../../shared/exports/store.ts';
import { attachment } from '../../shared/http/response.ts';

export interface ExportFiles {
  /** `http://localhost:<port>`: the base of every link (`EXPORT_URL_BASE`). */
  url: string;
  stop(): Promise<void>;
}

const s3Error = (code: string, message: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>\n`;

export async function startExportFiles(settings: Omit<LocalExportSettings, 'urlBase'>): Promise<ExportFiles> {
  let urlBase = '';
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', urlBase);
    const refuse = (status: number, code: string, message: string) => {
      response.writeHead(status, { 'Content-Type': 'application/xml' }).end(s3Error(code, message));
    };
    if (request.method !== 'GET')
      return refuse(405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
    const checked = checkLocalLink({ ...settings, urlBase }, url.pathname, url.searchParams);
    if ('refused' in checked) return refuse(403, checked.refused, checked.message);
    let size: number;
    try {
      size = statSync(checked.path).size;
    } catch {
      return refuse(404, 'NoSuchKey', 'The specified key does not exist.');
    }
    response.writeHead(200, {
      'Content-Type': EXPORT_CONTENT_TYPE,
      'Content-Length': String(size),
      'Content-Disposition': attachment(checked.fileName),
    });
    createReadStream(checked.path).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  urlBase = `http://localhost:${(server.address() as AddressInfo).port}`;
  return {
    url: urlBase,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

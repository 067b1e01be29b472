/**
 * A seller's sales CSV as export jobs (docs/conventions.md §28): `POST`, `GET` one, `GET` the list under
 * `/{sellerId}/sales/stats/csv-exports`. The CSV of `GET .../sales/stats/csv` for the same parameters, without its
 * 20,000 rows; the worker (functions/exports) writes it.
 */
import type { SalesCsvExportOrderBody } from '#schemas/types.ts';
import { sellerPk } from '#shared/domain/seller.ts';
import { askExport, type ExportOwner, exportList, exportState } from '#shared/exports/answers.ts';
import { pageParams } from '#shared/http/query.ts';
import type { ApiRequest, Reply } from '#shared/http/types.ts';
import { coverageOf, type StatsParams } from '#shared/stats/coverage.ts';
import { DEFAULT_FILE_NAME } from './csv.ts';

const ownerOf = (request: ApiRequest<unknown, 'sellerId'>): ExportOwner => ({
  pk: sellerPk(request.params.sellerId),
  kind: 'sales-csv',
  location: (id) => `/v${request.version}/${encodeURIComponent(request.params.sellerId)}/sales/stats/csv-exports/${id}`,
});

/** A number of the body as its query parameter's text. */
const asText = (value: number | string | undefined) => (value === undefined ? null : String(value));

/**
 * `POST .../csv-exports`: what the parameters cover is worked out now, so that they are refused as the GET refuses
 * them before a job is made; the worker works it out again for the time the export was asked for.
 */
export async function startSalesCsvExport(request: ApiRequest<SalesCsvExportOrderBody, 'sellerId'>): Promise<Reply> {
  const { body } = request;
  const fileName = body.fileName ?? DEFAULT_FILE_NAME;
  const params: StatsParams = {
    period: asText(body.period),
    from: asText(body.from),
    to: asText(body.to),
    cashRegisterName: body.cashRegisterName ?? null,
  };
  await coverageOf(request.params.sellerId, params);
  const key = JSON.stringify([params.period, params.from, params.to, params.cashRegisterName, fileName]);
  return askExport(
    ownerOf(request),
    { from: body.from ?? null, to: body.to ?? null, key },
    { sellerId: request.params.sellerId, ...params, fileName },
  );
}

/** `GET .../csv-exports/{exportId}`. */
export const readSalesCsvExport = (request: ApiRequest<unknown, 'sellerId' | 'exportId'>): Promise<Reply> =>
  exportState(ownerOf(request), request.params.exportId);

/** `GET .../csv-exports`: newest first, paged. */
export const listSalesCsvExports = (request: ApiRequest<unknown, 'sellerId'>): Promise<Reply> =>
  exportList(ownerOf(request), pageParams(request.query));

import { hairdresser as fields } from '#schemas/generated/fields.js';
import type { Hairdresser } from '#shared/domain/records.ts';
import type { ApiRequest, Reply } from '#shared/http/types.ts';
import { readItem } from '#shared/db/reads.ts';
import { deleteRecord, found, putRecord, type SellerRecord, show } from './records.ts';
import { sellerKeys } from '#shared/domain/seller.ts';

/** A seller's hairdresser (v26, v33): one shape in both versions (v15 has none), seen only by who may access the seller. */
export const hairdressers: SellerRecord<Hairdresser> = {
  noun: 'Hairdresser',
  key: sellerKeys.hairdresser,
  view: { 15: fields, 26: fields, 33: fields },
};

/** GET /hairdressers/{sellerId}: the pipeline found the seller live (`access.seller`), so only the record is read. */
export async function getHairdresser(request: ApiRequest<unknown, 'sellerId'>): Promise<Reply> {
  const sellerId = request.params.sellerId;
  const current = await readItem(hairdressers.key(sellerId));
  return show(hairdressers, found(hairdressers, current, sellerId), request);
}

/** PUT /hairdressers/{sellerId}: 201 when it creates, 204 when it updates (docs/conventions.md §4). */
export const putHairdresser = (request: ApiRequest<Hairdresser, 'sellerId'>): Promise<Reply> => putRecord(hairdressers, request);

/** DELETE /hairdressers/{sellerId} */
export const deleteHairdresser = (request: ApiRequest<unknown, 'sellerId'>): Promise<Reply> =>
  deleteRecord(hairdressers, request);

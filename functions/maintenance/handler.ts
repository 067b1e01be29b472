import { config } from '#shared/config.ts';
import { purgeTombstones } from '#shared/db/tombstones.ts';
import { readPartition } from '#shared/db/reads.ts';
import { sellerKeys } from '#shared/domain/seller.ts';

const DAY = 86_400_000;

/**
 * Daily (EventBridge schedule): removes every seller's catalog tombstones older than the retention
 * (`TOMBSTONE_RETENTION_DAYS`). Sellers come from their directory, one Query; no Scan.
 */
export async function handler(): Promise<{ sellers: number; removed: number }> {
  const before = Date.now() - config().tombstoneRetentionDays * DAY;
  const sellers = await readPartition(sellerKeys.directory);
  let removed = 0;
  for (const { sellerId } of sellers) removed += (await purgeTombstones(sellerKeys.counter(sellerId), before)).removed;
  console.log(JSON.stringify({ job: 'purge-tombstones', sellers: sellers.length, removed }));
  return { sellers: sellers.length, removed };
}

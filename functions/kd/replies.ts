/**
 * A kd's reply in the table (docs/conventions.md §25): the bridge's reply rule writes it there, the cloud link too, so
 * every waiter on a claim reads it the same way.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { readItem } from '#shared/db/reads.ts';
import { bridgeKeys, type KdReplyMessage } from '#shared/kd/protocol.ts';
import type { InFlight } from './links.ts';

/**
 * Pauses between reads of a reply: 5 ms, then every 10 ms. A register waits at the counter for the code, so a reply
 * in the table is noticed within 10 ms; each read that finds nothing costs 1 RCU (a 50 ms cap made the bench's p95
 * 111 ms for replies in the table by 76 ms).
 */
const POLL_FIRST_MS = 5;
const POLL_MAX_MS = 10;

/**
 * The request's reply, read strongly consistently from the table every few ms until the deadline; undefined when
 * none came. A reply naming another unit is no reply.
 */
export async function waitForReply(flight: InFlight, serial: string): Promise<KdReplyMessage | undefined> {
  for (let pause = POLL_FIRST_MS; ; pause = Math.min(pause * 2, POLL_MAX_MS)) {
    const reply = await readItem(bridgeKeys.reply(flight.correlationId));
    if (reply && reply.serial === serial) return reply;
    const left = flight.deadline - Date.now();
    if (left <= 0) return undefined;
    await sleep(Math.min(pause, left));
  }
}

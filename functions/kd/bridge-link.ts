/**
 * A unit behind an edge bridge (docs/conventions.md §25): the request is published on the unit's topic through IoT,
 * and the reply rule writes the bridge's reply into the table, where `waitForReply` reads it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { kdPublisher } from '#shared/iot/publisher.ts';
import { bridgeKeys, kdTopics } from '#shared/kd/protocol.ts';
import { type InFlight, type UnitLink, UNSENT } from './links.ts';
import { bridgeRefusal } from './outcome.ts';
import { waitForReply } from './replies.ts';
import type { KdRequest } from '#shared/kd/codec.ts';

export const bridgeLink = (serial: string): UnitLink => ({
  refusal: (read) => bridgeRefusal(read(bridgeKeys.bridge(serial)), read(bridgeKeys.status(serial))),
  async ask({ flight, command }) {
    return (await publish(serial, flight, command)) ? waitForReply(flight, serial) : UNSENT;
  },
});

/** Publishes the request; false when the broker did not take it before the deadline. */
async function publish(serial: string, flight: InFlight, command: KdRequest): Promise<boolean> {
  const publisher = await kdPublisher();
  const message = { correlationId: flight.correlationId, replyTopic: kdTopics.reply(serial), deadline: flight.deadline, command };
  const give = new AbortController();
  try {
    return await Promise.race([
      publisher.publish(serial, message).then(() => true),
      sleep(Math.max(0, flight.deadline - Date.now()), false, { signal: give.signal }),
    ]);
  } catch (error) {
    console.log(JSON.stringify({ level: 'warn', message: 'kd publish failed', serial, error: String(error) }));
    return false;
  } finally {
    give.abort();
  }
}

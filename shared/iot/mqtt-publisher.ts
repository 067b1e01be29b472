import { randomUUID } from 'node:crypto';
import { connect } from 'mqtt';
import { kdTopics, type KdRequestMessage } from '#shared/kd/protocol.ts';
import type { KdPublisher } from './publisher.ts';

/**
 * kd requests through a local MQTT broker (`npm start` and the tests), the stand-in for IoT Core's data plane:
 * one connection per process, reconnected by mqtt.js. MQTT 3.1.1, which every broker speaks (the local aedes has no
 * MQTT 5): the payload carries the correlation id and reply topic itself. Loaded on first use (`publisher.ts`), so
 * the mqtt package is a lazy chunk of the kd function.
 */
export function mqttPublisher(url: string): KdPublisher {
  const client = connect(url, {
    protocolVersion: 4,
    clientId: `kd-service-${randomUUID()}`,
    reconnectPeriod: 500,
    connectTimeout: 5000,
  });
  // A broker that is down is a failed publish (the caller's outcome), never an unhandled error event.
  client.on('error', () => undefined);
  return {
    async publish(serial: string, message: KdRequestMessage) {
      await client.publishAsync(kdTopics.request(serial), JSON.stringify(message), { qos: 1 });
    },
  };
}

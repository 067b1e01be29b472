import { randomUUID } from 'node:crypto';
import { connect } from 'mqtt';
import { kdTopics, type KdRequestMessage } from '#shared/kd/protocol.ts';
import type { KdPublisher } from './publisher.ts';

/**
 * kd requests through a local MQTT broker (`npm start` and the tests), the stand-in for IoT Core's data plane:
 * one MQTT 5 connection per process, reconnected by mqtt.js. Loaded on first use (`publisher.ts`), so the
 * mqtt package is a lazy chunk of the kd function.
 */
export function mqttPublisher(url: string): KdPublisher {
  const client = connect(url, {
    protocolVersion: 5,
    clientId: `kd-service-${randomUUID()}`,
    reconnectPeriod: 500,
    connectTimeout: 5000,
  });
  // A broker that is down is a failed publish (the caller's outcome), never an unhandled error event.
  client.on('error', () => undefined);
  return {
    async publish(serial: string, message: KdRequestMessage) {
      await client.publishAsync(kdTopics.request(serial), JSON.stringify(message), {
        qos: 1,
        properties: {
          contentType: 'application/json',
          responseTopic: message.replyTopic,
          correlationData: Buffer.from(message.correlationId, 'utf8'),
        },
      });
    },
  };
}

import { kdTopics, type KdRequestMessage } from '#shared/kd/protocol.ts';
import type * as IoT from './iot-sdk.ts';
import type { KdPublisher } from './publisher.ts';

/** Where the data plane is: the account's `iot:Data-ATS` endpoint (a host name, or an https URL) and its region. */
export interface IotEndpoint {
  endpoint: string;
  region: string;
}

/**
 * kd requests through AWS IoT Core's data plane (`iot:Publish` on the unit's request topic, the one IoT right of
 * the kd function's role). The payload carries everything (MQTT 3.1.1 bridges read it); the MQTT 5 response
 * topic and correlation data repeat the reply topic and correlation id for clients that use them.
 */
export function iotPublisher({ endpoint, region }: IotEndpoint): KdPublisher {
  let loaded: Promise<{ sdk: typeof IoT; client: IoT.IoTDataPlaneClient }> | undefined;
  const iot = () => {
    loaded ??= import('./iot-sdk.ts').then((sdk) => ({
      sdk,
      client: new sdk.IoTDataPlaneClient({
        region,
        endpoint: endpoint.startsWith('https://') ? endpoint : `https://${endpoint}`,
      }),
    }));
    return loaded;
  };
  return {
    async publish(serial: string, message: KdRequestMessage) {
      const { sdk, client } = await iot();
      await client.send(
        new sdk.PublishCommand({
          topic: kdTopics.request(serial),
          qos: 1,
          payload: Buffer.from(JSON.stringify(message), 'utf8'),
          contentType: 'application/json',
          responseTopic: message.replyTopic,
          // The data plane takes correlation data base64-encoded.
          correlationData: Buffer.from(message.correlationId, 'utf8').toString('base64'),
        }),
      );
    },
  };
}

/**
 * The IoT port of the kd path: the service publishes a kd request to a control unit's edge bridge
 * (`cu/<serial>/kd/request`, shared/kd/protocol.ts). AWS IoT Core's data plane in AWS, an MQTT broker
 * locally (`KD_PUBLISHER`). Replies never come back through here: a rule writes them into the table.
 */
import { config, kdPublishing } from '#shared/config.ts';
import type { KdRequestMessage } from '#shared/kd/protocol.ts';
import { iotPublisher } from './iot-publisher.ts';

export interface KdPublisher {
  /** Publishes at QoS 1 on the unit's request topic; resolves once the broker has taken it, rejects when it cannot. */
  publish(serial: string, message: KdRequestMessage): Promise<void>;
}

let chosen: Promise<KdPublisher> | undefined;

/**
 * The process's publisher, chosen once from `KD_PUBLISHER`. The IoT data-plane SDK and the MQTT client both
 * load on the first publish (an isolated SDK file, a lazy chunk), so neither costs the function's Init.
 */
export function kdPublisher(): Promise<KdPublisher> {
  chosen ??= choose();
  return chosen;
}

async function choose(): Promise<KdPublisher> {
  const settings = kdPublishing();
  if (settings.publisher === 'iot') return iotPublisher({ endpoint: settings.endpoint, region: config().region });
  const { mqttPublisher } = await import('./mqtt-publisher.ts');
  return mqttPublisher(settings.url);
}

/**
 * The local stand-in for IoT Core's topic rules (infra/iot.yml): replies on `cu/+/kd/reply` and statuses on
 * `cu/+/status` become table items (`replyItem`, `statusItem`), written with PutItem as the rules' DynamoDB
 * action does. A message that is not a reply or status, or speaks for another unit than its topic's, is
 * dropped, as the rules' SQL drops it; fields beyond the message's own never reach the item (parseReply).
 */
import { randomUUID } from 'node:crypto';
import { connect } from 'mqtt';
import { table } from '#shared/db/client.ts';
import { putItem } from '#shared/db/documents.ts';
import { kdTopics, parseReply, parseStatus, replyItem, statusItem } from '#shared/kd/protocol.ts';

export interface KdRules {
  stop(): Promise<void>;
}

const REPLY = /^cu\/[^/]+\/kd\/reply$/;

/** Subscribes (QoS 1) and resolves once both subscriptions stand; the client resubscribes after a reconnect. */
export async function startKdRules(brokerUrl: string, log: (line: string) => void = console.error): Promise<KdRules> {
  // aedes speaks 3.1.1; the rules need nothing of MQTT 5.
  const client = connect(brokerUrl, { protocolVersion: 4, clientId: `local-kd-rules-${randomUUID()}`, reconnectPeriod: 500 });
  client.on('error', (error) => log(`kd rules: ${error.message}`));
  // One write at a time, in arrival order: a status must not overtake the one before it.
  let writes: Promise<void> = Promise.resolve();
  client.on('message', (topic, payload) => {
    const item = REPLY.test(topic) ? replyRow(topic, payload) : statusRow(topic, payload);
    if (!item) return log(`kd rules: dropped a message on ${topic} that is not a ${REPLY.test(topic) ? 'reply' : 'status'}`);
    writes = writes
      .then(() => putItem({ TableName: table(), Item: item }))
      .then(
        () => undefined,
        (error: unknown) => log(`kd rules: writing ${topic} failed: ${String(error)}`),
      );
  });
  await new Promise<void>((resolve, reject) => {
    client.once('connect', () => resolve());
    client.once('error', reject);
  });
  await client.subscribeAsync([kdTopics.allReplies, kdTopics.allStatuses], { qos: 1 });
  return {
    stop: async () => {
      await client.endAsync();
      await writes;
    },
  };
}

// As the rules in infra/iot.yml: a message whose serial is not its topic's (the unit the bridge may speak for) is dropped.
const topicSerial = (topic: string) => topic.split('/')[1];

function replyRow(topic: string, payload: Buffer) {
  const reply = parseReply(payload);
  return reply && reply.serial === topicSerial(topic) ? replyItem(reply, Date.now()) : undefined;
}

function statusRow(topic: string, payload: Buffer) {
  const status = parseStatus(payload);
  return status && status.serial === topicSerial(topic) ? statusItem(status) : undefined;
}

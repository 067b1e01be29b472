/**
 * The MQTT contract between the service and a control unit's edge bridge (thing `cu-<serial>`): topics,
 * the three JSON messages, and how a reply or a status becomes a table item. The service publishes
 * requests, the bridge publishes replies and its status, and a rule (IoT Core's topic rule in AWS,
 * infra/local/ on this machine) writes those into the table, where the waiting function reads them.
 * Everything a message needs travels in its JSON payload, so MQTT 3.1.1 brokers carry it too; MQTT 5
 * correlation data and response topic repeat the correlation id and reply topic where the broker has them.
 */
import type { Key } from '#shared/db/keys.ts';
import { controlUnitPk } from '#shared/domain/records.ts';
import type { KdRequest } from './codec.ts';

export const kdTopics = {
  request: (serial: string) => `cu/${serial}/kd/request`,
  reply: (serial: string) => `cu/${serial}/kd/reply`,
  status: (serial: string) => `cu/${serial}/status`,
  /** The filters the rules subscribe to; the serial is the second topic level. */
  allReplies: 'cu/+/kd/reply',
  allStatuses: 'cu/+/status',
} as const;

/** The IoT thing, and the only MQTT client id its certificate may connect as. */
export const thingName = (serial: string) => `cu-${serial}`;

/** Service -> bridge, on `cu/<serial>/kd/request`, QoS 1. */
export interface KdRequestMessage {
  correlationId: string;
  replyTopic: string;
  /** Epoch ms; the bridge drops a request it receives after this, and never sends it to the unit. */
  deadline: number;
  command: KdRequest;
}

/**
 * What the bridge saw: the unit answered with a well-formed line (`REPLY`, its return code and, for 0,
 * the control code); framing or CRC errors persisted after one retry (`COMMUNICATION`); the unit did not
 * answer or could not be reached (`UNAVAILABLE`).
 */
export const KD_OUTCOMES = ['REPLY', 'COMMUNICATION', 'UNAVAILABLE'] as const;
export type KdOutcome = (typeof KD_OUTCOMES)[number];

/** Bridge -> service, on `cu/<serial>/kd/reply`, QoS 1. */
export interface KdReplyMessage {
  correlationId: string;
  serial: string;
  outcome: KdOutcome;
  /** The unit's return code when outcome is REPLY, else null. */
  returnCode: number | null;
  /** Present when returnCode is 0. */
  controlCode: string | null;
  /** A short diagnostic for the log (never personal data). */
  detail: string | null;
  bridgeVersion: string;
  /** Epoch ms when the bridge published. */
  at: number;
}

/** Bridge -> service, on `cu/<serial>/status`, QoS 1, retained; `online: false` is the bridge's last will. */
export interface BridgeStatusMessage {
  serial: string;
  online: boolean;
  bridgeVersion: string;
  at: number;
}

/** A bridge's provisioning record: written when its thing and certificate are made (provision-bridge, or the local stack). */
export interface BridgeRecord {
  serial: string;
  thingName: string;
  /** Epoch ms. */
  provisioned: number;
}

/** The items of a unit's bridge, in the unit's partition, and its replies (which expire), as the rules write them. */
export const bridgeKeys = {
  /** Its provisioning record. */
  bridge: (serial: string): Key<BridgeRecord> => ({ pk: controlUnitPk(serial), sk: '#BRIDGE' }),
  /** Its last status. */
  status: (serial: string): Key<BridgeStatusMessage> => ({ pk: controlUnitPk(serial), sk: '#BRIDGE_SEEN' }),
  reply: (correlationId: string): Key<KdReplyMessage & { expiresAt: number }> => ({ pk: `KDR#${correlationId}`, sk: '#KDR' }),
} as const;

/** Replies stay in the table this long (DynamoDB TTL on `expiresAt`, epoch seconds), then expire. */
export const KD_REPLY_TTL_SECONDS = 86_400;

/** The table item a reply becomes (the reply rule's output; infra/iot.yml's SQL builds the same). */
export const replyItem = (reply: KdReplyMessage, nowMs: number) => ({
  ...bridgeKeys.reply(reply.correlationId),
  ...reply,
  expiresAt: Math.floor(nowMs / 1000) + KD_REPLY_TTL_SECONDS,
});

/**
 * The table item a status becomes: one per unit, overwritten by each status, apart from the bridge's
 * provisioning record (`CU#<serial>` / `#BRIDGE`, written by provision-bridge), so a status never erases it.
 */
export const statusItem = (status: BridgeStatusMessage) => ({ ...bridgeKeys.status(status.serial), ...status });

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown, max: number): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= max;
const integer = (value: unknown): value is number => Number.isInteger(value);
const nullableText = (value: unknown, max: number) => value === null || text(value, max);

/** Parses a reply payload; undefined for anything that is not one (a rule drops it). */
export function parseReply(payload: string | Uint8Array): KdReplyMessage | undefined {
  const value = parseJson(payload);
  if (!isObject(value)) return undefined;
  const { correlationId, serial, outcome, returnCode, controlCode, detail, bridgeVersion, at } = value;
  const valid =
    text(correlationId, 64) &&
    text(serial, 20) &&
    typeof outcome === 'string' &&
    (KD_OUTCOMES as readonly string[]).includes(outcome) &&
    (returnCode === null || integer(returnCode)) &&
    nullableText(controlCode, 64) &&
    nullableText(detail, 256) &&
    text(bridgeVersion, 32) &&
    integer(at);
  // Only the message's own fields: anything else a payload carries (a key, an expiry) never reaches an item.
  return valid
    ? { correlationId, serial, outcome: outcome as KdOutcome, returnCode, controlCode, detail, bridgeVersion, at }
    : undefined;
}

/** Parses a status payload; undefined for anything that is not one. */
export function parseStatus(payload: string | Uint8Array): BridgeStatusMessage | undefined {
  const value = parseJson(payload);
  if (!isObject(value)) return undefined;
  const { serial, online, bridgeVersion, at } = value;
  const valid = text(serial, 20) && typeof online === 'boolean' && text(bridgeVersion, 32) && integer(at);
  return valid ? { serial, online, bridgeVersion, at } : undefined;
}

/** Parses a request payload (the bridge's side); undefined for anything that is not one. */
export function parseRequest(payload: string | Uint8Array): KdRequestMessage | undefined {
  const value = parseJson(payload);
  if (!isObject(value)) return undefined;
  const { correlationId, replyTopic, deadline, command } = value;
  const valid = text(correlationId, 64) && text(replyTopic, 128) && integer(deadline) && isObject(command);
  return valid ? { correlationId, replyTopic, deadline, command: command as unknown as KdRequest } : undefined;
}

function parseJson(payload: string | Uint8Array): unknown {
  try {
    return JSON.parse(typeof payload === 'string' ? payload : Buffer.from(payload).toString('utf8'));
  } catch {
    return undefined;
  }
}

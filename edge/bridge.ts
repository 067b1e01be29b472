/**
 * The edge bridge: the small program beside a control unit that carries kd requests from MQTT (AWS IoT
 * Core, or the local broker) to the unit and the unit's answers back (shared/kd/protocol.ts is the contract).
 *
 * - Connects as `cu-<serial>`, over TLS with the thing's certificate when one is given. It asks for
 *   MQTT 5 and falls back to 3.1.1 when the broker refuses the version (aedes speaks only 3.1.1); the
 *   JSON payloads carry everything either way. The session is persistent, so requests published while
 *   the bridge reconnects still reach it (their deadlines decide whether they go to the unit).
 * - Every (re)connect: subscribes the request topic (QoS 1), then publishes the retained status
 *   `online: true`; the last will is `online: false`, retained. Lost connections are retried with
 *   exponential backoff up to a cap.
 * - One exchange with the unit at a time. A request past its deadline when received, or when its turn
 *   comes, is dropped unsent. A correlation id seen before gets the reply it already got (the unit sees
 *   it once); the last `rememberReplies` ids are kept. Framing or CRC errors (an undecodable reply, or -2)
 *   are retried once, then COMMUNICATION; a timeout, closed line or refused connection is UNAVAILABLE.
 * - A command the codec refuses never reaches the unit: the bridge answers REPLY with the field's return
 *   code, as the unit would have answered the line; a command of the wrong shape is COMMUNICATION.
 * - One log line per request: serial, correlation id, outcome, return code, duration (no amounts, no org).
 */
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { connect, type IClientOptions, type IPublishPacket, type MqttClient } from 'mqtt';
import { decodeKdReply, encodeKd, KD_BAD_CRC_CODE, KdFieldError } from '#shared/kd/codec.ts';
import {
  type BridgeStatusMessage,
  type KdOutcome,
  type KdReplyMessage,
  type KdRequestMessage,
  kdTopics,
  parseRequest,
  thingName,
} from '#shared/kd/protocol.ts';
import { type KdTransport, TransportTimeoutError, transportFor } from './transport.ts';

/** The bridge's version as it reports it in replies and statuses: the package's version. */
export const BRIDGE_VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

export interface BridgeTls {
  /** PEM contents (edge/config.ts reads them from the paths provision-bridge writes). */
  cert: string;
  key: string;
  ca: string;
}

export interface BridgeOptions {
  serial: string;
  /** `mqtt://host:port` (a local broker) or `mqtts://endpoint:8883` (IoT Core, with `tls`). */
  broker: string;
  /** The unit's address for transportFor: `tcp://host:port` or `serial:/dev/ttyUSB0[?baudRate=9600]`. */
  unit: string;
  tls?: BridgeTls;
  /** Longest wait for one reply line from the unit, shortened to what is left of the request's deadline. */
  unitTimeoutMs?: number;
  /** Reconnect delays: doubled after each failed attempt from `initialMs` up to `maxMs`. */
  reconnect?: { initialMs: number; maxMs: number };
  /** How many correlation ids (and their replies) are remembered for repeats. */
  rememberReplies?: number;
  /** Where the log lines go (default console.log). */
  log?: (line: string) => void;
}

export interface BridgeEvents {
  /** Subscribed and the online status published. */
  online: [];
  /** The connection to the broker closed (a reconnect follows unless the bridge is stopping). */
  offline: [];
  /** A reply was published (`repeated`: the answer to a correlation id seen before). */
  reply: [reply: KdReplyMessage, repeated: boolean];
  /** A request was not carried to the unit: unreadable, not addressed to this unit's reply topic, or past its deadline. */
  dropped: [correlationId: string | undefined, reason: string];
}

const DEFAULTS = { unitTimeoutMs: 3000, reconnect: { initialMs: 500, maxMs: 30_000 }, rememberReplies: 1000 };
/** Connack codes for a protocol version the broker does not speak (3.1.1's 1, MQTT 5's 132). */
const UNSUPPORTED_VERSION = new Set([1, 132]);
/** How long the broker keeps the bridge's MQTT 5 session (its subscription and queued requests) while it is away. */
const SESSION_EXPIRY_SECONDS = 3600;

type Result = { outcome: KdOutcome; returnCode: number | null; controlCode: string | null; detail: string | null };

export class Bridge extends EventEmitter<BridgeEvents> {
  readonly serial: string;
  private readonly options: BridgeOptions;
  private readonly requestTopic: string;
  private readonly replyTopic: string;
  private readonly statusTopic: string;
  private readonly log: (line: string) => void;
  private client: MqttClient | undefined;
  private transport: KdTransport | undefined;
  private version: 4 | 5 = 5;
  private isOnline = false;
  private stopping = false;
  private failedAttempts = 0;
  private reconnectTimer: NodeJS.Timeout | undefined;
  /** The unit's turn: exchanges run one after another in arrival order. */
  private turn: Promise<unknown> = Promise.resolve();
  /** Replies (or a drop, undefined) by correlation id, oldest first; an entry exists from the moment a request is taken. */
  private readonly replies = new Map<string, Promise<KdReplyMessage | undefined>>();
  /** Exchanges and publishes in progress, awaited by stop(). */
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(options: BridgeOptions) {
    super();
    this.options = options;
    this.serial = options.serial;
    this.requestTopic = kdTopics.request(options.serial);
    this.replyTopic = kdTopics.reply(options.serial);
    this.statusTopic = kdTopics.status(options.serial);
    this.log = options.log ?? ((line) => console.log(line));
  }

  /** Connects (and keeps reconnecting) in the background; `online()` tells when it is serving. */
  start(): void {
    if (this.client) throw new Error(`the bridge of ${this.serial} is already started`);
    this.stopping = false;
    this.transport = transportFor(this.options.unit);
    this.connect();
  }

  /** Resolves once the bridge is subscribed and has published its online status (at once if it is). */
  online(): Promise<void> {
    return this.isOnline ? Promise.resolve() : new Promise((resolve) => this.once('online', resolve));
  }

  /** Finishes the exchanges in progress, publishes `online: false`, disconnects and closes the line to the unit. */
  async stop(): Promise<void> {
    const client = this.client;
    if (!client) return;
    this.stopping = true;
    clearTimeout(this.reconnectTimer);
    // Replies wait for the broker's acknowledgement, which a lost connection would never bring.
    const closed = new Promise<void>((resolve) => client.once('close', resolve));
    while (this.inFlight.size > 0 && client.connected) await Promise.race([Promise.allSettled([...this.inFlight]), closed]);
    if (client.connected) {
      await client.publishAsync(this.statusTopic, this.status(false), { qos: 1, retain: true }).catch(() => undefined);
    }
    await client.endAsync();
    await this.release();
  }

  /**
   * Drops the connection without a goodbye, as a crash or a cut cable would: the broker then publishes
   * the last will. Exchanges in progress are abandoned.
   */
  async kill(): Promise<void> {
    const client = this.client;
    if (!client) return;
    this.stopping = true;
    clearTimeout(this.reconnectTimer);
    await client.endAsync(true);
    await this.release();
  }

  private async release(): Promise<void> {
    this.client = undefined;
    this.isOnline = false;
    await this.transport?.close();
    this.transport = undefined;
  }

  private status(online: boolean): string {
    const status: BridgeStatusMessage = { serial: this.serial, online, bridgeVersion: BRIDGE_VERSION, at: Date.now() };
    return JSON.stringify(status);
  }

  private connect(): void {
    const { tls } = this.options;
    const options: IClientOptions = {
      clientId: thingName(this.serial),
      protocolVersion: this.version,
      clean: false,
      ...(this.version === 5 ? { properties: { sessionExpiryInterval: SESSION_EXPIRY_SECONDS } } : {}),
      // Reconnects are ours (backoff); mqtt.js would retry at a fixed period.
      reconnectPeriod: 0,
      connectTimeout: 10_000,
      keepalive: 30,
      will: { topic: this.statusTopic, payload: Buffer.from(this.status(false)), qos: 1, retain: true },
      ...(tls ? { cert: tls.cert, key: tls.key, ca: tls.ca, rejectUnauthorized: true } : {}),
    };
    const client = connect(this.options.broker, options);
    this.client = client;
    client.on('connect', () => void this.onConnect(client));
    client.on('message', (topic, payload, packet) => this.onMessage(topic, payload, packet));
    client.on('error', (error) => this.onError(error));
    client.on('close', () => this.onClose(client));
  }

  private async onConnect(client: MqttClient): Promise<void> {
    this.failedAttempts = 0;
    try {
      await client.subscribeAsync(this.requestTopic, { qos: 1 });
      await client.publishAsync(this.statusTopic, this.status(true), { qos: 1, retain: true });
    } catch {
      return; // the connection went while subscribing; its close schedules the next attempt
    }
    this.isOnline = true;
    this.log(`bridge ${this.serial} online (MQTT ${this.version === 5 ? '5' : '3.1.1'}, version ${BRIDGE_VERSION})`);
    this.emit('online');
  }

  private onError(error: Error & { code?: unknown }): void {
    if (this.version === 5 && !this.isOnline && typeof error.code === 'number' && UNSUPPORTED_VERSION.has(error.code)) {
      this.version = 4; // the close that follows reconnects at once with 3.1.1
      return;
    }
    this.log(`bridge ${this.serial} connection error: ${error.message}`);
  }

  private onClose(client: MqttClient): void {
    if (client !== this.client) return;
    const wasOnline = this.isOnline;
    this.isOnline = false;
    if (wasOnline) this.emit('offline');
    if (this.stopping) return;
    if (client.options.protocolVersion !== this.version) {
      // The broker refused MQTT 5 before any session existed: a new client with 3.1.1.
      client.removeAllListeners();
      client.end(true);
      this.connect();
      return;
    }
    const { initialMs, maxMs } = this.options.reconnect ?? DEFAULTS.reconnect;
    const delay = Math.min(maxMs, initialMs * 2 ** this.failedAttempts);
    this.failedAttempts++;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => {
      // The will is written at connect time: give it this attempt's time.
      if (client.options.will) client.options.will.payload = Buffer.from(this.status(false));
      // The stores keep the replies the broker has not acknowledged yet, to send them again.
      client.reconnect({ incomingStore: client.incomingStore, outgoingStore: client.outgoingStore });
    }, delay);
  }

  private onMessage(topic: string, payload: Buffer, packet: IPublishPacket): void {
    if (topic !== this.requestTopic || this.stopping) return;
    const request = parseRequest(payload);
    if (!request) return this.drop(undefined, 'not a kd request message');
    const { correlationId } = request;
    // IoT Core disconnects a thing that publishes outside its policy, which allows only its own reply topic.
    if (request.replyTopic !== this.replyTopic) return this.drop(correlationId, `reply topic is not ${this.replyTopic}`);
    const known = this.replies.get(correlationId);
    if (known) {
      this.track(known.then((reply) => reply && this.publish(reply, packet, true)));
      return;
    }
    if (Date.now() > request.deadline) return this.drop(correlationId, 'past its deadline');
    const reply = this.takeTurn(request);
    this.remember(correlationId, reply);
    this.track(reply.then((value) => value && this.publish(value, packet, false)));
  }

  private drop(correlationId: string | undefined, reason: string): void {
    this.log(`kd serial=${this.serial} correlationId=${correlationId ?? '-'} outcome=DROPPED reason="${reason}"`);
    this.emit('dropped', correlationId, reason);
  }

  private track(work: Promise<unknown>): void {
    const settled = work.catch((error: unknown) => this.log(`bridge ${this.serial}: ${String(error)}`));
    this.inFlight.add(settled);
    void settled.finally(() => this.inFlight.delete(settled));
  }

  private remember(correlationId: string, reply: Promise<KdReplyMessage | undefined>): void {
    this.replies.set(correlationId, reply);
    const limit = this.options.rememberReplies ?? DEFAULTS.rememberReplies;
    for (const oldest of this.replies.keys()) {
      if (this.replies.size <= limit) break;
      this.replies.delete(oldest);
    }
  }

  private takeTurn(request: KdRequestMessage): Promise<KdReplyMessage | undefined> {
    const result = this.turn.then(() => this.exchange(request));
    this.turn = result.catch(() => undefined);
    return result;
  }

  private async exchange(request: KdRequestMessage): Promise<KdReplyMessage | undefined> {
    const started = Date.now();
    if (started > request.deadline) {
      this.drop(request.correlationId, 'past its deadline when its turn came');
      return undefined;
    }
    let attempts = 0;
    const finish = (result: Result): KdReplyMessage => {
      const reply: KdReplyMessage = {
        correlationId: request.correlationId,
        serial: this.serial,
        ...result,
        bridgeVersion: BRIDGE_VERSION,
        at: Date.now(),
      };
      this.log(
        `kd serial=${this.serial} correlationId=${request.correlationId} outcome=${reply.outcome} ` +
          `returnCode=${reply.returnCode ?? '-'} attempts=${attempts} durationMs=${reply.at - started}`,
      );
      return reply;
    };
    let frame: string;
    try {
      frame = encodeKd(request.command);
    } catch (error) {
      if (error instanceof KdFieldError) {
        return finish({
          outcome: 'REPLY',
          returnCode: error.returnCode,
          controlCode: null,
          detail: `bridge refused ${error.field}`,
        });
      }
      return finish({ outcome: 'COMMUNICATION', returnCode: null, controlCode: null, detail: 'malformed kd command' });
    }
    const transport = this.transport;
    if (!transport) throw new Error('the bridge is stopped');
    for (;;) {
      attempts++;
      const left = request.deadline - Date.now();
      const timeoutMs = Math.max(1, Math.min(this.options.unitTimeoutMs ?? DEFAULTS.unitTimeoutMs, left));
      let line: string;
      try {
        line = await transport.send(frame, timeoutMs);
      } catch (error) {
        const detail = error instanceof TransportTimeoutError ? `no reply within ${timeoutMs} ms` : 'control unit unreachable';
        return finish({ outcome: 'UNAVAILABLE', returnCode: null, controlCode: null, detail });
      }
      const decoded = decodeKdReply(line);
      const fault = !decoded.ok ? `${decoded.error} error` : decoded.code === KD_BAD_CRC_CODE ? 'unit saw a bad CRC' : undefined;
      if (decoded.ok && fault === undefined) {
        return finish({ outcome: 'REPLY', returnCode: decoded.code, controlCode: decoded.controlCode ?? null, detail: null });
      }
      // One retry, and only while the service still waits for the answer.
      if (attempts >= 2 || Date.now() >= request.deadline) {
        return finish({
          outcome: 'COMMUNICATION',
          returnCode: null,
          controlCode: null,
          detail: `${fault} (${attempts} attempts)`,
        });
      }
    }
  }

  private async publish(reply: KdReplyMessage, request: IPublishPacket, repeated: boolean): Promise<void> {
    const client = this.client;
    if (!client) return;
    if (repeated) {
      this.log(
        `kd serial=${this.serial} correlationId=${reply.correlationId} outcome=${reply.outcome} ` +
          `returnCode=${reply.returnCode ?? '-'} repeated=true durationMs=0`,
      );
    }
    const correlationData = request.properties?.correlationData ?? Buffer.from(reply.correlationId);
    await client.publishAsync(this.replyTopic, JSON.stringify(reply), {
      qos: 1,
      ...(this.version === 5 ? { properties: { correlationData } } : {}),
    });
    this.emit('reply', reply, repeated);
  }
}

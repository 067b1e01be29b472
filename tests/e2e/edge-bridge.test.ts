/**
 * The edge bridge against the stack's aedes broker, the control-unit simulator over TCP and DynamoDB Local,
 * where the local kd rules write what the bridge publishes. A requester publishes kd requests the way the
 * service does and observes replies on the unit's reply topic and in the table; nothing waits for time to
 * pass, only for messages, events and items (short deadlines only where the unit never answers).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { connect, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { Bridge } from '../../edge/bridge.ts';
import { CuSimulator } from '../../edge/simulator.ts';
import { startBroker } from '../../infra/local/broker.ts';
import type { LocalUnit } from '../../infra/local/stack.ts';
import { table } from '../../shared/db/client.ts';
import { getItem } from '../../shared/db/documents.ts';
import { encodeKd, type KdRequest } from '../../shared/kd/codec.ts';
import {
  type KdReplyMessage,
  type KdRequestMessage,
  kdTopics,
  parseReply,
  parseStatus,
  bridgeKeys,
} from '../../shared/kd/protocol.ts';
import { killBridge, startBridge, startUnit, stopBridge } from '../support/edge.ts';

const LONG_MS = 60_000;
let receiptNo = 1;

function command(change: Partial<KdRequest> = {}): KdRequest {
  return {
    date: '202601151432',
    org: '5560360793',
    registerId: 'KASSA1',
    receiptNo: receiptNo++,
    type: 'normal',
    returnAmount: 0,
    salesAmount: 12_550,
    vat: [{ rate: 2500, amount: 2510 }],
    ...change,
  };
}

/** Publishes requests as the service does and collects the replies on the units' reply topics. */
class Requester {
  private readonly replies: KdReplyMessage[] = [];
  private readonly waiting = new Set<() => void>();
  readonly client: MqttClient;

  constructor(url: string) {
    this.client = connect(url, { protocolVersion: 4, clientId: `test-requester-${randomUUID()}` });
    this.client.on('message', (_topic, payload) => {
      const reply = parseReply(payload);
      if (!reply) return;
      this.replies.push(reply);
      for (const wake of this.waiting) wake();
    });
  }

  async listen(serial: string): Promise<void> {
    await this.client.subscribeAsync(kdTopics.reply(serial), { qos: 1 });
  }

  async send(serial: string, request: Partial<KdRequestMessage> = {}): Promise<KdRequestMessage> {
    const message: KdRequestMessage = {
      correlationId: randomUUID(),
      replyTopic: kdTopics.reply(serial),
      deadline: Date.now() + LONG_MS,
      command: command(),
      ...request,
    };
    await this.client.publishAsync(kdTopics.request(serial), JSON.stringify(message), { qos: 1 });
    return message;
  }

  /** Resolves with the first `count` replies for the correlation id, as they arrive. */
  repliesTo(correlationId: string, count = 1): Promise<KdReplyMessage[]> {
    return new Promise((resolve) => {
      const check = () => {
        const found = this.replies.filter((reply) => reply.correlationId === correlationId);
        if (found.length < count) return;
        this.waiting.delete(check);
        resolve(found);
      };
      this.waiting.add(check);
      check();
    });
  }

  async replyTo(correlationId: string): Promise<KdReplyMessage> {
    const [reply] = await this.repliesTo(correlationId);
    if (!reply) throw new Error('no reply');
    return reply;
  }
}

const lineOf = (request: KdRequestMessage) => encodeKd(request.command).slice(0, -2);

/** The reply item the rule wrote, once it is there. */
async function storedReply(correlationId: string) {
  return vi.waitFor(
    async () => {
      const { Item } = await getItem({ TableName: table(), Key: bridgeKeys.reply(correlationId), ConsistentRead: true });
      if (!Item) throw new Error(`no reply item for ${correlationId} yet`);
      return Item;
    },
    { timeout: 30_000, interval: 20 },
  );
}

let requester: Requester;
let unit: LocalUnit;

beforeAll(async () => {
  requester = new Requester(inject('mqttUrl'));
  unit = await startUnit();
  await requester.listen(unit.serial);
});

afterAll(async () => {
  await requester.client.endAsync();
});

describe('edge bridge: outcomes', () => {
  it('a unit answering 0 gives REPLY with its control code, and the rule writes the reply with an expiry', async () => {
    const request = await requester.send(unit.serial);
    const reply = await requester.replyTo(request.correlationId);
    expect(reply).toMatchObject({
      correlationId: request.correlationId,
      serial: unit.serial,
      outcome: 'REPLY',
      returnCode: 0,
      controlCode: unit.simulator.controlCodeOf(lineOf(request)),
      detail: null,
    });
    expect(reply.bridgeVersion).toBe((JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version);
    const item = await storedReply(request.correlationId);
    expect(item).toMatchObject({ ...bridgeKeys.reply(request.correlationId), ...reply });
    expect(item.expiresAt).toBeGreaterThan(Math.floor(reply.at / 1000));
  });

  it("a unit's refusal code is the REPLY's return code", async () => {
    unit.simulator.failNext({ kind: 'code', code: 7 });
    const request = await requester.send(unit.serial);
    expect(await requester.replyTo(request.correlationId)).toMatchObject({ outcome: 'REPLY', returnCode: 7, controlCode: null });
  });

  it('a command the codec refuses never reaches the unit: REPLY with the return code the unit gives that field', async () => {
    const before = unit.simulator.counters().requests;
    const request = await requester.send(unit.serial, { command: command({ org: '55603607' }) });
    expect(await requester.replyTo(request.correlationId)).toMatchObject({ outcome: 'REPLY', returnCode: 3, controlCode: null });
    expect(unit.simulator.counters().requests).toBe(before);
  });

  it('garbage twice is COMMUNICATION after one retry', async () => {
    const before = unit.simulator.counters();
    unit.simulator.failNext({ kind: 'garbage' }, 2);
    const request = await requester.send(unit.serial);
    expect(await requester.replyTo(request.correlationId)).toMatchObject({ outcome: 'COMMUNICATION', returnCode: null });
    expect(unit.simulator.counters()).toMatchObject({ requests: before.requests + 2, registered: before.registered });
  });

  it("the unit's own bad-CRC answer (-2) twice is COMMUNICATION too", async () => {
    unit.simulator.failNext({ kind: 'code', code: -2 }, 2);
    const request = await requester.send(unit.serial);
    expect(await requester.replyTo(request.correlationId)).toMatchObject({ outcome: 'COMMUNICATION' });
  });

  it('garbage once, then a good answer, is REPLY after the retry', async () => {
    const before = unit.simulator.counters();
    unit.simulator.failNext({ kind: 'bad-crc' });
    const request = await requester.send(unit.serial);
    expect(await requester.replyTo(request.correlationId)).toMatchObject({
      outcome: 'REPLY',
      returnCode: 0,
      controlCode: unit.simulator.controlCodeOf(lineOf(request)),
    });
    expect(unit.simulator.counters()).toMatchObject({ requests: before.requests + 2, registered: before.registered + 1 });
  });

  it('a silent unit is UNAVAILABLE by the deadline', async () => {
    unit.simulator.failNext({ kind: 'silence' });
    const request = await requester.send(unit.serial, { deadline: Date.now() + 300 });
    expect(await requester.replyTo(request.correlationId)).toMatchObject({ outcome: 'UNAVAILABLE', returnCode: null });
  });

  it('a request received past its deadline never reaches the unit', async () => {
    const before = unit.simulator.counters().requests;
    const dropped = new Promise((resolve) => unit.bridge.once('dropped', (id, reason) => resolve({ id, reason })));
    const request = await requester.send(unit.serial, { deadline: Date.now() - 1 });
    expect(await dropped).toEqual({ id: request.correlationId, reason: 'past its deadline' });
    // A request after it is answered, so the bridge has handled the late one before; the unit never saw it.
    const next = await requester.send(unit.serial);
    await requester.replyTo(next.correlationId);
    expect(unit.simulator.counters().requests).toBe(before + 1);
  });

  it('the same correlation id, also sent concurrently, reaches the unit once and gets the same reply', async () => {
    const before = unit.simulator.counters();
    const request = await requester.send(unit.serial);
    await Promise.all([requester.send(unit.serial, request), requester.send(unit.serial, request)]);
    const [first, ...repeats] = await requester.repliesTo(request.correlationId, 3);
    expect(first).toMatchObject({ outcome: 'REPLY', returnCode: 0 });
    expect(repeats).toEqual([first, first]);
    expect(unit.simulator.counters()).toMatchObject({ requests: before.requests + 1, registered: before.registered + 1 });
  });
});

describe('edge bridge: status and restarts', () => {
  it('publishes online (retained) when it connects, and the broker publishes its last will when its connection dies', async () => {
    const own = await startUnit();
    const statusOf = async () => {
      const { Item } = await getItem({ TableName: table(), Key: bridgeKeys.status(own.serial), ConsistentRead: true });
      return Item;
    };
    expect(await statusOf()).toMatchObject({ serial: own.serial, online: true });
    await killBridge(own.serial);
    expect(await statusOf()).toMatchObject({ serial: own.serial, online: false });
    // Retained: a subscriber that comes later is told at once.
    const late = connect(inject('mqttUrl'), { protocolVersion: 4 });
    const retained = new Promise<unknown>((resolve) => late.on('message', (_topic, payload) => resolve(parseStatus(payload))));
    await late.subscribeAsync(kdTopics.status(own.serial), { qos: 1 });
    expect(await retained).toMatchObject({ serial: own.serial, online: false });
    await late.endAsync();
    await startBridge(own.serial);
    expect(await statusOf()).toMatchObject({ online: true });
    await stopBridge(own.serial);
    expect(await statusOf()).toMatchObject({ online: false });
  });

  it('a bridge restart loses no reply it published, and a request sent while it was stopped is served after', async () => {
    const own = await startUnit();
    await requester.listen(own.serial);
    const request = await requester.send(own.serial);
    const published = new Promise<KdReplyMessage>((resolve) => own.bridge.once('reply', resolve));
    const reply = await published;
    await killBridge(own.serial);
    expect(await storedReply(request.correlationId)).toMatchObject(reply);

    const waiting = await requester.send(own.serial);
    await startBridge(own.serial);
    expect(await requester.replyTo(waiting.correlationId)).toMatchObject({ outcome: 'REPLY', returnCode: 0 });

    // The restarted bridge does not remember the first id: the unit sees it again and answers with the code it stored.
    const repeated = own.simulator.counters().repeats;
    await requester.send(own.serial, request);
    const [, again] = await requester.repliesTo(request.correlationId, 2);
    expect(again).toMatchObject({ outcome: 'REPLY', controlCode: reply.controlCode });
    expect(own.simulator.counters().repeats).toBe(repeated + 1);
  });

  it('reconnects after the broker restarts, and serves requests again', async () => {
    const broker = await startBroker();
    const simulator = new CuSimulator({ serial: 'RESTART1' });
    const bridge = new Bridge({
      serial: 'RESTART1',
      broker: broker.url,
      unit: `tcp://127.0.0.1:${await simulator.listen(0)}`,
      reconnect: { initialMs: 20, maxMs: 200 },
      log: () => undefined,
    });
    bridge.start();
    await bridge.online();
    const offline = new Promise<void>((resolve) => bridge.once('offline', () => resolve()));
    await broker.stop();
    await offline;
    const again = await startBroker(broker.port);
    try {
      await bridge.online();
      const local = new Requester(again.url);
      await local.listen('RESTART1');
      const request = await local.send('RESTART1');
      expect(await local.replyTo(request.correlationId)).toMatchObject({ outcome: 'REPLY', returnCode: 0 });
      await local.client.endAsync();
    } finally {
      await bridge.stop();
      await simulator.close();
      await again.stop();
    }
  });
});

describe('local kd rules', () => {
  it('write replies and drop what is not one, in arrival order', async () => {
    const [bad, good] = [randomUUID(), randomUUID()];
    const reply: KdReplyMessage = {
      correlationId: good,
      serial: 'RULES1',
      outcome: 'UNAVAILABLE',
      returnCode: null,
      controlCode: null,
      detail: null,
      bridgeVersion: '0.1.0',
      at: Date.now(),
    };
    // eslint's ignoreRestSiblings: dropping a field is what the rest is for.
    const { bridgeVersion, ...unversioned } = { ...reply, correlationId: bad };
    await requester.client.publishAsync(kdTopics.reply('RULES1'), JSON.stringify(unversioned), { qos: 1 });
    await requester.client.publishAsync(kdTopics.reply('RULES1'), 'not json', { qos: 1 });
    await requester.client.publishAsync(kdTopics.reply('RULES1'), JSON.stringify(reply), { qos: 1 });
    expect(await storedReply(good)).toMatchObject(reply);
    const { Item } = await getItem({ TableName: table(), Key: bridgeKeys.reply(bad), ConsistentRead: true });
    expect(Item).toBeUndefined();
  });

  it("drop a reply that speaks for another unit than its topic's, and keep a payload's extra fields out of the item", async () => {
    const [foreign, keyed] = [randomUUID(), randomUUID()];
    const reply = (correlationId: string, serial: string): KdReplyMessage => ({
      correlationId,
      serial,
      outcome: 'REPLY',
      returnCode: 0,
      controlCode: 'FORGED',
      detail: null,
      bridgeVersion: '0.1.0',
      at: Date.now(),
    });
    // A bridge may only publish on its own unit's topic: RULES2's topic carrying RULES3's reply is not RULES3's.
    await requester.client.publishAsync(kdTopics.reply('RULES2'), JSON.stringify(reply(foreign, 'RULES3')), { qos: 1 });
    // A payload naming its own key would otherwise overwrite another item.
    const target = bridgeKeys.reply(foreign);
    await requester.client.publishAsync(
      kdTopics.reply('RULES2'),
      JSON.stringify({ ...reply(keyed, 'RULES2'), pk: target.pk, sk: target.sk, expiresAt: 1 }),
      { qos: 1 },
    );
    const stored = await storedReply(keyed);
    expect(stored).toMatchObject({ ...bridgeKeys.reply(keyed), serial: 'RULES2' });
    expect(stored.expiresAt).toBeGreaterThan(Date.now() / 1000);
    const { Item } = await getItem({ TableName: table(), Key: bridgeKeys.reply(foreign), ConsistentRead: true });
    expect(Item).toBeUndefined();
  });
});

/** The kd path's pure parts (docs/conventions.md §25): body -> command, claim decisions, outcomes, the IoT adapter. */
import { IoTDataPlaneClient, PublishCommand } from '@aws-sdk/client-iot-data-plane';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { KdBody } from '#schemas/types.ts';
import { counted, decideKd, type KdAsk } from '#functions/kd/flow.ts';
import {
  kdCommand,
  kdDate,
  kdOrderOf,
  leastGrossFor,
  orgOf,
  rateOf,
  receiptNumberOf,
  registerIdFor,
  vatIn,
} from '#functions/kd/mapping.ts';
import { answer, bridgeRefusal, replyResult, signed, unpublished } from '#functions/kd/outcome.ts';
import { kdPublishing } from '#shared/config.ts';
import { type Key } from '#shared/db/keys.ts';
import type { Item } from '#shared/db/reads.ts';
import { EMPTY_LEDGER, type LedgerState, type Reader } from '#shared/fiscal/ledger.ts';
import { iotPublisher } from '#shared/iot/iot-publisher.ts';
import { controlCodeProblem, decideClaim } from '#shared/kd/claims.ts';
import { decodeKd, encodeKd, type KdRequest } from '#shared/kd/codec.ts';
import { type KdReplyMessage, bridgeKeys } from '#shared/kd/protocol.ts';
import { type KdClaim, kdKeys } from '#shared/kd/records.ts';
import { refusal, stepOf } from '../support/decisions.ts';
import { controlUnitKeys } from '#shared/domain/records.ts';

const STOCKHOLM = 'Europe/Stockholm';
const context = { org: '5560360793', registerId: 'KASSA1', timeZone: STOCKHOLM };
/** 2026-07-01 12:05 in Stockholm (summer time, UTC+2). */
const SUMMER = Date.UTC(2026, 6, 1, 10, 5, 30);

const body = (fields: Partial<KdBody> = {}): KdBody =>
  ({ vatRateToSum: { '25': 12500 }, refund: false, printType: 'Normal', receiptNumber: 7, date: SUMMER, ...fields }) as KdBody;
/** The body in the service's one form. */
const order = (fields: Partial<KdBody> = {}) => kdOrderOf(body(fields));

const command = (fields: Partial<KdRequest> = {}): KdRequest => ({
  date: '202607011205',
  org: '5560360793',
  registerId: 'KASSA1',
  receiptNo: 7,
  type: 'normal',
  returnAmount: 0,
  salesAmount: 12500,
  vat: [{ rate: 2500, amount: 2500 }],
  ...fields,
});

describe('a kd body as the command its unit registers', () => {
  it('maps a Normal sale: the date in the seller zone, the amount as sales, the VAT of the brutto at its rate', () => {
    // Act
    const mapped = kdCommand(order(), 7, context);

    // Assess
    expect(mapped).toEqual(command());
    expect(decodeKd(encodeKd(mapped))).toEqual({ ok: true, request: mapped });
  });

  it('maps the print types to normal, kopia and profo, and a refund to the return amount', () => {
    // Assess
    expect(kdCommand(order({ printType: 'Copy' }), 7, context).type).toBe('kopia');
    expect(kdCommand(order({ printType: 'Proforma' }), 7, context).type).toBe('profo');
    expect(kdCommand(order({ refund: true }), 7, context)).toMatchObject({ returnAmount: 12500, salesAmount: 0 });
  });

  it('reads a print type written as its position (0 Normal, 1 Copy, 2 Proforma), as .NET clients write enums', () => {
    // Assess
    expect([0, 1, 2].map((printType) => order({ printType } as Partial<KdBody>).printType)).toEqual([
      'Normal',
      'Copy',
      'Proforma',
    ]);
  });

  it('takes up to four rates, highest first, each with the VAT its brutto holds (half up)', () => {
    // Act
    const rates = kdCommand(order({ vatRateToSum: { '0': 500, '6': 10600, '12.5': 11250, '25': 12500 } }), 7, context).vat;

    // Assess
    expect(rates).toEqual([
      { rate: 2500, amount: 2500 },
      { rate: 1250, amount: 1250 },
      { rate: 600, amount: 600 },
      { rate: 0, amount: 0 },
    ]);
    expect([rateOf('25'), rateOf('12.5'), rateOf('6.00'), rateOf('100')]).toEqual([2500, 1250, 600, 10000]);
    // 25 % of 1.01 is 0.202 -> 0.20; 25 % of 1.03 is 0.206 -> 0.21; exactly half rounds up.
    expect([vatIn(101, 2500), vatIn(103, 2500), vatIn(1, 10000)]).toEqual([20, 21, 1]);
  });

  it('refuses one rate written twice (400 NonUnique)', () => {
    // Assess
    expect(refusal(() => order({ vatRateToSum: { '25': 100, '25.00': 200 } }))).toEqual({
      status: 400,
      exception: 'NonUnique',
      code: null,
    });
  });

  it("with brutto reads vatRateToSum as the VAT per rate: the example of srv4pos's documentation", () => {
    // Arrange: netto 50.00 at 6 % and 70.00 at 12 %: VAT 3.00 and 8.40, gross 53.00 + 78.40 = 131.40.
    const documented = order({ brutto: 13140, vatRateToSum: { '0': 0, '6': 300, '12': 840, '25': 0 } });

    // Act
    const mapped = kdCommand(documented, 7, context);

    // Assess
    expect(mapped.salesAmount).toBe(13140);
    expect(mapped.vat).toEqual([
      { rate: 2500, amount: 0 },
      { rate: 1200, amount: 840 },
      { rate: 600, amount: 300 },
      { rate: 0, amount: 0 },
    ]);
  });

  it('refuses VAT amounts no receipt of that brutto can carry (409 SALE_TOTALS_INCONSISTENT)', () => {
    // Assess: the documented VAT on a brutto of 11.40; VAT at 0 %; and 1.67 kr of VAT at 25 % on 5.00.
    const inconsistent = { status: 409, exception: 'InconsistentData', code: 'SALE_TOTALS_INCONSISTENT' };
    expect(refusal(() => order({ brutto: 1140, vatRateToSum: { '0': 0, '6': 300, '12': 840, '25': 0 } }))).toEqual(inconsistent);
    expect(refusal(() => order({ brutto: 1000, vatRateToSum: { '0': 1 } }))).toEqual(inconsistent);
    expect(refusal(() => order({ brutto: 500, vatRateToSum: { '25': 167 } }))).toEqual(inconsistent);
    // 1.66 kr at 25 % fits 5.00 kr only as 166 lines of 0.03 kr, each 0.006 kr of VAT rounded up to 0.01.
    expect(order({ brutto: 498, vatRateToSum: { '25': 166 } }).vat).toEqual([
      { key: '25', rate: 2500, amount: 166, gross: null },
    ]);
  });

  it('bounds the gross VAT needs: its least line per hundredth, and at most half a hundredth of rounding a line', () => {
    // Assess, by hand: 0.03 kr is the least gross whose 25 % VAT (0.006) rounds to 0.01; at 6 % it is 0.09 (0.0051).
    expect([leastGrossFor(1, 2500), leastGrossFor(1, 600), leastGrossFor(0, 2500)]).toEqual([3, 9, 0]);
    // 10.00 kr of VAT at 25 %: the exact VAT of 37.50 kr is 7.50, and 500 lines round up by at most 2.50.
    expect(leastGrossFor(1000, 2500)).toBe(3750);
    expect(leastGrossFor(1, 0)).toBe(Infinity);
  });

  it('writes the date as YYYYMMDDhhmm in the seller zone, across midnight and in winter', () => {
    // Assess
    expect(kdDate(Date.UTC(2026, 0, 15, 23, 30), STOCKHOLM)).toBe('202601160030');
    expect(kdDate(Date.UTC(2026, 0, 15, 23, 30), 'UTC')).toBe('202601152330');
  });

  it('finds the receipt number: named in v26/v33; v15 null is the next one, or the last for a Copy', () => {
    // Assess
    expect(receiptNumberOf(order({ receiptNumber: 4 }), 26, 9)).toBe(4);
    expect(receiptNumberOf(order({ receiptNumber: null }), 15, 9)).toBe(10);
    expect(receiptNumberOf(order({ receiptNumber: null, printType: 'Proforma' }), 15, 9)).toBe(10);
    expect(receiptNumberOf(order({ receiptNumber: null, printType: 'Copy' }), 15, 9)).toBe(9);
    const missing = { status: 400, exception: 'ValueNotValid', code: 'SHOULD_NOT_BE_NULL' };
    expect(refusal(() => receiptNumberOf(order({ receiptNumber: null, printType: 'Copy' }), 15, 0))).toEqual(missing);
    expect(refusal(() => receiptNumberOf(order({ receiptNumber: null }), 33, 9))).toEqual(missing);
  });

  it("names the seller by its 10-digit corporate id and the register by registerIdOf; else the unit's refusal", () => {
    // Assess
    expect(orgOf('SE5560360793')).toBe('5560360793');
    expect(orgOf('SE556036-0793')).toBe('5560360793');
    expect(registerIdFor('Kassa Östra 1')).toBe('KASSAOSTRA1');
    const receipt = { status: 500, exception: 'ControlUnitReceipt', code: null };
    expect(refusal(() => orgOf('SE55603607'))).toEqual(receipt);
    expect(refusal(() => registerIdFor('--'))).toEqual(receipt);
  });
});

const claim = (fields: Partial<KdClaim> = {}): KdClaim => ({
  receiptNumber: 7,
  printType: 'Normal',
  serial: 'CU1',
  command: command(),
  state: 'PENDING',
  correlationId: 'c1',
  deadline: 1000,
  controlCode: null,
  request: { activation: 1, brutto: 12500, kdDate: SUMMER, vatRateToSum: { '25': 12500 }, refund: false, softwareVendor: 3 },
  timedOut: false,
  created: 0,
  updated: 0,
  ...fields,
});

describe('the claim on a receipt number and print type', () => {
  it('sends when there is none, or the last request failed', () => {
    // Assess
    expect(decideClaim(undefined, command(), 0, undefined)).toEqual({ kind: 'send' });
    expect(decideClaim(claim({ state: 'FAILED' }), command({ salesAmount: 1 }), 0, undefined)).toEqual({ kind: 'send' });
  });

  it('replays a signed claim of the same content and refuses other content', () => {
    // Prepare
    const held = claim({ state: 'SIGNED', controlCode: 'CODE' });

    // Assess
    expect(decideClaim(held, command(), 5000, undefined).kind).toBe('replay');
    expect(decideClaim(held, command({ salesAmount: 100 }), 5000, undefined).kind).toBe('conflict');
  });

  it('waits for a request in flight of the same content, and refuses other content', () => {
    // Assess
    expect(decideClaim(claim(), command(), 1000, undefined).kind).toBe('wait');
    expect(decideClaim(claim(), command({ date: '202607011206' }), 999, undefined).kind).toBe('conflict');
  });

  it('looks for the late reply of a request past its deadline before it sends anew', () => {
    // Assess
    expect(decideClaim(claim(), command(), 1001, undefined).kind).toBe('late');
    expect(decideClaim(claim(), command(), 1001, 'c0').kind).toBe('late');
    expect(decideClaim(claim(), command(), 1001, 'c1')).toEqual({ kind: 'send' });
  });

  it('stores a print only with the code the signed claim holds, for its amount and direction', () => {
    // Prepare
    const held = claim({ state: 'SIGNED', controlCode: 'CODE' });
    const sale = { brutto: 12500, refund: false };
    const normal = { printType: 'Normal' as const, controlNumber: 'CODE' };

    // Assess
    expect(controlCodeProblem(held, normal, sale)).toBeUndefined();
    expect(controlCodeProblem(held, { printType: 'Normal' }, sale)).toMatch(/no control code/);
    expect(controlCodeProblem(undefined, normal, sale)).toMatch(/signed/);
    expect(controlCodeProblem(claim(), normal, sale)).toMatch(/signed/);
    expect(controlCodeProblem(held, { ...normal, controlNumber: 'FORGED' }, sale)).toMatch(/not the one/);
    expect(controlCodeProblem(held, normal, { brutto: 12000, refund: false })).toMatch(/another amount/);
    expect(controlCodeProblem(held, normal, { brutto: 12500, refund: true })).toMatch(/another amount/);
  });
});

const reply = (fields: Partial<KdReplyMessage>): KdReplyMessage => ({
  correlationId: 'c1',
  serial: 'CU1',
  outcome: 'REPLY',
  returnCode: 0,
  controlCode: 'CODE',
  detail: null,
  bridgeVersion: '1',
  at: 0,
  ...fields,
});

describe('the outcomes and their answers', () => {
  it('needs a provisioned bridge that has connected and is online before anything is sent', () => {
    // Prepare
    const bridge = { serial: 'CU1', thingName: 'cu-CU1', provisioned: 0 };
    const seen = { serial: 'CU1', online: true, bridgeVersion: '1', at: 0 };

    // Assess
    expect(bridgeRefusal(undefined, seen)?.outcome).toBe('REQUIRES_SETUP');
    expect(bridgeRefusal(bridge, undefined)?.outcome).toBe('REQUIRES_SETUP');
    expect(bridgeRefusal(bridge, { ...seen, online: false })?.outcome).toBe('OFFLINE');
    expect(bridgeRefusal(bridge, seen)).toBeUndefined();
  });

  it.each([
    ['code 0', reply({}), 'SIGNED'],
    ['a refusal', reply({ returnCode: 5, controlCode: null }), 'REFUSED'],
    ['framing errors', reply({ outcome: 'COMMUNICATION', returnCode: null, controlCode: null }), 'COMMUNICATION'],
    ['a unit that did not answer', reply({ outcome: 'UNAVAILABLE', returnCode: null, controlCode: null }), 'UNAVAILABLE'],
    ['no reply', undefined, 'TIMEOUT'],
  ])('makes %s the outcome %s', (_, given, outcome) => {
    // Assess
    expect(replyResult(given).outcome).toBe(outcome);
  });

  it('answers 201 with the control code and serial when signed', () => {
    // Assess
    expect(answer(signed('CODE'), 'CU1')).toEqual({ status: 201, body: { response: 'CODE', controlUnitSerial: 'CU1' } });
  });

  it.each([
    ['REFUSED', replyResult(reply({ returnCode: 5, controlCode: null })), 500, 'ControlUnitReceipt', null],
    ['COMMUNICATION', replyResult(reply({ outcome: 'COMMUNICATION', returnCode: null })), 500, 'ControlUnitCommunication', null],
    ['UNAVAILABLE', replyResult(reply({ outcome: 'UNAVAILABLE', returnCode: null })), 500, 'ControlUnitUnavailable', null],
    ['TIMEOUT', replyResult(undefined), 500, 'ControlUnitUnavailable', null],
    ['unpublished', unpublished, 500, 'ControlUnitUnavailable', null],
    [
      'OFFLINE',
      { outcome: 'OFFLINE', returnCode: null, controlCode: null, message: 'off' } as const,
      500,
      'ControlUnitUnavailable',
      null,
    ],
    [
      'REQUIRES_SETUP',
      { outcome: 'REQUIRES_SETUP', returnCode: null, controlCode: null, message: 'x' } as const,
      503,
      'ServiceUnavailable',
      'REQUIRES_SETUP',
    ],
  ])('answers %s with %i %s', (_, result, status, exception, code) => {
    // Assess
    expect(refusal(() => answer(result, 'CU1'))).toEqual({ status, exception, code });
  });

  it("gives the unit's return code of a refusal in details.returnCode", () => {
    // Act
    let details: Record<string, unknown> = {};
    try {
      answer(replyResult(reply({ returnCode: 5, controlCode: null })), 'CU1');
    } catch (error) {
      details = (error as { details: Record<string, unknown> }).details;
    }

    // Assess
    expect(details).toEqual({ returnCode: 5, controlUnitSerial: 'CU1' });
  });
});

describe("the claim's write (decideKd)", () => {
  const register = { sellerId: 'SE5560360793', cash: 'Kassa 1', activationId: 11 };
  const ask = (fields: Partial<KdBody> = {}): KdAsk => ({ register, serial: 'CU1', version: 26, order: order(fields), context });
  const state: LedgerState = { version: 4, ledger: { ...EMPTY_LEDGER, receipt: 6 }, day: undefined };
  const provisioned = [
    { ...bridgeKeys.bridge('CU1'), serial: 'CU1', thingName: 'cu-CU1', provisioned: 0 },
    { ...bridgeKeys.status('CU1'), serial: 'CU1', online: true, bridgeVersion: '1', at: 0 },
    { ...controlUnitKeys.unit('CU1'), softwareVendor: 3 },
  ];
  const reader =
    (items: readonly (Key & Record<string, unknown>)[]): Reader =>
    <T>(key: Key<T>) =>
      items.find((item) => item.pk === key.pk && item.sk === key.sk) as Item<T> | undefined;
  const claimKey = kdKeys.claim(register.sellerId, register.cash, 7, 'Normal');

  it('sends: the claim PENDING until the deadline, the register id taken, the request journaled', () => {
    // Act
    const decision = decideKd(ask(), undefined, state, reader(provisioned), 1000);

    // Assess
    expect(decision.result).toMatchObject({ kind: 'sent', flight: { receiptNumber: 7, deadline: 6000 } });
    expect(decision.events.map((event) => event.type)).toEqual(['KD_REQUEST']);
    const [claimPut, holderPut] = (decision.alongside ?? []).map(stepOf);
    expect(claimPut).toMatchObject({ op: 'Put', key: claimKey, item: { state: 'PENDING', deadline: 6000, command: command() } });
    expect(holderPut).toMatchObject({ op: 'Put', condition: 'attribute_not_exists(pk)', item: { holder: 'Kassa 1' } });
  });

  it('refuses a register whose id at the unit another register of the seller holds', () => {
    // Prepare
    const taken = [...provisioned, { ...kdKeys.registerId(register.sellerId, 'KASSA1'), holder: 'kassa-1' }];

    // Assess
    expect(refusal(() => decideKd(ask(), undefined, state, reader(taken), 1000))).toEqual({
      status: 409,
      exception: 'CashRegisterNameIsNotUnique',
      code: null,
    });
  });

  it('sends nothing to a bridge never seen, but journals and logs the request and its outcome', () => {
    // Act
    const decision = decideKd(ask(), undefined, state, reader(provisioned.slice(0, 1)), 1000);

    // Assess
    expect(decision.result).toMatchObject({ kind: 'refused', result: { outcome: 'REQUIRES_SETUP' } });
    expect(decision.events.map((event) => event.type)).toEqual(['KD_REQUEST', 'KD_OUTCOME']);
    // The log's directories: all (in the record id's shard), the seller's and the unit's (no vendor known without the
    // unit's record).
    const logPuts = (decision.alongside ?? []).map(stepOf);
    const id = String(logPuts[0]?.item?.id);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
    expect(logPuts.map((step) => String(step.key.pk))).toEqual([`KDLOG#A${id.charAt(0)}`, 'KDLOG#SSE5560360793', 'KDLOG#UCU1']);
  });

  it('answers a signed claim of the same content without writing, and takes v15 null as the next number', () => {
    // Prepare
    const held = { ...claimKey, ...claim({ state: 'SIGNED', controlCode: 'CODE' }) };

    // Act
    const decision = decideKd(
      { ...ask({ receiptNumber: null }), version: 15 },
      undefined,
      state,
      reader([...provisioned, held]),
      9000,
    );

    // Assess
    expect(decision.result).toEqual({ kind: 'answered', result: signed('CODE'), serial: 'CU1' });
    expect(decision.events).toEqual([]);
    expect(decision.alongside).toBeUndefined();
  });
});

describe('the IoT data-plane adapter', () => {
  let mock: ReturnType<typeof mockClient> | undefined;
  afterEach(() => mock?.restore());

  it('publishes the request at QoS 1 on the unit request topic, with the MQTT 5 reply topic and correlation data', async () => {
    // Prepare
    mock = mockClient(IoTDataPlaneClient);
    mock.on(PublishCommand).resolves({});
    const message = { correlationId: 'c1', replyTopic: 'cu/CU1/kd/reply', deadline: 5, command: command() };

    // Act
    await iotPublisher({ endpoint: 'abc-ats.iot.eu-north-1.amazonaws.com', region: 'eu-north-1' }).publish('CU1', message);

    // Assess
    const calls = mock.commandCalls(PublishCommand);
    expect(calls).toHaveLength(1);
    const input = calls[0]?.args[0].input;
    const payload = Buffer.from((input?.payload ?? new Uint8Array()) as Uint8Array).toString('utf8');
    expect({ ...input, payload: JSON.parse(payload) as unknown }).toEqual({
      topic: 'cu/CU1/kd/request',
      qos: 1,
      payload: message,
      contentType: 'application/json',
      responseTopic: 'cu/CU1/kd/reply',
      correlationData: Buffer.from('c1').toString('base64'),
    });
  });

  it('fails the publish when the data plane refuses it', async () => {
    // Prepare
    mock = mockClient(IoTDataPlaneClient);
    mock.on(PublishCommand).rejects(new Error('ForbiddenException'));
    const message = { correlationId: 'c1', replyTopic: 'cu/CU1/kd/reply', deadline: 5, command: command() };

    // Assess
    await expect(iotPublisher({ endpoint: 'https://x', region: 'eu-north-1' }).publish('CU1', message)).rejects.toThrow(
      'ForbiddenException',
    );
  });

  it('is chosen by KD_PUBLISHER, each adapter with its own setting', () => {
    // Prepare
    const none = { kdPublisher: undefined, iotEndpoint: undefined, mqttUrl: undefined };

    // Assess
    expect(() => kdPublishing(none)).toThrow('KD_PUBLISHER must be iot or mqtt, not unset');
    expect(() => kdPublishing({ ...none, kdPublisher: 'iot' })).toThrow('IOT_ENDPOINT is required');
    expect(() => kdPublishing({ ...none, kdPublisher: 'mqtt' })).toThrow('MQTT_URL is required');
    expect(kdPublishing({ ...none, kdPublisher: 'iot', iotEndpoint: 'e' })).toEqual({ publisher: 'iot', endpoint: 'e' });
    expect(kdPublishing({ ...none, kdPublisher: 'mqtt', mqttUrl: 'mqtt://h:1' })).toEqual({
      publisher: 'mqtt',
      url: 'mqtt://h:1',
    });
  });
});

describe('the KdOutcome metric', () => {
  it.each([
    ['signed', signed('ABC123'), 'Signed'],
    ['no reply by the deadline', replyResult(undefined), 'ControlUnitUnavailable'],
    ['a refusal', replyResult(reply({ returnCode: 5, controlCode: null })), 'ControlUnitReceipt'],
    ['a bridge never provisioned', bridgeRefusal(undefined, undefined), 'ServiceUnavailable'],
  ])('counts %s as %s, in Embedded Metric Format, beside the answer', (_label, result, outcome) => {
    // Prepare
    const lines: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));

    // Act
    let answered: unknown;
    try {
      answered = counted(result ?? signed('never'), 'CU1').status;
    } catch (error) {
      answered = (error as { exception: string }).exception;
    } finally {
      log.mockRestore();
    }

    // Assess
    expect(answered).toBe(outcome === 'Signed' ? 201 : outcome);
    expect(lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toEqual([
      expect.objectContaining({
        outcome,
        KdOutcome: 1,
        _aws: expect.objectContaining({
          CloudWatchMetrics: [
            expect.objectContaining({ Dimensions: [['outcome']], Metrics: [{ Name: 'KdOutcome', Unit: 'Count' }] }),
          ],
        }),
      }),
    ]);
  });
});

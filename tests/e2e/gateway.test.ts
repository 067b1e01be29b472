/**
 * The v26 payment gateway over HTTP (docs/conventions.md §22), with the local stack's simulator: amounts
 * ending in .01 are declined, .02 are a provider error, .03 come back with a forged signature; others are accepted.
 */
import { randomInt } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, newSeller, v } from '../support/http.ts';
import { userOf } from '../support/identity.ts';

let seller: string;
const order = () => randomInt(1, 1e9);
const pay = (orderId: number | string, amount: unknown, to = seller, options = {}) =>
  v(26).post(`/gateway/payment/${to}/${orderId}`, { amount }, options);

beforeAll(async () => {
  seller = await newSeller({ currency: 'SEK' });
});

describe('POST /v26/gateway/payment/{sellerId}/{orderId}', () => {
  it('accepts a payment: 201 with the status, the transaction and the acquirer', async () => {
    // Act
    const answer = await pay(order(), '125.50');

    // Assess
    expect(answer.status).toBe(201);
    expect(answer.headers.get('idempotent-replayed')).toBeNull();
    expect(answer.body).toEqual({
      acquirer: 'SIMULATOR',
      declineReason: null,
      status: 'ACCEPT',
      transactionId: expect.stringMatching(/^SIM-[0-9a-f]{20}$/),
    });
  });

  it('answers a decline with its reason, and a provider error', async () => {
    // Act
    const declined = await pay(order(), '40.01');
    const failed = await pay(order(), '40.02');

    // Assess
    expect(declined.status).toBe(201);
    expect(declined.body).toMatchObject({ status: 'DECLINE', declineReason: 'INSUFFICIENT_FUNDS', acquirer: 'SIMULATOR' });
    expect(failed.status).toBe(201);
    expect(failed.body).toEqual({ acquirer: null, declineReason: null, status: 'ERROR', transactionId: null });
  });

  it('a repeat answers the stored result without charging again; the same amount spelt otherwise is a repeat', async () => {
    // Prepare
    const orderId = order();
    const first = await pay(orderId, '99.90');

    // Act
    const repeat = await pay(orderId, '99.9');
    const declinedOrder = order();
    await pay(declinedOrder, '12.01');
    const declinedRepeat = await pay(declinedOrder, '12.01');

    // Assess
    expect(repeat.status).toBe(201);
    expect(repeat.headers.get('idempotent-replayed')).toBe('true');
    expect(repeat.body).toEqual(first.body);
    expect(declinedRepeat.body).toMatchObject({ status: 'DECLINE' });
    expect(declinedRepeat.headers.get('idempotent-replayed')).toBe('true');
  });

  it('a repeat with another amount is 409 VersionConflict, and the stored result stays', async () => {
    // Prepare
    const orderId = order();
    const first = await pay(orderId, '10.00');

    // Act
    const other = await pay(orderId, '10.10');
    const again = await pay(orderId, '10.00');

    // Assess
    expectError(other, 409, 'VersionConflict');
    expect(again.body).toEqual(first.body);
  });

  it('stores no provider error: the order may be paid again, with any amount', async () => {
    // Prepare
    const orderId = order();
    await pay(orderId, '5.02');

    // Act
    const retried = await pay(orderId, '5.50');

    // Assess
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(retried.body).toMatchObject({ status: 'ACCEPT' });
  });

  it('a forged provider answer is 403 GATEWAY_VERIFICATION_FAILURE, and nothing is stored', async () => {
    // Prepare
    const orderId = order();

    // Act
    const forged = await pay(orderId, '7.03');
    const retried = await pay(orderId, '7.00');

    // Assess
    expectError(forged, 403, 'Forbidden', 'GATEWAY_VERIFICATION_FAILURE');
    expect(retried.body).toMatchObject({ status: 'ACCEPT' });
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
  });

  it('a seller without a currency is 404 NotFound SELLER_MUST_HAVE_CURRENCY', async () => {
    // Prepare
    const noCurrency = await newSeller();

    // Act
    const answer = await pay(order(), '10.00', noCurrency);

    // Assess
    expectError(answer, 404, 'NotFound', 'SELLER_MUST_HAVE_CURRENCY');
  });

  it.each([
    ['a comma', '12,50', 'SHOULD_MATCH_PATTERN'],
    ['three decimals', '1.005', 'SHOULD_MATCH_PATTERN'],
    ['a sign', '-5.00', 'SHOULD_MATCH_PATTERN'],
    ['zero', '0.00', 'VALUE_SHOULD_BE_GREATER_THEN'],
  ])('refuses an amount with %s: 400 %s', async (_, amount, code) => {
    expectError(await pay(order(), amount), 400, 'ValueNotValid', code);
  });

  it('refuses a number instead of a decimal string, an order that is no integer, and a missing amount', async () => {
    expectError(await pay(order(), 12.5), 400, 'MessageNotReadable');
    expectError(await pay('abc', '1.00'), 400, 'TypeMismatch');
    expectError(await v(26).post(`/gateway/payment/${seller}/${order()}`, {}), 400, 'ValueNotValid', 'SHOULD_NOT_BE_NULL');
  });

  it("refuses an unknown or deleted seller (404), another seller's user (403), and v15 and v33, which have no gateway", async () => {
    // Prepare
    const stranger = await userOf('REGULAR_USER', null, [await newSeller({ currency: 'SEK' })]);

    const deleted = await newSeller({ currency: 'SEK' });
    expect((await v(33).del(`/sellers/${deleted}`)).status).toBe(204);

    // Act and assess
    expectError(await pay(order(), '1.00', 'SE5599999990'), 404, 'NotFound');
    expectError(await pay(order(), '1.00', deleted), 404, 'NotFound');
    expectError(await pay(order(), '1.00', seller, stranger), 403, 'Forbidden', 'INSUFFICIENT_ACCESS_RIGHTS');
    for (const api of [15, 33] as const) {
      expectError(await v(api).post(`/gateway/payment/${seller}/1`, { amount: '1.00' }), 404, 'NotFound', 'ENDPOINT_NOT_FOUND');
    }
  });
});

/** The gateway's pure parts: signed-answer verification, the simulator's script and the amounts (docs/conventions.md §22). */
import { describe, expect, it } from 'vitest';
import { replay } from '#functions/gateway/payments.ts';
import { type Charge, type ProviderAnswer, sign, verifyAnswer } from '#functions/gateway/provider.ts';
import { simulator } from '#functions/gateway/simulator.ts';
import { formatHundredths, parseHundredths } from '#shared/hundredths.ts';
import { refusal } from '../support/decisions.ts';

const SECRET = 'a-shared-secret-of-at-least-32-characters';
const charge: Charge = { sellerId: 'SE5560360793', orderId: '42', amount: '125.50', currency: 'SEK' };
const answer: ProviderAnswer = {
  ...charge,
  status: 'ACCEPT',
  transactionId: 't-1',
  acquirer: 'Acquirer AB',
  declineReason: null,
};
const FAILURE = { status: 403, exception: 'Forbidden', code: 'GATEWAY_VERIFICATION_FAILURE' };

describe('verifyAnswer', () => {
  it('takes an answer signed with the shared secret over its canonical JSON, whatever the order of its keys', () => {
    // Prepare
    const reordered = Object.fromEntries(Object.entries(answer).reverse());

    // Act
    const result = verifyAnswer({ answer: reordered, signature: sign(answer, SECRET) }, charge, SECRET);

    // Assess
    expect(result).toEqual({ status: 'ACCEPT', transactionId: 't-1', acquirer: 'Acquirer AB', declineReason: null });
  });

  it.each([
    ['signed with another secret', { answer, signature: sign(answer, `${SECRET}!`) }],
    ['changed after signing', { answer: { ...answer, status: 'DECLINE' }, signature: sign(answer, SECRET) }],
    ['without a signature', { answer, signature: undefined }],
    ['with a signature that is not hex', { answer, signature: 'z'.repeat(64) }],
    ['with a truncated signature', { answer, signature: sign(answer, SECRET).slice(0, 62) }],
    ['that is no object', { answer: 'ACCEPT', signature: sign({}, SECRET) }],
  ])('refuses an answer %s: 403 GATEWAY_VERIFICATION_FAILURE', (_, signed) => {
    expect(refusal(() => verifyAnswer(signed, charge, SECRET))).toEqual(FAILURE);
  });

  it.each([
    ['another amount', { ...answer, amount: '12.55' }],
    ['another order', { ...answer, orderId: '43' }],
    ['another seller', { ...answer, sellerId: 'SE5560360794' }],
    ['another currency', { ...answer, currency: 'EUR' }],
    ['an unknown status', { ...answer, status: 'MAYBE' }],
    ['a transaction id that is no text', { ...answer, transactionId: 7 }],
  ])('refuses a genuinely signed answer for %s', (_, other) => {
    expect(refusal(() => verifyAnswer({ answer: other, signature: sign(other, SECRET) }, charge, SECRET))).toEqual(FAILURE);
  });
});

describe('the simulator', () => {
  it.each([
    ['125.50', 'ACCEPT'],
    ['125.01', 'DECLINE'],
    ['125.02', 'ERROR'],
  ])('answers %s with a signed %s', async (amount, status) => {
    // Act
    const signed = await simulator(SECRET).charge({ ...charge, amount });

    // Assess
    expect(verifyAnswer(signed, { ...charge, amount }, SECRET).status).toBe(status);
  });

  it('answers .03 with a forged signature, and the same charge with the same transaction', async () => {
    // Act
    const forged = await simulator(SECRET).charge({ ...charge, amount: '1.03' });
    const [first, second] = await Promise.all([simulator(SECRET).charge(charge), simulator(SECRET).charge(charge)]);

    // Assess
    expect(refusal(() => verifyAnswer(forged, { ...charge, amount: '1.03' }, SECRET))).toEqual(FAILURE);
    expect(first).toEqual(second);
  });
});

describe('amounts', () => {
  it.each([
    ['125.50', 12550, '125.50'],
    ['125.5', 12550, '125.50'],
    ['125', 12500, '125.00'],
    ['0.07', 7, '0.07'],
    ['9999999999999.99', 999999999999999, '9999999999999.99'],
  ])('%s is %i hundredths, spelt %s to the provider', (amount, hundredths, spelt) => {
    expect(parseHundredths(amount, '.')).toBe(hundredths);
    expect(formatHundredths(hundredths, '.')).toBe(spelt);
  });

  it('a stored result replays for its amount and is 409 for another', () => {
    // Prepare
    const stored = {
      amount: 12550,
      currency: 'SEK',
      status: 'ACCEPT',
      transactionId: 't',
      acquirer: 'a',
      declineReason: null,
      created: 1,
    } as const;

    // Act
    const replayed = replay(stored, 12550, '42');
    const conflict = refusal(() => replay(stored, 12551, '42'));

    // Assess
    expect(replayed).toEqual({
      status: 201,
      body: { acquirer: 'a', declineReason: null, status: 'ACCEPT', transactionId: 't' },
      headers: { 'Idempotent-Replayed': 'true' },
    });
    expect(conflict).toEqual({ status: 409, exception: 'VersionConflict', code: null });
  });
});

/**
 * The HTTPS provider adapter against a provider this test serves on a local port: what it sends (the charge,
 * signed, with its idempotency key) and how its answers fare in verification. Plain HTTP here; in AWS the
 * configuration accepts only an https:// URL (`paymentGateway` in shared/config.ts).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpsProvider } from '#functions/gateway/https-provider.ts';
import { type Charge, sign, verifyAnswer } from '#functions/gateway/provider.ts';
import { ApiError } from '#shared/errors.ts';

const SECRET = 'the-provider-and-the-service-share-this-secret';
const charge: Charge = { sellerId: 'SE5560360793', orderId: '42', amount: '125.50', currency: 'SEK' };

/** What the provider does with the next request. */
let behave: (request: { headers: IncomingMessage['headers']; body: Charge }, response: ServerResponse) => void;
let received: { headers: IncomingMessage['headers']; body: Charge }[] = [];
let url = '';
const server = createServer((request, response) => {
  let text = '';
  request.on('data', (chunk: Buffer) => (text += chunk.toString()));
  request.on('end', () => {
    const seen = { headers: request.headers, body: JSON.parse(text) as Charge };
    received.push(seen);
    behave(seen, response);
  });
});

const answerWith = (response: ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { 'Content-Type': 'application/json' });
  response.end(JSON.stringify(body));
};

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/charge`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

const refusedWith = async (work: Promise<unknown>) => {
  const error = await work.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(ApiError);
  const { status, exception, code } = error as ApiError;
  return { status, exception, code };
};

describe('the HTTPS provider adapter', () => {
  it('sends the charge signed with its idempotency key, and a genuine answer passes verification', async () => {
    // Prepare
    received = [];
    behave = ({ body }, response) => {
      const answer = { ...body, status: 'ACCEPT', transactionId: 'tx-9', acquirer: 'Acquirer AB', declineReason: null };
      answerWith(response, 200, { answer, signature: sign(answer, SECRET) });
    };

    // Act
    const signed = await httpsProvider(url, SECRET).charge(charge);

    // Assess
    expect(verifyAnswer(signed, charge, SECRET)).toEqual({
      status: 'ACCEPT',
      transactionId: 'tx-9',
      acquirer: 'Acquirer AB',
      declineReason: null,
    });
    expect(received).toHaveLength(1);
    expect(received[0]?.body).toEqual(charge);
    expect(received[0]?.headers['idempotency-key']).toBe('SE5560360793/42');
    expect(received[0]?.headers['x-signature']).toBe(sign(charge, SECRET));
  });

  it.each([
    [
      'signed with another key',
      (answer: object) => ({ answer, signature: sign(answer, 'someone-else-entirely-and-not-the-provider') }),
    ],
    ['unsigned', (answer: object) => ({ answer })],
    ['altered on the way', (answer: object) => ({ answer: { ...answer, status: 'ACCEPT' }, signature: sign(answer, SECRET) })],
  ])('an answer %s fails verification: 403 GATEWAY_VERIFICATION_FAILURE', async (_, forge) => {
    // Prepare
    behave = ({ body }, response) => {
      const answer = { ...body, status: 'DECLINE', transactionId: 'tx-1', acquirer: 'Acquirer AB', declineReason: 'CARD' };
      answerWith(response, 200, forge(answer));
    };

    // Act
    const signed = await httpsProvider(url, SECRET).charge(charge);

    // Assess
    expect(await refusedWith(Promise.resolve().then(() => verifyAnswer(signed, charge, SECRET)))).toEqual({
      status: 403,
      exception: 'Forbidden',
      code: 'GATEWAY_VERIFICATION_FAILURE',
    });
  });

  it('a body that is not JSON fails verification too', async () => {
    // Prepare
    behave = (_, response) => {
      response.writeHead(200, { 'Content-Type': 'text/html' });
      response.end('<html>maintenance</html>');
    };

    // Act
    const signed = await httpsProvider(url, SECRET).charge(charge);

    // Assess
    expect(await refusedWith(Promise.resolve().then(() => verifyAnswer(signed, charge, SECRET)))).toMatchObject({
      code: 'GATEWAY_VERIFICATION_FAILURE',
    });
  });

  it('a provider that fails, or never answers, is 503 ServiceUnavailable', async () => {
    // Prepare
    behave = (_, response) => answerWith(response, 502, { error: 'upstream' });
    const failing = httpsProvider(url, SECRET).charge(charge);
    const unavailable = { status: 503, exception: 'ServiceUnavailable', code: null };

    // Act and assess
    expect(await refusedWith(failing)).toEqual(unavailable);
    behave = () => undefined;
    expect(await refusedWith(httpsProvider(url, SECRET, 200).charge(charge))).toEqual(unavailable);
    expect(await refusedWith(httpsProvider('http://127.0.0.1:1/charge', SECRET).charge(charge))).toEqual(unavailable);
  });
});

import { createHmac, timingSafeEqual } from 'node:crypto';
import { forbidden } from '#shared/errors.ts';
import { canonicalJson } from '#shared/fiscal/verify-journal.ts';

/** The provider's outcome of a charge (spec 2.2 gatewayResponseStatus). */
export const GATEWAY_STATUSES = ['ACCEPT', 'DECLINE', 'ERROR'] as const;
export type GatewayStatus = (typeof GATEWAY_STATUSES)[number];

/** What is charged: the seller as merchant, its order, the amount as a two-decimal string and its currency. */
export interface Charge {
  sellerId: string;
  orderId: string;
  amount: string;
  currency: string;
}

/** The outcome as the endpoint answers it (spec 4.1). */
export interface GatewayResult {
  status: GatewayStatus;
  transactionId: string | null;
  acquirer: string | null;
  declineReason: string | null;
}

/**
 * The provider's answer: the charge it answers for, and its outcome. The signature covers all of it, so a signed
 * answer for one charge can never be replayed as the answer to another.
 */
export type ProviderAnswer = Charge & GatewayResult;

/** An answer as it arrived, before anything in it is trusted. */
export interface SignedAnswer {
  answer: unknown;
  signature: unknown;
}

/** Charges a payment (docs/conventions.md §22): the simulator locally and in tests, an HTTPS provider in AWS. */
export interface PaymentProvider {
  charge(charge: Charge): Promise<SignedAnswer>;
}

/**
 * HMAC-SHA256 (lowercase hex) with the shared secret over the UTF-8 canonical JSON (RFC 8785: keys sorted, no
 * whitespace) of a message: the provider signs its answers so, and the service its requests.
 */
export const sign = (message: object, secret: string): string =>
  createHmac('sha256', secret).update(canonicalJson(message), 'utf8').digest('hex');

const verificationFailure = () => forbidden('GATEWAY_VERIFICATION_FAILURE', "The payment provider's answer failed verification");

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isTextOrNull = (value: unknown) => value === null || (typeof value === 'string' && value.length <= 255);

/**
 * The outcome of a signed answer, once it is proven to come from the provider and to answer this very charge:
 * the signature must be the HMAC of the answer with the shared secret (compared in constant time), the answer
 * must name this charge's seller, order, amount and currency, and its outcome must be well-formed. Anything
 * else is `403 GATEWAY_VERIFICATION_FAILURE`.
 */
export function verifyAnswer({ answer, signature }: SignedAnswer, charge: Charge, secret: string): GatewayResult {
  if (!isRecord(answer) || typeof signature !== 'string' || !/^[0-9a-f]{64}$/.test(signature)) throw verificationFailure();
  let expected: string;
  try {
    expected = sign(answer, secret);
  } catch {
    throw verificationFailure();
  }
  if (!timingSafeEqual(Buffer.from(signature, 'hex'), Buffer.from(expected, 'hex'))) throw verificationFailure();
  const { status, transactionId, acquirer, declineReason } = answer;
  const forThisCharge = (Object.keys(charge) as (keyof Charge)[]).every((field) => answer[field] === charge[field]);
  const wellFormed =
    GATEWAY_STATUSES.includes(status as GatewayStatus) &&
    isTextOrNull(transactionId) &&
    isTextOrNull(acquirer) &&
    isTextOrNull(declineReason);
  if (!forThisCharge || !wellFormed) throw verificationFailure();
  return {
    status: status as GatewayStatus,
    transactionId: transactionId as string | null,
    acquirer: acquirer as string | null,
    declineReason: declineReason as string | null,
  };
}

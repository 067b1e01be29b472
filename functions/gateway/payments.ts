import type { GatewayPaymentBody } from '#schemas/types.ts';
import { paymentGateway } from '#shared/config.ts';
import { readItem, readPair } from '#shared/db/reads.ts';
import { putIfAbsent } from '#shared/db/transact.ts';
import type { GatewayPayment } from '#shared/domain/records.ts';
import { notFound, valueNotValid, versionConflict } from '#shared/errors.ts';
import { formatHundredths, parseHundredths } from '#shared/hundredths.ts';
import type { ApiRequest, Reply } from '#shared/http/types.ts';
import { httpsProvider } from './https-provider.ts';
import { type GatewayResult, type PaymentProvider, verifyAnswer } from './provider.ts';
import { simulator } from './simulator.ts';
import { sellerKeys } from '#shared/domain/seller.ts';

let chosen: { provider: PaymentProvider; secret: string } | undefined;

/** The process's provider and the secret its answers are verified with, chosen once from `GATEWAY_PROVIDER`. */
function gateway(): { provider: PaymentProvider; secret: string } {
  if (chosen) return chosen;
  const settings = paymentGateway();
  const provider = settings.provider === 'https' ? httpsProvider(settings.url, settings.secret) : simulator(settings.secret);
  chosen = { provider, secret: settings.secret };
  return chosen;
}

const view = (result: GatewayResult) => ({
  acquirer: result.acquirer,
  declineReason: result.declineReason,
  status: result.status,
  transactionId: result.transactionId,
});

/** A stored result asked for again: the same amount replays it; another amount is `409 VersionConflict`. */
export function replay(stored: GatewayPayment, amount: number, orderId: string): Reply {
  if (stored.amount !== amount) {
    throw versionConflict(`Order ${orderId} was already paid through the gateway with another amount`);
  }
  return { status: 201, body: view(stored), headers: { 'Idempotent-Replayed': 'true' } };
}

/**
 * POST /gateway/payment/{sellerId}/{orderId} (v26; docs/conventions.md §22): charges `amount` in the
 * seller's currency through the provider and keeps one result per order. A repeat answers the stored result
 * without charging again; a repeat with another amount is `409`. An `ERROR` outcome is not stored (nothing was
 * charged), so the register may try the order again.
 */
export async function takePayment(request: ApiRequest<GatewayPaymentBody, 'sellerId' | 'orderId'>): Promise<Reply> {
  const { sellerId } = request.params;
  // The path has been checked as a non-negative integer; one spelling per order ("007" is order 7).
  const orderId = String(Number(request.params.orderId));
  // The schema has checked the shape: digits, at most two decimals after a point.
  const amount = parseHundredths(request.body.amount, '.');
  if (amount === 0) {
    throw valueNotValid('VALUE_SHOULD_BE_GREATER_THEN', 'amount must be at least 0.01', {
      field: 'amount',
      actualValue: request.body.amount,
      valueMin: 0.01,
    });
  }
  const key = sellerKeys.gatewayPayment(sellerId, orderId);
  const [seller, stored] = await readPair(sellerKeys.profile(sellerId), key);
  if (stored) return replay(stored, amount, orderId);
  const currency = seller?.currency;
  if (!currency) throw notFound(`Seller ${sellerId} has no currency to charge in`, 'SELLER_MUST_HAVE_CURRENCY');

  const { provider, secret } = gateway();
  // The one spelling of an amount the provider sees and signs: `125.50`.
  const charge = { sellerId, orderId, amount: formatHundredths(amount, '.'), currency };
  const result = verifyAnswer(await provider.charge(charge), charge, secret);
  if (result.status === 'ERROR') return { status: 201, body: view(result) };

  const payment: GatewayPayment = { ...result, status: result.status, amount, currency, created: Date.now() };
  if (await putIfAbsent({ ...key, ...payment })) return { status: 201, body: view(payment) };
  // A concurrent request for the order stored its result first: answer as a repeat would.
  const winner = await readItem(key);
  if (!winner) throw new Error(`Gateway payment ${sellerId}/${orderId} vanished after its conditional put failed`);
  return replay(winner, amount, orderId);
}

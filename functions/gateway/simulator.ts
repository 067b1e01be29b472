import { createHash } from 'node:crypto';
import { type Charge, type GatewayResult, type PaymentProvider, sign } from './provider.ts';

/** The simulator's answers by the amount's cents (docs/conventions.md §22); any other amount is accepted. */
const SCRIPTED: Record<string, 'DECLINE' | 'ERROR' | 'FORGED'> = { '01': 'DECLINE', '02': 'ERROR', '03': 'FORGED' };

/**
 * A deterministic payment provider for the local stack and the tests: it signs its answers with the shared secret,
 * exactly as the HTTPS provider must, so the same verification runs on them. An amount ending in `.01` is declined,
 * `.02` is a provider error, `.03` comes back signed with another key (a forged answer); any other is accepted.
 */
export function simulator(secret: string): PaymentProvider {
  return {
    async charge(charge: Charge) {
      const scripted = SCRIPTED[charge.amount.slice(-2)];
      // The same charge gets the same transaction id, as a provider deduplicating by order would answer.
      const transactionId = `SIM-${createHash('sha256').update(`${charge.sellerId}/${charge.orderId}`).digest('hex').slice(0, 20)}`;
      const outcome: GatewayResult =
        scripted === 'DECLINE'
          ? { status: 'DECLINE', transactionId, acquirer: 'SIMULATOR', declineReason: 'INSUFFICIENT_FUNDS' }
          : scripted === 'ERROR'
            ? { status: 'ERROR', transactionId: null, acquirer: null, declineReason: null }
            : { status: 'ACCEPT', transactionId, acquirer: 'SIMULATOR', declineReason: null };
      const answer = { ...charge, ...outcome };
      return { answer, signature: sign(answer, scripted === 'FORGED' ? `not-${secret}` : secret) };
    },
  };
}

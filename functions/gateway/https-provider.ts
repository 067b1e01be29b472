import { serviceBusy } from '#shared/errors.ts';
import { type Charge, type PaymentProvider, sign } from './provider.ts';

/** How long the provider may take; the function's own timeout (serverless.yml) leaves room to store and answer. */
export const PROVIDER_TIMEOUT_MS = 10_000;

const unavailable = (cause?: unknown) => serviceBusy('The payment provider did not answer; try again', { cause });

/**
 * The payment provider over HTTPS (docs/conventions.md §22): `POST <url>` with the charge as JSON, signed in
 * `X-Signature` (HMAC-SHA256, hex) and named by `Idempotency-Key: <sellerId>/<orderId>`, so a retry after a lost
 * answer never charges twice. The provider answers `200 {"answer", "signature"}`; this adapter only carries it,
 * `verifyAnswer` decides whether to believe it. No answer, a timeout or a non-2xx status: `503`, nothing stored.
 */
export function httpsProvider(url: string, secret: string, timeoutMs = PROVIDER_TIMEOUT_MS): PaymentProvider {
  return {
    async charge(charge: Charge) {
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            'Idempotency-Key': `${charge.sellerId}/${charge.orderId}`,
            'X-Signature': sign(charge, secret),
          },
          body: JSON.stringify(charge),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        throw unavailable(error);
      }
      if (!response.ok) throw unavailable(new Error(`The provider answered ${response.status}`));
      // Whatever came back is handed to verification as is: an unreadable body is an unverifiable answer.
      const body: unknown = await response.json().catch(() => undefined);
      const { answer, signature } = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
      return { answer, signature };
    },
  };
}

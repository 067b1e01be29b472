import { gatewayPayment } from '#schemas/generated/validators.js';
import { access } from '#shared/auth/access.ts';
import { httpApi } from '#shared/http/api.ts';
import { type Route, route } from '#shared/http/router.ts';
import { takePayment } from './payments.ts';

/** The v26 payment gateway (docs/conventions.md §22); the spec shows no v33 gateway. */
export const routes: Route[] = [
  route({
    summary: 'Charges a card payment for an order',
    description:
      'Charges the amount (a decimal string such as "125.50") in the seller\'s currency through the payment provider, and answers ACCEPT, DECLINE or ERROR with the provider\'s transaction. One result per seller and order: a repeat answers the stored result without charging again, and an ERROR, which charged nothing, may be paid again. An answer whose signature does not verify is 403 GATEWAY_VERIFICATION_FAILURE, and nothing is stored.',
    responses: { 201: 'gatewayResult' },
    errors: [['NotFound', 'SELLER_MUST_HAVE_CURRENCY'], ['VersionConflict'], ['Forbidden', 'GATEWAY_VERIFICATION_FAILURE']],
    method: 'POST',
    path: '/gateway/payment/{sellerId}/{orderId}',
    versions: [26],
    access: access.seller,
    body: gatewayPayment,
    handle: takePayment,
  }),
];

export const handler = httpApi(routes);

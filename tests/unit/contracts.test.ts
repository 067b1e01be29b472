/**
 * Route contracts are checked by the compiler (`npm test` runs `tsc` over this file): each
 * `@ts-expect-error` below is a mistake that must not compile, and `tsc` fails if one ever does.
 */
import { describe, expect, it } from 'vitest';
import * as validators from '#schemas/generated/validators.js';
import { dayRefusal } from '#functions/fiscal/refusals.ts';
import { access } from '#shared/auth/access.ts';
import { forbidden, inconsistentData, unprocessable } from '#shared/errors.ts';
import { ok } from '#shared/http/response.ts';
import { route } from '#shared/http/router.ts';
import type { ApiRequest, LiveSellerRequest, ParamNames } from '#shared/http/types.ts';

const head = {
  versions: [33],
  access: access.seller,
  summary: 'A test route',
  description: 'A route of the contract test.',
} as const;

describe('route contracts', () => {
  it('a handler sees the body of its validator and the parameters of its template', async () => {
    const taxRoute = route({
      ...head,
      method: 'PUT',
      path: '/{sellerId}/taxes/{identifier}',
      body: validators.tax,
      handle: async (request) => ok({ seller: request.params.sellerId, id: request.params.identifier, vat: request.body.vat }),
    });
    const request: ApiRequest<unknown, string> = {
      version: 33,
      method: 'PUT',
      params: { sellerId: 'SE1', identifier: 't' },
      body: { vat: 25, name: 'x' },
      query: new URLSearchParams(),
      headers: {},
      principal: undefined,
      sellerCounter: undefined,
    };

    const reply = await taxRoute.handle(request);

    expect(reply).toEqual({ status: 200, body: { seller: 'SE1', id: 't', vat: 25 } });
  });

  it('names the parameters of a template, placeholders included', () => {
    const names: ParamNames<`/{sellerId}/${string}/{identifier}`>[] = ['sellerId', 'identifier'];
    // @ts-expect-error a name the template does not have
    const wrong: ParamNames<'/{sellerId}/taxes'> = 'identifier';
    expect([names, wrong]).toHaveLength(2);
  });

  it('refuses misspelt parameters, foreign bodies and unknown error codes at compile time', () => {
    const needsCash = async (request: ApiRequest<unknown, 'sellerId' | 'cash'>) => ok(request.params.cash);
    const needsCounter = async (request: LiveSellerRequest<unknown, 'sellerId'>) => ok(request.sellerCounter.ver);
    const mistakes = [
      route({ ...head, method: 'GET', path: '/{sellerId}/version', handle: needsCounter }),
      // @ts-expect-error the seller's counter is read only where the access rule checks the seller is live
      route({ ...head, access: access.sellerRecord, method: 'GET', path: '/{sellerId}/version', handle: needsCounter }),
      // @ts-expect-error the template has no {cash}
      route({ ...head, method: 'GET', path: '/{sellerId}/version', handle: needsCash }),
      route({
        ...head,
        method: 'GET',
        path: '/{sellerId}/taxes/{identifier}',
        // @ts-expect-error a misspelt parameter
        handle: async (request) => ok(request.params.identifer),
      }),
      route({
        ...head,
        method: 'POST',
        path: '/{sellerId}/taxes',
        body: validators.tax,
        // @ts-expect-error a tax has no `price`
        handle: async (request) => ok(request.body.price),
      }),
      route({
        ...head,
        method: 'POST',
        path: '/{sellerId}/taxes',
        // @ts-expect-error a route without a body cannot hand its domain function one
        handle: async (request: ApiRequest<{ vat: number }>) => ok(request.body.vat),
      }),
      // @ts-expect-error a misspelt error code
      forbidden('INSUFFICIENT_ACCESS_RIGHT', 'no'),
      // @ts-expect-error a code of another exception
      unprocessable('LOCAL_AND_SERVER_VERSIONS_INCONSISTENCY', 'no'),
      inconsistentData('LOCAL_AND_SERVER_VERSIONS_INCONSISTENCY', 'a code in its place compiles'),
      // @ts-expect-error a day condition the endpoint's exception does not carry (a report's NotFound has no DAY_IS_CLOSED)
      dayRefusal('report', 'DAY_IS_CLOSED', 33),
      dayRefusal('report', 'DAY_IS_NOT_CLOSED', 33),
    ];
    expect(mistakes).toHaveLength(11);
  });
});

import { describe, expect, it } from 'vitest';
import { access, type AccessRule } from '#shared/auth/access.ts';
import { ApiError } from '#shared/errors.ts';
import { noContent } from '#shared/http/response.ts';
import { type Route, RouteTable, route } from '#shared/http/router.ts';

const answer = async () => noContent();
const words = { summary: 'A test route', description: 'A route of the router test.' };
const routes: Route[] = [
  route({ ...words, method: 'GET', path: '/{sellerId}/version', versions: [15, 26, 33], access: access.anyone, handle: answer }),
  route({ ...words, method: 'GET', path: '/sellers/{sellerId}', versions: [15, 26, 33], access: access.anyone, handle: answer }),
  route({ ...words, method: 'POST', path: '/sellers', versions: [15], access: access.anyone, handle: answer }),
  route({ ...words, method: 'GET', path: '/sellers', versions: [15, 26, 33], access: access.anyone, handle: answer }),
];
const table = new RouteTable(routes);

function failure(run: () => unknown) {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError)
      return { status: error.status, exception: error.exception, code: error.code, headers: error.headers };
    throw error;
  }
  throw new Error('matched');
}

describe('route table', () => {
  it('matches a path with parameters and names them', () => {
    const match = table.match(26, 'GET', ['SE123', 'version'], '/v26/SE123/version');
    expect(match.route.path).toBe('/{sellerId}/version');
    expect(match.params).toEqual({ sellerId: 'SE123' });
  });

  it('prefers a literal segment over a parameter', () => {
    expect(table.match(33, 'GET', ['sellers', 'version'], '').route.path).toBe('/sellers/{sellerId}');
  });

  it('a path no route of the version has is 404 ENDPOINT_NOT_FOUND', () => {
    expect(failure(() => table.match(33, 'GET', ['nothing'], '/v33/nothing'))).toMatchObject({
      status: 404,
      exception: 'NotFound',
      code: 'ENDPOINT_NOT_FOUND',
    });
  });

  it('a known path with another method is 405 naming the allowed methods', () => {
    expect(failure(() => table.match(33, 'DELETE', ['sellers'], '/v33/sellers'))).toMatchObject({
      status: 405,
      exception: 'RequestMethodNotSupported',
      headers: { Allow: 'GET' },
    });
  });

  it('a route only another version has is 405 when the path exists, and absent otherwise', () => {
    expect(table.match(15, 'POST', ['sellers'], '').route.method).toBe('POST');
    expect(failure(() => table.match(26, 'POST', ['sellers'], ''))).toMatchObject({ status: 405 });
  });

  it('an empty parameter segment matches nothing', () => {
    expect(failure(() => table.match(33, 'GET', ['sellers', ''], ''))).toMatchObject({ code: 'ENDPOINT_NOT_FOUND' });
  });

  it('refuses, when the function loads, a path parameter without a rule and a seller check without {sellerId}', () => {
    const at = (path: string, rule: AccessRule = access.anyone) => [
      route({ ...words, method: 'GET', path, versions: [33], access: rule, handle: answer }),
    ];
    expect(() => new RouteTable(at('/{sellerId}/taxes/{identifier}', access.seller))).not.toThrow();
    expect(() => new RouteTable(at('/{sellerId}/things/{thing}'))).toThrow(/\{thing\}/);
    expect(() => new RouteTable(at('/sellers', access.seller))).toThrow(/names no \{sellerId\}/);
  });
});

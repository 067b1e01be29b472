/** What a statistics request covers: `coverageOf` (`shared/stats/coverage.ts`) over the request's query. */
import type { ApiRequest } from '#shared/http/types.ts';
import { type Coverage, coverageOf, statsParamsOf } from '#shared/stats/coverage.ts';

export const coverage = (request: ApiRequest<unknown, 'sellerId'>): Promise<Coverage> =>
  coverageOf(request.params.sellerId, statsParamsOf(request.query));

/**
 * The service's functions called in this process, as API Gateway would call them: the route is found in serverless.yml
 * (the function whose `httpApi` route matches the path, the most specific first, as API Gateway chooses), and the event
 * is a real HTTP API v2 event (tests/fixtures/http-api-v2-get-tax.json) with this request's method, path, query and
 * headers. For a test that needs the functions on a table other than the stack's (the layout migration's): they read
 * TABLE_NAME when they first touch the table, so the test sets it before its first call.
 */
import { readFileSync } from 'node:fs';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { parse } from 'yaml';

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

/** Every function group that serves routes, loaded on first use. */
const groups: Record<string, () => Promise<{ handler: Handler }>> = {
  sellers: () => import('#functions/sellers/handler.ts'),
  catalog: () => import('#functions/catalog/handler.ts'),
  vendors: () => import('#functions/vendors/handler.ts'),
  'control-units': () => import('#functions/control-units/handler.ts'),
  users: () => import('#functions/users/handler.ts'),
  activations: () => import('#functions/activations/handler.ts'),
  registrations: () => import('#functions/registrations/handler.ts'),
  fiscal: () => import('#functions/fiscal/handler.ts'),
  stats: () => import('#functions/stats/handler.ts'),
  devices: () => import('#functions/devices/handler.ts'),
  restaurants: () => import('#functions/restaurants/handler.ts'),
  images: () => import('#functions/images/handler.ts'),
  email: () => import('#functions/email/handler.ts'),
  gateway: () => import('#functions/gateway/handler.ts'),
  kd: () => import('#functions/kd/handler.ts'),
  fallback: () => import('#functions/fallback/handler.ts'),
};

interface Route {
  group: string;
  pattern: RegExp;
  /** Literal segments, then path variables: API Gateway prefers the route with more of them over a greedy one. */
  literals: number;
  greedy: boolean;
}

const template = parse(readFileSync(new URL('../../serverless.yml', import.meta.url), 'utf8')) as {
  functions: Record<string, { events?: { httpApi?: string }[] }>;
};

const routes: Route[] = Object.entries(template.functions).flatMap(([group, definition]) =>
  (definition.events ?? []).flatMap(({ httpApi }) => {
    if (typeof httpApi !== 'string') return [];
    const [, path = ''] = httpApi.split(' ');
    const segments = path.split('/').filter(Boolean);
    const pattern = segments
      .map((segment) =>
        segment.endsWith('+}') ? '.+' : segment.startsWith('{') ? '[^/]+' : segment.replace(/[.*+?^$()|[\]\\]/g, '\\$&'),
      )
      .join('/');
    return [
      {
        group,
        pattern: new RegExp(`^/${pattern}$`),
        literals: segments.filter((segment) => !segment.startsWith('{')).length,
        greedy: path.includes('+}'),
      },
    ];
  }),
);

/** The group whose route API Gateway would choose for `path` (the fallback's `$default` when none matches). */
export function groupOf(path: string): string {
  const matching = routes
    .filter((route) => route.pattern.test(path))
    .sort((a, b) => Number(a.greedy) - Number(b.greedy) || b.literals - a.literals);
  return matching[0]?.group ?? 'fallback';
}

const eventTemplate = JSON.parse(
  readFileSync(new URL('../fixtures/http-api-v2-get-tax.json', import.meta.url), 'utf8'),
) as APIGatewayProxyEventV2;
const context = { awsRequestId: 'in-process', functionName: 'in-process' } as Context;

/** The template's own credentials are not this request's. */
const withoutCredentials = ({ authorization: _authorization, ...headers }: APIGatewayProxyEventV2['headers']) => headers;

export interface InProcessAnswer {
  status: number;
  contentType: string;
  text: string;
}

/** One request to the function that serves it, answered as API Gateway would pass the answer on. */
export async function callInProcess(method: string, target: string, headers: Record<string, string>): Promise<InProcessAnswer> {
  const [path = '', query = ''] = target.split('?');
  const group = groups[groupOf(path)];
  if (!group) throw new Error(`serverless.yml names a group the test does not load: ${groupOf(path)}`);
  const { handler } = await group();
  const lowered = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  const event: APIGatewayProxyEventV2 = {
    ...eventTemplate,
    rawPath: path,
    rawQueryString: query,
    headers: { ...withoutCredentials(eventTemplate.headers), ...lowered },
    requestContext: {
      ...eventTemplate.requestContext,
      http: { ...eventTemplate.requestContext.http, method, path },
      timeEpoch: Date.now(),
    },
  };
  delete event.pathParameters;
  const result = await handler(event, context);
  const body = result.isBase64Encoded ? Buffer.from(result.body ?? '', 'base64').toString('utf8') : (result.body ?? '');
  const contentType = Object.entries(result.headers ?? {}).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  return { status: result.statusCode ?? 200, contentType: String(contentType ?? ''), text: body };
}

/** The group names serverless.yml's functions have routes for, to hold `groups` to it. */
export const routedGroups = (): string[] => [...new Set(routes.map((route) => route.group))];
export const loadedGroups = (): string[] => Object.keys(groups);

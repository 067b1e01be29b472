/**
 * Content negotiation for the documents that have a reading besides JSON (receipts and reports: docs/conventions.md
 * §16, §17). The `Accept` header's media ranges are weighed by their q-values, a more specific range deciding over a
 * wider one (`text/*` over `*\/*`); the highest weight wins, then the one named more specifically
 * (`text/html, *\/*` is HTML), then JSON. No header, `*\/*`, nothing acceptable or
 * an unreadable header: the route's fallback, JSON unless it says otherwise (never 406; a client that asks for nothing it can get still gets the document).
 */
import type { Reply } from './types.ts';

export type Representation = 'json' | 'text' | 'html';

const MEDIA: Readonly<Record<Representation, string>> = { json: 'application/json', text: 'text/plain', html: 'text/html' };
/** JSON first: it wins ties. */
const OFFERED: readonly Representation[] = ['json', 'text', 'html'];

interface Range {
  type: string;
  subtype: string;
  q: number;
}

function parseAccept(accept: string): Range[] {
  return accept.split(',').flatMap((part) => {
    const [media = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const [type, subtype] = media.split('/');
    if (!type || !subtype) return [];
    const qParam = params.find((param) => param.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    return Number.isFinite(q) ? [{ type, subtype, q: Math.min(Math.max(q, 0), 1) }] : [];
  });
}

/** The weight the header gives a media type: that of the most specific range that matches it (q 0: none). */
function weightOf(media: string, ranges: readonly Range[]): { specificity: number; q: number } {
  const [type, subtype] = media.split('/');
  let best: { specificity: number; q: number } | undefined;
  for (const range of ranges) {
    const specificity =
      range.type === type && range.subtype === subtype
        ? 2
        : range.type === type && range.subtype === '*'
          ? 1
          : range.type === '*'
            ? 0
            : -1;
    if (specificity < 0) continue;
    if (!best || specificity > best.specificity) best = { specificity, q: range.q };
  }
  return best ?? { specificity: -1, q: 0 };
}

/** Which reading the `Accept` header prefers; `fallback` (JSON unless told) without a preference. */
export function negotiate(accept: string | undefined, fallback: Representation = 'json'): Representation {
  const ranges = parseAccept(accept ?? '');
  if (ranges.length === 0) return fallback;
  let chosen: Representation = fallback;
  let weight = { specificity: -1, q: 0 };
  for (const representation of [fallback, ...OFFERED.filter((offered) => offered !== fallback)]) {
    const candidate = weightOf(MEDIA[representation], ranges);
    const better =
      candidate.q > weight.q || (candidate.q === weight.q && candidate.q > 0 && candidate.specificity > weight.specificity);
    if (better) [chosen, weight] = [representation, candidate];
  }
  return chosen;
}

/**
 * 200 with the reading the request's `Accept` header prefers: the JSON document, or its text or HTML rendering (made
 * only when asked for). `Vary: Accept` tells caches the answer depends on the header; a page carries a policy that lets
 * it load and run nothing.
 */
export function negotiated(
  headers: Readonly<Record<string, string | undefined>>,
  json: unknown,
  render: { text: () => string; html: () => string },
  options: { fallback?: Representation; etag?: number } = {},
): Reply {
  const representation = negotiate(headers.accept, options.fallback);
  const vary = { Vary: 'Accept' };
  if (representation === 'json') {
    // The ETag is the JSON document's (docs/conventions.md §5); the renderings carry none.
    return {
      status: 200,
      body: json,
      headers: { ...vary, ...(options.etag === undefined ? {} : { ETag: `"${options.etag}"` }) },
    };
  }
  if (representation === 'text') {
    return { status: 200, text: { body: render.text(), contentType: 'text/plain; charset=UTF-8' }, headers: vary };
  }
  return {
    status: 200,
    text: { body: render.html(), contentType: 'text/html; charset=UTF-8' },
    headers: {
      ...vary,
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    },
  };
}

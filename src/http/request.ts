/**
 * A request as the pipeline takes it, whoever read it: Node's HTTP server (`io.ts`) or a Fetch API `Request`
 * (`fetch-io.ts`, for msw and the browser). Nothing here needs Node.
 */
import type { IncomingMessage } from 'node:http';
import { MAX_BODY_DEPTH, type BodyRefusal, type Exchange } from '../exchange/exchange.js';

/** A request as read, before its partition gives it an id and a time. */
export type IncomingExchange = Omit<Exchange, 'id' | 'now'>;

const EMPTY = Buffer.alloc(0);

/** The request read so far as an exchange; `body` is undefined when it was longer than the limit. */
export function incomingExchange(
  method: string,
  target: RequestTarget,
  headers: IncomingMessage['headers'],
  body: Buffer | undefined,
): IncomingExchange {
  const bodyRefused: BodyRefusal | undefined = !body
    ? 'too-large'
    : body.length > 0 && nestingDepth(body) > MAX_BODY_DEPTH
      ? 'too-deep'
      : undefined;
  const exchange: IncomingExchange & Pick<Exchange, 'id' | 'now'> = {
    // Given by the partition that takes it; present from the start so every exchange has one shape.
    id: '',
    now: 0,
    method: method.toUpperCase(),
    pathname: target.pathname,
    search: target.search,
    searchParams: target.searchParams,
    headers,
    rawBody: body && !bodyRefused ? body : EMPTY,
    ...(bodyRefused ? { bodyRefused } : {}),
  };
  return exchange;
}

/**
 * The headers with lower-case names, as an exchange keeps them (`Exchange.headers`): the same object when they
 * already are, as Node's parser and the Fetch standard give them; else a copy, names that meet joined as Node
 * joins a repeated header. Others come from happy-dom's Headers, or a host app's middleware in front of `createApp`.
 */
export function lowerCaseNames(headers: IncomingMessage['headers']): IncomingMessage['headers'] {
  for (const name in headers) if (name !== name.toLowerCase()) return lowered(headers);
  return headers;
}

function lowered(headers: IncomingMessage['headers']): IncomingMessage['headers'] {
  const out: IncomingMessage['headers'] = {};
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    const known = Object.hasOwn(out, lower) ? out[lower] : undefined;
    if (known === undefined) out[lower] = value;
    else if (lower === 'set-cookie') out[lower] = [known, value].flat();
    else out[lower] = [known, value].flat().join(lower === 'cookie' ? '; ' : ', ');
  }
  return out;
}

/** Where a request goes: its path, its query as sent (`?a=1`, or empty) and that query read. */
export interface RequestTarget {
  pathname: string;
  search: string;
  searchParams: URLSearchParams;
}

/**
 * Paths and queries a URL parser would leave as they are: no dot segments (`/.`, `%2e`), nothing it would
 * percent-encode, no fragment. Almost every request-target is one; they skip the parser.
 */
const PLAIN_PATH = /^\/(?!\/|[.]|%2[eE])(?:[A-Za-z0-9\-_~!$&()*+,;=:@]|%(?![2][eE])|\/(?![.]|%2[eE])|\.)*$/;
const PLAIN_QUERY = /^[A-Za-z0-9\-._~%!$&()*+,;=:@/?]*$/;

/**
 * The request-target read the way a URL parser reads it, whatever form it came in: origin-form
 * (`/api/plugin?x`), absolute-form (a client talking to us as to a proxy: routed by its path) or something no
 * URL parser takes (routed as the path it is not, so it meets "no operation matches" rather than a crash).
 */
export function requestTarget(raw: string): RequestTarget {
  const mark = raw.indexOf('?');
  const path = mark < 0 ? raw : raw.slice(0, mark);
  const query = mark < 0 ? '' : raw.slice(mark + 1);
  if (PLAIN_PATH.test(path) && PLAIN_QUERY.test(query)) {
    return { pathname: path, search: query === '' ? '' : `?${query}`, searchParams: new URLSearchParams(query) };
  }
  return parsedTarget(raw);
}

/** The request-target through a URL parser: the reference `requestTarget`'s shortcut must agree with. */
export function parsedTarget(raw: string): URL {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) {
    try {
      const absolute = new URL(raw);
      return new URL(`http://sim.invalid${absolute.pathname}${absolute.search}`);
    } catch {
      // not a URL after all: falls through to be read as a path
    }
  }
  try {
    // Prefixing the origin keeps a path like `//api/plugin` a path instead of a host.
    return new URL(`http://sim.invalid${raw.startsWith('/') ? '' : '/'}${raw}`);
  } catch {
    return new URL(`http://sim.invalid/${encodeURIComponent(raw)}`);
  }
}

/** How deep brackets nest in a JSON text, strings skipped; one pass over the bytes, no parsing. */
function nestingDepth(bytes: Buffer): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === 0x5c)
        i++; // backslash: the next byte is escaped
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) inString = true;
    else if (byte === 0x5b || byte === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (byte === 0x5d || byte === 0x7d) depth--;
  }
  return deepest;
}

/** CORS as the real server does it: any origin, reflected; preflights answer 204 for a day. */
export function corsHeaders(headers: IncomingMessage['headers']): Record<string, string> {
  const origin = headers.origin;
  if (!origin) return { vary: 'Origin' };
  return {
    vary: 'Origin',
    'access-control-allow-origin': origin,
    'access-control-allow-credentials': 'true',
    // Let browser code read the simulator's explanations and the auth challenge.
    'access-control-expose-headers':
      'x-sim-layer, x-sim-operation, x-sim-request-id, x-sim-violations, x-sim-rule, x-sim-partition, www-authenticate',
  };
}

export function preflightHeaders(headers: IncomingMessage['headers']): Record<string, string> {
  return {
    ...corsHeaders(headers),
    'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
    'access-control-allow-headers': headers['access-control-request-headers'] ?? 'content-type, authorization, prefer',
    'access-control-max-age': '86400',
  };
}

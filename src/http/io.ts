/**
 * The two ends of an exchange on plain Node types: reading a request into an `Exchange`, and writing an
 * answer. Kept free of Express so the pipeline can be embedded anywhere and measured without it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface Exchange {
  id: string;
  now: number;
  method: string;
  pathname: string;
  /** The query as sent (`?a=1`, or empty), for forwarding byte for byte. */
  search: string;
  searchParams: URLSearchParams;
  headers: IncomingMessage['headers'];
  rawBody: Buffer;
  /** The body was longer than the limit; `rawBody` holds nothing then. */
  bodyTooLarge: boolean;
}

export interface Answer {
  status: number;
  /** A JSON value, serialised when sent (unless `raw` is given). */
  body?: unknown;
  headers?: Record<string, string>;
  /** Exact bytes to send (a forwarded answer); `body` is then their parsed form, for checking. */
  raw?: Buffer;
  /** A stream to pipe through as it comes (server-sent events). */
  stream?: NodeJS.ReadableStream;
  /** Which layer produced it, when a responder speaks for several (replay, record, upstream). */
  layer?: string;
}

/** Node's header object as one string per name (repeated headers joined), leaving out `drop`. */
export function flatHeaders(headers: IncomingMessage['headers'], drop: ReadonlySet<string> = new Set()): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !drop.has(name)) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

export async function readExchange(req: IncomingMessage, id: string, now: number, bodyLimit: number): Promise<Exchange> {
  // Prefixing the origin keeps a path like `//api/plugin` a path instead of a host.
  const url = new URL(`http://sim.invalid${req.url ?? '/'}`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    // Keep draining past the limit so the client still gets an answer, but hold nothing more.
    if (size <= bodyLimit) chunks.push(chunk as Buffer);
  }
  return {
    id,
    now,
    method: (req.method ?? 'GET').toUpperCase(),
    pathname: url.pathname,
    search: url.search,
    searchParams: url.searchParams,
    headers: req.headers,
    rawBody: size <= bodyLimit ? Buffer.concat(chunks) : Buffer.alloc(0),
    bodyTooLarge: size > bodyLimit,
  };
}

export function writeAnswer(res: ServerResponse, answer: Answer, extraHeaders: Record<string, string>): void {
  const headers: Record<string, string> = { ...extraHeaders, ...answer.headers };
  if (answer.stream) {
    res.writeHead(answer.status, headers);
    res.flushHeaders();
    answer.stream.pipe(res);
    return;
  }
  if (answer.raw) {
    res.writeHead(answer.status, { ...headers, 'content-length': String(answer.raw.length) });
    res.end(res.req.method === 'HEAD' ? undefined : answer.raw);
    return;
  }
  if (answer.body === undefined || answer.status === 204) {
    res.writeHead(answer.status, { ...headers, 'content-length': '0' });
    res.end();
    return;
  }
  const text = JSON.stringify(answer.body);
  res.writeHead(answer.status, {
    ...headers,
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
  });
  // HEAD gets the headers GET would get, and no body.
  res.end(res.req.method === 'HEAD' ? undefined : text);
}

/** CORS as the real server does it: any origin, reflected; preflights answer 204 for a day. */
export function corsHeaders(req: IncomingMessage): Record<string, string> {
  const origin = req.headers.origin;
  if (!origin) return { vary: 'Origin' };
  return {
    vary: 'Origin',
    'access-control-allow-origin': origin,
    'access-control-allow-credentials': 'true',
    // Let browser code read the simulator's explanations and the auth challenge.
    'access-control-expose-headers': 'x-sim-layer, x-sim-operation, x-sim-request-id, x-sim-violations, x-sim-rule, www-authenticate',
  };
}

export function preflightHeaders(req: IncomingMessage): Record<string, string> {
  return {
    ...corsHeaders(req),
    'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
    'access-control-allow-headers': req.headers['access-control-request-headers'] ?? 'content-type, authorization, prefer',
    'access-control-max-age': '86400',
  };
}

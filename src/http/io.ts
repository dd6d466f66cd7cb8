/**
 * The two ends of an exchange on plain Node types: reading a request into an `Exchange`, and writing an
 * answer. Kept free of Express so the pipeline can be embedded anywhere and measured without it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MAX_BODY_DEPTH, jsonText, type Answer, type BodyRefusal, type Exchange } from '../exchange/exchange.js';
import { pipeline } from 'node:stream';
import { acceptWebSocket, upgradeOf } from './websocket.js';

/** A request as read, before its partition gives it an id and a time. */
export type IncomingExchange = Omit<Exchange, 'id' | 'now'>;

/**
 * The request as an exchange: at once when it carries no body (most do not, and waiting for the end of an
 * empty stream would put every answer a turn of the event loop later), else once the body is in.
 */
export function readExchange(req: IncomingMessage, bodyLimit: number): IncomingExchange | Promise<IncomingExchange> {
  const url = requestTarget(req.url ?? '/');
  const { headers } = req;
  const declared = headers['content-length'];
  if (headers['transfer-encoding'] === undefined && (declared === undefined || declared === '0'))
    return exchangeOf(req, url, EMPTY);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // Keep draining past the limit so the client still gets an answer, but hold nothing more.
      if (size <= bodyLimit) chunks.push(chunk);
    });
    req.once('end', () => resolve(exchangeOf(req, url, size <= bodyLimit ? Buffer.concat(chunks) : undefined)));
    req.once('error', reject);
    // A client gone mid-body never ends it: `close` without `end` settles the wait.
    req.once('close', () => {
      if (!req.complete) reject(new Error('the client went away mid-body'));
    });
  });
}

const EMPTY = Buffer.alloc(0);

function exchangeOf(req: IncomingMessage, url: RequestTarget, body: Buffer | undefined): IncomingExchange {
  const bodyRefused: BodyRefusal | undefined = !body
    ? 'too-large'
    : body.length > 0 && nestingDepth(body) > MAX_BODY_DEPTH
      ? 'too-deep'
      : undefined;
  const exchange: IncomingExchange & Pick<Exchange, 'id' | 'now'> = {
    // Given by the partition that takes it; present from the start so every exchange has one shape.
    id: '',
    now: 0,
    method: (req.method ?? 'GET').toUpperCase(),
    pathname: url.pathname,
    search: url.search,
    searchParams: url.searchParams,
    headers: req.headers,
    rawBody: body && !bodyRefused ? body : EMPTY,
    ...(bodyRefused ? { bodyRefused } : {}),
  };
  const upgrade = upgradeOf(req);
  if (upgrade) exchange.upgrade = upgrade;
  return exchange;
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

export function writeAnswer(res: ServerResponse, answer: Answer, extraHeaders: Record<string, string>): void {
  if (answer.kind === 'drop') {
    // resetAndDestroy sends a TCP RST where the platform allows, which is what a client sees from a crashed server.
    res.socket?.resetAndDestroy();
    res.destroy();
    return;
  }
  const headers: Record<string, string> = { ...extraHeaders };
  // The x-sim-* headers say what this simulator did: an upstream's (another simulator's, or a recording of
  // one) would tell the client the wrong layer, rule or operation.
  if (answer.headers)
    for (const name in answer.headers) if (!name.startsWith('x-sim-')) headers[name] = answer.headers[name] as string;
  // HEAD gets the headers GET would get, and no body.
  const head = res.req.method === 'HEAD';
  switch (answer.kind) {
    case 'upgrade':
      // Only a handshake's exchange is answered so (see `Exchange.upgrade`); anything else has no socket to give.
      if (!acceptWebSocket(res, headers, answer.open)) res.destroy();
      return;
    case 'stream':
      res.writeHead(answer.status, headers);
      if (head) {
        // The head alone, and the stream let go (an event subscription would otherwise stay subscribed).
        res.end();
        (answer.stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
        return;
      }
      res.flushHeaders();
      // pipeline, not pipe: a client that goes away must also end the source (an upstream stream, or an
      // event subscription that would otherwise stay subscribed), and a source that fails ends the answer.
      pipeline(answer.stream, res, () => {});
      return;
    case 'raw':
      headers['content-length'] = String(answer.raw.length);
      res.writeHead(answer.status, headers);
      res.end(head ? undefined : answer.raw);
      return;
    case 'empty':
      headers['content-length'] = '0';
      res.writeHead(answer.status, headers);
      res.end();
      return;
    case 'json': {
      if (answer.status === 204 || answer.body === undefined) {
        headers['content-length'] = '0';
        res.writeHead(answer.status, headers);
        res.end();
        return;
      }
      const text = jsonText(answer);
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(text));
      res.writeHead(answer.status, headers);
      res.end(head ? undefined : text);
    }
  }
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
    'access-control-expose-headers':
      'x-sim-layer, x-sim-operation, x-sim-request-id, x-sim-violations, x-sim-rule, x-sim-partition, www-authenticate',
  };
}

export function preflightHeaders(req: IncomingMessage): Record<string, string> {
  return {
    ...corsHeaders(req),
    'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
    'access-control-allow-headers':
      req.headers['access-control-request-headers'] ?? 'content-type, authorization, prefer',
    'access-control-max-age': '86400',
  };
}

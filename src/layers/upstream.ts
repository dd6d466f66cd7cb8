/**
 * Forwards an exchange to the real server: method, path, query, body and end-to-end headers; hop-by-hop
 * headers are dropped both ways. Event streams come back as streams, untouched; everything else is read
 * whole so it can be checked against the spec. Any failure of the upstream becomes a `SimUpstreamError`.
 */
// Namespaces, not named imports: request is looked up per call, so interceptors (nock in tests) see it.
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import type * as Undici from 'undici';
import type { Pool } from 'undici';
import { keepBounded } from '../caches/bounded-map.js';
import { SimUpstreamError } from '../errors/errors.js';
import { flatHeaders, type Answer, type Exchange } from '../exchange/exchange.js';
import { LeanClientError, LeanPool, type LeanClientAnswer } from '../http/lean-client.js';

/** RFC 9110 §7.6.1 connection-specific headers, plus `host` (it names the upstream, not us). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
]);

export interface Upstream {
  url: URL;
  timeoutMs: number;
}

/** What is never passed on: hop-by-hop headers, plus those each side sets for itself. */
const NOT_FORWARDED = new Set([...HOP_BY_HOP, 'accept-encoding', 'content-length']);
/**
 * What the lean client and undici are not given either: `expect` (100-continue), since the simulator has the
 * whole body already and sends it at once.
 */
const NOT_SENT = new Set([...NOT_FORWARDED, 'expect']);
const NOT_ANSWERED = new Set([...HOP_BY_HOP, 'content-length']);

/**
 * Headers minus `drop`, and minus those the message's own `Connection` header names (usually only `keep-alive`
 * or `close`, already dropped: the set is then shared, not built per message).
 */
function endToEnd(headers: IncomingMessage['headers'], drop: ReadonlySet<string>): Record<string, string> {
  const named = headers.connection;
  if (named === undefined || named === '') return flatHeaders(headers, drop);
  const extra = String(named)
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter((h) => !drop.has(h));
  return flatHeaders(headers, extra.length ? new Set([...drop, ...extra]) : drop);
}

/**
 * Connections to each upstream, kept open between requests; closed with `releaseUpstream`. Three clients:
 * - the lean client (`http/lean-client.ts`) for a plain-HTTP upstream: keep-alive, one request at a time on each
 *   connection, as many connections as requests in flight. A forwarded request costs the simulator less CPU
 *   through it than through undici's Pool (bench/profile-notes.md has the alternated runs).
 * - undici's Pool, the same way, for an HTTPS upstream.
 * - node:http's request, whenever something has replaced `http.request` (nock, or msw's interceptors, in a test
 *   process): those script upstreams by patching node:http and the global fetch, and the other two clients would
 *   go past them to the network. Checked per request, so an interceptor switched on or off later is seen.
 */
interface Connections {
  lean?: LeanPool;
  pool?: Pool;
  agent?: http.Agent;
}
const connections = new WeakMap<Upstream, Connections>();
function connectionsOf(upstream: Upstream): Connections {
  let kept = connections.get(upstream);
  if (!kept) connections.set(upstream, (kept = {}));
  return kept;
}

/**
 * undici, loaded when a first request is forwarded: the mock never needs it, and it is as large as the rest of
 * the simulator, a start-up cost for every mock otherwise.
 */
let undici: Promise<typeof Undici> | undefined;

async function poolFor(upstream: Upstream): Promise<Pool> {
  const kept = connectionsOf(upstream);
  if (kept.pool) return kept.pool;
  const { Pool } = await (undici ??= import('undici'));
  // No cap of its own: as many requests go upstream at once as clients send (the server's limits bound those).
  kept.pool ??= new Pool(upstream.url.origin, {
    pipelining: 1,
    headersTimeout: upstream.timeoutMs,
    bodyTimeout: upstream.timeoutMs,
    connect: { timeout: upstream.timeoutMs },
  });
  return kept.pool;
}

function agentFor(upstream: Upstream): http.Agent {
  const kept = connectionsOf(upstream);
  const options: http.AgentOptions = { keepAlive: true, scheduling: 'lifo' };
  kept.agent ??= upstream.url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
  return kept.agent;
}

/** Closes the connections kept open to the upstream (at shutdown). */
export function releaseUpstream(upstream: Upstream): void {
  const kept = connections.get(upstream);
  kept?.agent?.destroy();
  kept?.pool?.destroy().catch(() => {});
  kept?.lean?.destroy();
  connections.delete(upstream);
}

/** Node's own `http.request` is `function request(url, options, cb) { return new ClientRequest(...) }`. */
const NODES_OWN_REQUEST =
  /^function request\(url, options, cb\) \{\s*return new ClientRequest\(url, options, cb\);?\s*\}$/;
let seenRequest: unknown;
let ownRequest = false;
/** Whether `http.request` is still Node's own (no interceptor has replaced it): then undici may forward. */
export function httpIsNodesOwn(): boolean {
  if (http.request !== seenRequest) {
    seenRequest = http.request;
    // A Proxy (how @mswjs/interceptors, under nock 14, wraps it) prints as native code; a replacement prints its own source.
    ownRequest = NODES_OWN_REQUEST.test(Function.prototype.toString.call(http.request));
  }
  return ownRequest;
}

/**
 * Ask for identity encoding: answers are checked (and, later, recorded) as plain text. One object, added to
 * and never deleted from: a spread copy, or a deleted key, sends a forwarded request down V8's slow path.
 */
function forwardedHeaders(exchange: Exchange, drop: ReadonlySet<string> = NOT_FORWARDED): Record<string, string> {
  const headers = endToEnd(exchange.headers, drop);
  headers['accept-encoding'] = 'identity';
  return headers;
}

/** Never the query or credentials: this sentence is answered, kept for the inspector and logged. */
function whereOf(exchange: Exchange, upstream: Upstream): string {
  return `${exchange.method} ${upstream.url.origin}${exchange.pathname}`;
}

function failure(where: string, upstream: Upstream, code: string, message: string): SimUpstreamError {
  const why =
    code === 'ECONNREFUSED'
      ? 'nothing is listening there'
      : code === 'ETIMEDOUT'
        ? `no answer within ${upstream.timeoutMs} ms`
        : code === 'ECONNRESET'
          ? 'the connection was reset'
          : message;
  return new SimUpstreamError(where, why, code);
}

/**
 * Bodies parsed from small upstream answers, by their bytes: an upstream asked the same thing again mostly
 * answers the same bytes (a polled shell, a page, a list), and the same bytes are the same JSON value. It is
 * served as the same object, never changed, so that its check against the spec is made once (`served`) and
 * the text is not parsed again. Kept by length, a few bodies a length, each compared byte for byte: a key
 * made of the bytes as text would cost every forwarded answer a string and its hash.
 */
const SMALL_BODY = 2048;
const LENGTHS_KEPT = 128;
const BODIES_A_LENGTH = 4;
interface ParsedBody {
  raw: Buffer;
  body: object;
}
const parsedBodies = new Map<number, ParsedBody[]>();

function knownBody(raw: Buffer): object | undefined {
  const kept = parsedBodies.get(raw.length);
  if (kept) for (const known of kept) if (known.raw.equals(raw)) return known.body;
  return undefined;
}

function keepBody(raw: Buffer, body: object): void {
  // Bytes of its own: `raw` may be a view of a larger read, which a pooled copy would keep alive as well.
  const own = Buffer.allocUnsafeSlow(raw.length);
  raw.copy(own);
  let kept = parsedBodies.get(raw.length);
  if (!kept) keepBounded(parsedBodies, LENGTHS_KEPT, raw.length, (kept = []));
  if (kept.length >= BODIES_A_LENGTH) kept.pop();
  kept.unshift({ raw: own, body });
}

/** The answer once its body is in: parsed when it is JSON (a malformed one is the upstream's failure). */
function settled(
  where: string,
  status: number,
  headers: Record<string, string>,
  contentType: string,
  raw: Buffer,
): Answer {
  if (!contentType.includes('json') || !raw.length) return { kind: 'raw', status, headers, raw };
  const small = raw.length <= SMALL_BODY;
  const known = small ? knownBody(raw) : undefined;
  if (known) return { kind: 'raw', status, headers, body: known, raw, served: true };
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new SimUpstreamError(where, 'the upstream answered malformed JSON', 'EBADJSON');
  }
  if (!small || typeof body !== 'object' || body === null) return { kind: 'raw', status, headers, body, raw };
  keepBody(raw, body);
  return { kind: 'raw', status, headers, body, raw, served: true };
}

export function forward(exchange: Exchange, upstream: Upstream): Promise<Answer> {
  if (!httpIsNodesOwn()) return forwardByHttp(exchange, upstream);
  return upstream.url.protocol === 'http:' ? forwardByLean(exchange, upstream) : forwardByPool(exchange, upstream);
}

/** The headers sent on, with credentials written into --upstream as Basic auth (unless the client sent its own). */
function headersWithCredentials(exchange: Exchange, base: URL): Record<string, string> {
  const headers = forwardedHeaders(exchange, NOT_SENT);
  if (base.username && headers.authorization === undefined) {
    const user = `${decodeURIComponent(base.username)}:${decodeURIComponent(base.password)}`;
    headers.authorization = `Basic ${Buffer.from(user).toString('base64')}`;
  }
  return headers;
}

/** The headers answered for each head the lean client read (it gives the same object for the same head). */
const answeredHeaders = new WeakMap<object, Record<string, string>>();

function leanPoolFor(upstream: Upstream): LeanPool {
  const kept = connectionsOf(upstream);
  const { hostname, port, host } = upstream.url;
  kept.lean ??= new LeanPool(hostname.replace(/^\[|\]$/g, ''), Number(port || 80), host, upstream.timeoutMs);
  return kept.lean;
}

async function forwardByLean(exchange: Exchange, upstream: Upstream): Promise<Answer> {
  const where = whereOf(exchange, upstream);
  let res: LeanClientAnswer;
  try {
    res = await leanPoolFor(upstream).request({
      // The request's own path on the upstream's origin (a path like `//x` stays a path, never another host).
      path: `${exchange.pathname}${exchange.search}`,
      method: exchange.method,
      headers: headersWithCredentials(exchange, upstream.url),
      body: exchange.rawBody.length ? exchange.rawBody : undefined,
    });
  } catch (error) {
    // Once the answer has begun, the client's own sentence says what went wrong with it.
    if (error instanceof LeanClientError && error.answered)
      throw new SimUpstreamError(where, error.message, error.code);
    const { code, message } = error as NodeJS.ErrnoException;
    throw failure(where, upstream, code ?? 'EUPSTREAM', message);
  }
  let answerHeaders = answeredHeaders.get(res.headers);
  if (!answerHeaders) answeredHeaders.set(res.headers, (answerHeaders = endToEnd(res.headers, NOT_ANSWERED)));
  if ('stream' in res) {
    // Unheard, a failure of the stream after its consumer let go would end the process.
    res.stream.on('error', () => {});
    return { kind: 'stream', status: res.status, headers: answerHeaders, stream: res.stream };
  }
  return settled(where, res.status, answerHeaders, String(res.headers['content-type'] ?? ''), res.body);
}

/** undici's error codes as the ones node:http gives (and `SimUpstreamError` names). */
function undiciCode(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'ETIMEDOUT';
    case 'UND_ERR_SOCKET':
      return 'ECONNRESET';
    default:
      return error.code ?? 'EUPSTREAM';
  }
}

async function forwardByPool(exchange: Exchange, upstream: Upstream): Promise<Answer> {
  const headers = headersWithCredentials(exchange, upstream.url);
  const where = whereOf(exchange, upstream);
  let res: Awaited<ReturnType<Pool['request']>>;
  try {
    // The pool once made, without a turn of the event loop for the await.
    const pool = connections.get(upstream)?.pool ?? (await poolFor(upstream));
    res = await pool.request({
      // The request's own path on the upstream's origin (a path like `//x` stays a path, never another host).
      path: `${exchange.pathname}${exchange.search}`,
      method: exchange.method,
      headers,
      body: exchange.rawBody.length ? exchange.rawBody : undefined,
    });
  } catch (error) {
    throw failure(where, upstream, undiciCode(error as NodeJS.ErrnoException), (error as Error).message);
  }
  const status = res.statusCode;
  const answerHeaders = endToEnd(res.headers as IncomingMessage['headers'], NOT_ANSWERED);
  const contentType = String(res.headers['content-type'] ?? '');
  if (contentType.startsWith('text/event-stream')) {
    const stream = res.body as Readable;
    // undici's body reports being let go (destroy(): the client went away, a HEAD answer needs no body) as an
    // AbortError; unheard, that would end the process. Whoever pipes the stream on still hears real failures.
    stream.on('error', () => {});
    return { kind: 'stream', status, headers: answerHeaders, stream };
  }
  const chunks = await new Promise<Buffer[]>((resolve, reject) => {
    // Events, not `for await`: the async iterator costs more than the rest of reading a small answer.
    const read: Buffer[] = [];
    res.body.on('data', (chunk: Buffer) => read.push(chunk));
    res.body.once('end', () => resolve(read));
    res.body.once('error', (error: NodeJS.ErrnoException) =>
      reject(new SimUpstreamError(where, 'the upstream broke off its answer', undiciCode(error))),
    );
  });
  return settled(
    where,
    status,
    answerHeaders,
    contentType,
    chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks),
  );
}

function forwardByHttp(exchange: Exchange, upstream: Upstream): Promise<Answer> {
  const base = upstream.url;
  const headers = forwardedHeaders(exchange);
  if (exchange.rawBody.length) headers['content-length'] = String(exchange.rawBody.length);
  const send = base.protocol === 'https:' ? https.request : http.request;
  // Credentials written into --upstream are sent as Basic auth, as a URL request would send them.
  const auth = base.username ? `${decodeURIComponent(base.username)}:${decodeURIComponent(base.password)}` : undefined;
  const where = whereOf(exchange, upstream);

  return new Promise<Answer>((resolve, reject) => {
    const request = {
      protocol: base.protocol,
      hostname: base.hostname.replace(/^\[|\]$/g, ''),
      port: base.port,
      // The request's own path on the upstream's origin (a path like `//x` stays a path, never another host).
      path: `${exchange.pathname}${exchange.search}`,
      auth,
      method: exchange.method,
      headers,
      timeout: upstream.timeoutMs,
      agent: agentFor(upstream),
    };
    const req = send(request, (res) => {
      const status = res.statusCode ?? 502;
      const answerHeaders = endToEnd(res.headers, NOT_ANSWERED);
      const contentType = String(res.headers['content-type'] ?? '');
      if (contentType.startsWith('text/event-stream')) {
        resolve({ kind: 'stream', status, headers: answerHeaders, stream: res });
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', (error) =>
        reject(new SimUpstreamError(where, 'the upstream broke off its answer', (error as NodeJS.ErrnoException).code)),
      );
      res.on('end', () => {
        try {
          resolve(settled(where, status, answerHeaders, contentType, Buffer.concat(chunks)));
        } catch (error) {
          reject(error);
        }
      });
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })));
    req.on('error', (error: NodeJS.ErrnoException) =>
      reject(failure(where, upstream, error.code ?? 'EUPSTREAM', error.message)),
    );
    req.end(exchange.rawBody.length ? exchange.rawBody : undefined);
  });
}

/**
 * Forwards an exchange to the real server: method, path, query, body and end-to-end headers; hop-by-hop
 * headers are dropped both ways. Event streams come back as streams, untouched; everything else is read
 * whole so it can be checked against the spec. Any failure of the upstream becomes a `SimUpstreamError`.
 */
// Namespaces, not named imports: request is looked up per call, so interceptors (nock in tests) see it.
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { SimUpstreamError } from '../errors.js';
import { flatHeaders, type Answer, type Exchange } from '../exchange/exchange.js';

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

/** Headers minus hop-by-hop ones, including those the message's own `Connection` header names. */
function endToEnd(headers: IncomingMessage['headers'], drop: string[] = []): Record<string, string> {
  return flatHeaders(
    headers,
    new Set([
      ...HOP_BY_HOP,
      ...drop,
      ...String(headers.connection ?? '')
        .split(',')
        .map((h) => h.trim().toLowerCase()),
    ]),
  );
}

/**
 * Connections to each upstream, kept open between requests: a proxy under load otherwise spends much of its
 * time setting up requests (the shared default agent, a URL parsed for each). Closed with `releaseUpstream`.
 */
const agents = new WeakMap<Upstream, http.Agent>();
function agentFor(upstream: Upstream): http.Agent {
  let agent = agents.get(upstream);
  if (!agent) {
    // No cap of its own: as many requests go upstream at once as clients send (the server's limits bound those).
    const options: http.AgentOptions = { keepAlive: true, scheduling: 'lifo' };
    agent = upstream.url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
    agents.set(upstream, agent);
  }
  return agent;
}

/** Closes the connections kept open to the upstream (at shutdown). */
export function releaseUpstream(upstream: Upstream): void {
  agents.get(upstream)?.destroy();
  agents.delete(upstream);
}

export function forward(exchange: Exchange, upstream: Upstream): Promise<Answer> {
  const base = upstream.url;
  // Ask for identity encoding: answers are checked (and, later, recorded) as plain text.
  const headers: Record<string, string> = {
    ...endToEnd(exchange.headers, ['accept-encoding', 'content-length']),
    'accept-encoding': 'identity',
  };
  if (exchange.rawBody.length) headers['content-length'] = String(exchange.rawBody.length);
  const send = base.protocol === 'https:' ? https.request : http.request;
  // The request's own path on the upstream's origin (a path like `//x` stays a path, never another host).
  const path = `${exchange.pathname}${exchange.search}`;
  // Credentials written into --upstream are sent as Basic auth, as a URL request would send them.
  const auth = base.username ? `${decodeURIComponent(base.username)}:${decodeURIComponent(base.password)}` : undefined;
  // Never the query or credentials: this sentence is answered, kept for the inspector and logged.
  const where = `${exchange.method} ${base.origin}${exchange.pathname}`;

  return new Promise<Answer>((resolve, reject) => {
    const request = {
      protocol: base.protocol,
      hostname: base.hostname.replace(/^\[|\]$/g, ''),
      port: base.port,
      path,
      auth,
      method: exchange.method,
      headers,
      timeout: upstream.timeoutMs,
      agent: agentFor(upstream),
    };
    const req = send(request, (res) => {
      const status = res.statusCode ?? 502;
      const answerHeaders = endToEnd(res.headers, ['content-length']);
      if (String(res.headers['content-type'] ?? '').startsWith('text/event-stream')) {
        resolve({ kind: 'stream', status, headers: answerHeaders, stream: res });
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', (error) =>
        reject(new SimUpstreamError(where, 'the upstream broke off its answer', (error as NodeJS.ErrnoException).code)),
      );
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        let body: unknown;
        if (String(res.headers['content-type'] ?? '').includes('json') && raw.length) {
          try {
            body = JSON.parse(raw.toString('utf8'));
          } catch {
            reject(new SimUpstreamError(where, 'the upstream answered malformed JSON', 'EBADJSON'));
            return;
          }
        }
        resolve({ kind: 'raw', status, headers: answerHeaders, body, raw });
      });
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })));
    req.on('error', (error: NodeJS.ErrnoException) => {
      const code = error.code ?? 'EUPSTREAM';
      const why =
        code === 'ECONNREFUSED'
          ? 'nothing is listening there'
          : code === 'ETIMEDOUT'
            ? `no answer within ${upstream.timeoutMs} ms`
            : code === 'ECONNRESET'
              ? 'the connection was reset'
              : error.message;
      reject(new SimUpstreamError(where, why, code));
    });
    req.end(exchange.rawBody.length ? exchange.rawBody : undefined);
  });
}

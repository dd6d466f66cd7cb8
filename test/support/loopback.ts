/**
 * Real sockets for tests that race requests or stand in for the upstream: a loopback node:http upstream, a
 * plain HTTP client over node:http with an Agent, and a start gate that holds N requests on their sockets with
 * their last byte unsent, then releases all of them in one tick, so the simulator reads them back to back.
 */
import {
  request as httpRequest,
  createServer,
  type Agent,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface Upstream {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/** A node:http server on 127.0.0.1 handed the whole request body (as text) with each request. */
export async function startUpstream(
  handler: (req: IncomingMessage, body: string, res: ServerResponse) => void,
): Promise<Upstream> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => handler(req, Buffer.concat(chunks).toString('utf8'), res));
  });
  // The simulator may open many connections at once: do not let the listen backlog be the bottleneck.
  await new Promise<void>((resolve) => server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    server,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** The body parsed as JSON, when it is JSON. */
  json: unknown;
}

export interface Outgoing {
  method?: string;
  /** Path and query, e.g. `/api/plugin?x=1`. */
  path: string;
  headers?: Record<string, string>;
  /** Sent as JSON unless it is a string. */
  body?: unknown;
}

function bodyBytes(body: unknown): Buffer | undefined {
  if (body === undefined) return undefined;
  return Buffer.from(typeof body === 'string' ? body : JSON.stringify(body), 'utf8');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** One request over node:http (through `agent` when given), read whole; rejects after `timeoutMs` of silence. */
export function send(
  base: string,
  outgoing: Outgoing,
  options: { agent?: Agent; timeoutMs?: number } = {},
): Promise<Reply> {
  const body = bodyBytes(outgoing.body);
  const headers: Record<string, string> = {
    ...(body ? { 'content-type': 'application/json', 'content-length': String(body.length) } : {}),
    ...outgoing.headers,
  };
  return new Promise<Reply>((resolve, reject) => {
    const req = httpRequest(
      `${base}${outgoing.path}`,
      { method: outgoing.method ?? 'GET', headers, agent: options.agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: parseJson(text) });
        });
      },
    );
    req.setTimeout(options.timeoutMs ?? 10_000, () =>
      req.destroy(
        new Error(`no answer to ${outgoing.method ?? 'GET'} ${outgoing.path} within ${options.timeoutMs ?? 10_000} ms`),
      ),
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The raw bytes of a request: HTTP/1.1, `Connection: close`, so the answer is whatever comes before the end. */
function rawRequest(host: string, outgoing: Outgoing): Buffer {
  const body = bodyBytes(outgoing.body) ?? Buffer.alloc(0);
  const headers: Record<string, string> = {
    host,
    connection: 'close',
    ...(body.length ? { 'content-type': 'application/json' } : {}),
    'content-length': String(body.length),
    ...outgoing.headers,
  };
  const head = `${outgoing.method ?? 'GET'} ${outgoing.path} HTTP/1.1\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), body]);
}

/** Reads a whole HTTP/1.1 answer (the simulator always sends content-length, and closes as asked). */
function parseRaw(bytes: Buffer): Reply {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`no complete answer: ${JSON.stringify(bytes.toString('latin1').slice(0, 200))}`);
  const [statusLine = '', ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const headers: IncomingHttpHeaders = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? bytes.length - end - 4);
  const text = bytes.subarray(end + 4, end + 4 + length).toString('utf8');
  return { status: Number(statusLine.split(' ')[1]), headers, text, json: parseJson(text) };
}

/**
 * Opens one socket per request and writes each request but its last byte; once every socket is connected and
 * every partial request written (and `server`, when given, has accepted every connection), writes the last
 * bytes in one synchronous loop. The simulator then reads the requests to the end back to back, as close to
 * simultaneously as one event loop allows. Answers come back in the order of `requests`.
 */
export async function sendTogether(
  base: string,
  requests: Outgoing[],
  options: { server?: Server; timeoutMs?: number } = {},
): Promise<Reply[]> {
  const url = new URL(base);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const sockets: Socket[] = [];
  const pending = requests.map((outgoing) => {
    const bytes = rawRequest(url.host, outgoing);
    const socket = connect({ host: url.hostname, port: Number(url.port) });
    sockets.push(socket);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    const answered = new Promise<Reply>((resolve, reject) => {
      socket.setTimeout(timeoutMs, () =>
        socket.destroy(new Error(`no answer to ${outgoing.method ?? 'GET'} ${outgoing.path} within ${timeoutMs} ms`)),
      );
      socket.on('error', reject);
      socket.on('close', () => {
        try {
          resolve(parseRaw(Buffer.concat(chunks)));
        } catch (error) {
          reject(error as Error);
        }
      });
    });
    // Swallowed here and rethrown by Promise.all below: a rejection must not go unhandled while the gate waits.
    answered.catch(() => undefined);
    const primed = new Promise<void>((resolve, reject) => {
      socket.once('connect', () =>
        socket.write(bytes.subarray(0, bytes.length - 1), (error) => (error ? reject(error) : resolve())),
      );
      socket.once('error', reject);
    });
    return { bytes, answered, primed };
  });
  await Promise.all(pending.map((p) => p.primed));
  if (options.server) await accepted(options.server, requests.length);
  pending.forEach((p, i) => (sockets[i] as Socket).write(p.bytes.subarray(p.bytes.length - 1)));
  return Promise.all(pending.map((p) => p.answered));
}

/** Waits (up to 5 s) until the server holds at least `count` connections. */
async function accepted(server: Server, count: number): Promise<void> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const open = await new Promise<number>((resolve, reject) =>
      server.getConnections((error, n) => (error ? reject(error) : resolve(n))),
    );
    if (open >= count) return;
    if (Date.now() > deadline) throw new Error(`only ${open} of ${count} connections were accepted within 5 s`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export interface OpenStream {
  /** Resolves with the first bytes (a live stream's hello, an event stream's server.connected). */
  ready: Promise<void>;
  /** The answer's status and headers, once they came. */
  head: Promise<{ status: number; headers: IncomingHttpHeaders }>;
  /** Hangs up and gives everything read. */
  stop(): Promise<string>;
}

/** Subscribes to a server-sent-event stream at `base + path` and keeps all it sends until `stop()`. */
export function openEventStream(base: string, path: string, headers: Record<string, string> = {}): OpenStream {
  let text = '';
  let markReady: () => void = () => {};
  let failReady: (error: Error) => void = () => {};
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    failReady = reject;
  });
  let markHead: (head: { status: number; headers: IncomingHttpHeaders }) => void = () => {};
  const head = new Promise<{ status: number; headers: IncomingHttpHeaders }>((resolve) => (markHead = resolve));
  // May be left unawaited: never an unhandled rejection.
  ready.catch(() => undefined);
  const req = httpRequest(`${base}${path}`, { headers }, (res) => {
    markHead({ status: res.statusCode ?? 0, headers: res.headers });
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      text += chunk;
      markReady();
    });
    res.on('error', () => undefined);
  });
  req.on('error', (error) => failReady(error));
  req.end();
  return {
    ready,
    head,
    stop: async () => {
      req.destroy();
      return text;
    },
  };
}

/** What a server-sent-event stream sends in its first `ms` milliseconds (wall time). */
export async function readEventStream(
  base: string,
  path: string,
  ms: number,
  headers: Record<string, string> = {},
): Promise<string> {
  const stream = openEventStream(base, path, headers);
  await stream.ready;
  await new Promise((resolve) => setTimeout(resolve, ms));
  return stream.stop();
}

/**
 * The two ends of an exchange on plain Node types: reading a request into an `Exchange`, and writing an
 * answer. Kept free of Express so the pipeline can be embedded anywhere and measured without it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { jsonText, type Answer } from '../exchange/exchange.js';
import {
  incomingExchange,
  lowerCaseNames,
  requestTarget,
  type IncomingExchange,
  type RequestTarget,
} from './request.js';
import { pipeline } from 'node:stream';
import { acceptWebSocket, upgradeOf } from './websocket.js';

const NO_BODY = Buffer.alloc(0);

/**
 * The request as an exchange: at once when it carries no body (most do not, and waiting for the end of an
 * empty stream would put every answer a turn of the event loop later), else once the body is in.
 */
export function readExchange(req: IncomingMessage, bodyLimit: number): IncomingExchange | Promise<IncomingExchange> {
  const url = requestTarget(req.url ?? '/');
  const { headers } = req;
  const declared = headers['content-length'];
  if (headers['transfer-encoding'] === undefined && (declared === undefined || declared === '0'))
    return exchangeOf(req, url, NO_BODY);
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

function exchangeOf(req: IncomingMessage, target: RequestTarget, body: Buffer | undefined): IncomingExchange {
  // Node's parser gives names in lower case; a host app's middleware in front of `createApp` may have added one
  // of its own in another.
  const exchange = incomingExchange(req.method ?? 'GET', target, lowerCaseNames(req.headers), body);
  const upgrade = upgradeOf(req);
  if (upgrade) exchange.upgrade = upgrade;
  return exchange;
}

/**
 * The headers to send, as the flat list `writeHead` also takes: the pipeline's, then the answer's own, then
 * the framing (`last`), a later one taking the place of an earlier one of the same name. The answer's x-sim-*
 * headers are left out: they say what this simulator did, and an upstream's (another simulator's, or a
 * recording of one) would tell the client the wrong layer, rule or operation. A list rather than a merged
 * object: copying the pipeline's headers into a new object and writing that showed as a tenth of a whole
 * answer's CPU under load, the list as nothing measurable (bench/profile-notes.md).
 */
function headerList(extra: Record<string, string>, own: Answer['headers'], last?: Record<string, string>): string[] {
  const list: string[] = [];
  const mine = (name: string) => own !== undefined && name in own && !name.startsWith('x-sim-');
  for (const name in extra) if (!mine(name) && !(last && name in last)) list.push(name, extra[name] as string);
  if (own)
    for (const name in own)
      if (!name.startsWith('x-sim-') && !(last && name in last)) list.push(name, own[name] as string);
  if (last) for (const name in last) list.push(name, last[name] as string);
  return list;
}

/**
 * Whether the answer has a `Connection` header of its own. Without one, an HTTP/1.1 connection that stays open
 * is answered as the real server answers it: without `Connection: keep-alive` or `Keep-Alive: timeout=N`
 * (persistence is HTTP/1.1's default; Node adds both unless the header is removed). A connection about to close
 * still says `Connection: close`.
 */
function namesConnection(list: string[]): boolean {
  for (let i = 0; i < list.length; i += 2) if ((list[i] as string).toLowerCase() === 'connection') return true;
  return false;
}

const NO_LENGTH: Record<string, string> = Object.freeze({ 'content-length': '0' });

/** An answer that is bytes (or a stream) under a status line, as any writer sends it: the status, the headers, the body. */
export function plainParts(
  answer: Exclude<Answer, { kind: 'drop' | 'upgrade' }>,
  extraHeaders: Record<string, string>,
): { status: number; list: string[]; body?: string | Buffer } {
  switch (answer.kind) {
    case 'stream':
      return { status: answer.status, list: headerList(extraHeaders, answer.headers) };
    case 'raw':
      return {
        status: answer.status,
        list: headerList(extraHeaders, answer.headers, { 'content-length': String(answer.raw.length) }),
        body: answer.raw,
      };
    case 'empty':
      return { status: answer.status, list: headerList(extraHeaders, answer.headers, NO_LENGTH) };
    case 'json': {
      if (answer.status === 204 || answer.body === undefined)
        return { status: answer.status, list: headerList(extraHeaders, answer.headers, NO_LENGTH) };
      const text = jsonText(answer);
      return {
        status: answer.status,
        list: headerList(extraHeaders, answer.headers, {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(text)),
        }),
        body: text,
      };
    }
  }
}

export function writeAnswer(res: ServerResponse, answer: Answer, extraHeaders: Record<string, string>): void {
  if (answer.kind === 'drop') {
    // resetAndDestroy sends a TCP RST where the platform allows, which is what a client sees from a crashed server.
    res.socket?.resetAndDestroy();
    res.destroy();
    return;
  }
  if (answer.kind === 'upgrade') {
    // Only a handshake's exchange is answered so (see `Exchange.upgrade`); anything else has no socket to give.
    const list = headerList(extraHeaders, answer.headers);
    const headers: Record<string, string> = {};
    for (let i = 0; i < list.length; i += 2) headers[list[i] as string] = list[i + 1] as string;
    if (!acceptWebSocket(res, headers, answer.open)) res.destroy();
    return;
  }
  // HEAD gets the headers GET would get, and no body.
  const head = res.req.method === 'HEAD';
  const { status, list, body } = plainParts(answer, extraHeaders);
  if (res.shouldKeepAlive && res.req.httpVersion === '1.1' && !namesConnection(list)) res.removeHeader('connection');
  res.writeHead(status, list);
  if (answer.kind !== 'stream') {
    res.end(head ? undefined : body);
    return;
  }
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
}

/**
 * The server side of HTTP/1.1 for the requests almost every client sends, without Node's request and response
 * objects: a request that arrived whole (head and body) is read from the socket's bytes and its answer written
 * in one write. Under load Node's `IncomingMessage` and `ServerResponse` (their streams, events, header checks
 * and bookkeeping) cost as much CPU as the pipeline's whole decision (bench/profile-notes.md).
 *
 * Anything else goes to Node's HTTP server, which takes the connection from that request on as if the client
 * had just connected: a head or body split over reads, HEAD and CONNECT, a target that is no path, an upgrade,
 * a chunked body, Expect, `Connection: close`, HTTP/1.0, a repeated or unusual header, a body over the limit,
 * anything malformed. Its refusals, deadlines, upgrades and tunnels stay Node's, as before; only the simple
 * case is taken here.
 */
import { STATUS_CODES, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { pipeline, Writable } from 'node:stream';
import type { Answer } from '../exchange/exchange.js';
import type { Decide } from './decide.js';
import { remember } from '../caches/bounded-map.js';
import { plainParts } from './io.js';
import { writeSoon } from './outbox.js';
import { incomingExchange, requestTarget } from './request.js';
import { FORBIDDEN_VALUE, HEADER_NAME, keepHead, sameHead, writeHeadAndBytes, type LastHead } from './wire.js';

export interface LeanHost {
  decide: Decide;
  bodyLimit: number;
  maxHeaderSize: number;
  /** Answers being streamed now: a shutdown ends them (see `PipelineDeps.openStreams`). */
  openStreams?: Set<{ end(): void }>;
  /** The answer to a failure the pipeline did not answer (it is logged there). */
  uncaught(error: unknown): Answer;
}

export interface LeanConnections {
  /** Closes the connections taken here that wait for their next request. */
  closeIdle(): void;
  /** Closes every connection taken here. */
  closeAll(): void;
}

/**
 * Takes the server's connections first: Node's own connection handling is kept and called for each connection,
 * at the request, that is not taken here. The server's `closeIdleConnections` and `closeAllConnections` (and so
 * `close`) close these too.
 */
export function serveLean(server: Server, host: LeanHost): LeanConnections {
  const [nodes] = server.listeners('connection') as Array<(socket: Socket) => void>;
  if (!nodes) throw new Error('serveLean: the server has no connection handling of its own to fall back to');
  server.removeListener('connection', nodes);
  const open = new Map<Socket, () => boolean>();
  const handOff = (socket: Socket) => nodes.call(server, socket);
  server.prependListener('connection', (socket: Socket) => lean(socket, host, server, { open, handOff }));
  const closeIdle = () => {
    for (const [socket, answering] of open) if (!answering()) socket.destroy();
  };
  const closeAll = () => {
    for (const socket of open.keys()) socket.destroy();
  };
  const nodeIdle = server.closeIdleConnections.bind(server);
  const nodeAll = server.closeAllConnections.bind(server);
  server.closeIdleConnections = () => {
    nodeIdle();
    closeIdle();
  };
  server.closeAllConnections = () => {
    nodeAll();
    closeAll();
  };
  return { closeIdle, closeAll };
}

/**
 * The connections this reader holds, each with whether it is answering: idle ones close at once, busy ones
 * only when all do. Asked at closing, not kept in a set of each kind: moving busy connections between two sets
 * would grow and shrink them on every request.
 */
interface Connections {
  open: Map<Socket, () => boolean>;
  handOff(socket: Socket): void;
}

/** A request read whole from the socket's bytes. */
interface LeanRequest {
  method: string;
  target: string;
  /** Names in lower case, as `Exchange.headers` has them: `readHead` lowers them as it reads the head. */
  headers: Record<string, string>;
  body: Buffer;
  /** Where the next request starts in the bytes. */
  end: number;
}

const HEAD_END = Buffer.from('\r\n\r\n');
const NO_BODY = Buffer.alloc(0);
/**
 * The methods taken here; HEAD (an answer without its body) and anything rarer are Node's. So is any target but
 * a path (origin-form): Node refuses some that a URL parser would read as a path (`a`, `?x`, `http:/a`).
 */
const REQUEST_LINE = /^(GET|POST|PUT|PATCH|DELETE|OPTIONS) (\/[A-Za-z0-9\-._~%!$&'()*+,;=:@/?]*) HTTP\/1\.1$/;
/** What a header value taken here may hold: visible ASCII, spaces and tabs (Node's rules for the rest). */
const NOT_VISIBLE = /[^\t\x20-\x7e]/;
/**
 * Request headers whose meaning is Node's to carry out: framing, upgrades, expectations, and `Proxy-Connection`,
 * which Node's parser obeys as it does `Connection`. `Set-Cookie` is one too: Node gives its value as a list.
 */
const NODES_HEADERS = new Set([
  'transfer-encoding',
  'upgrade',
  'expect',
  'http2-settings',
  'proxy-connection',
  'set-cookie',
]);
const MAX_HEADERS = 100;

/**
 * The request at the start of `bytes` when it is one taken here and all of it has arrived; `undefined` hands
 * the connection, from this request on, to Node.
 */
export function readLean(
  bytes: Buffer,
  bodyLimit: number,
  maxHeaderSize: number,
  last: LastHead<Head> = {},
): LeanRequest | undefined {
  const headEnd = bytes.indexOf(HEAD_END);
  if (headEnd < 0 || headEnd > maxHeaderSize) return undefined;
  const head = sameHead(last, bytes, headEnd) ?? headOfBytes(bytes, headEnd, last);
  if (!head) return undefined;
  const bodyStart = headEnd + HEAD_END.length;
  if (head.length > bodyLimit || bytes.length < bodyStart + head.length) return undefined;
  const headers: Record<string, string> = {};
  const { fields } = head;
  for (let i = 0; i < fields.length; i += 2) headers[fields[i] as string] = fields[i + 1] as string;
  return {
    method: head.method,
    target: head.target,
    headers,
    body: head.length === 0 ? NO_BODY : Buffer.from(bytes.subarray(bodyStart, bodyStart + head.length)),
    end: bodyStart + head.length,
  };
}

/** The head in `bytes` up to `end`, read once for each text (see `heads`) and kept as the connection's last. */
function headOfBytes(bytes: Buffer, end: number, last: LastHead<Head>): Head | null {
  // The head alone as text: a string cut from a larger one would keep all of it (the body) alive in the cache.
  const text = bytes.toString('latin1', 0, end);
  // Clients send the same head again and again (a poll, a page's requests): it is read once.
  const head = text.length <= MAX_KEPT_HEAD ? remember(heads, KEPT_HEADS, text, () => readHead(text)) : readHead(text);
  return head && keepHead(last, bytes, end, head);
}

/** A request's head as read: its fields as a flat list of lower-case names and values. */
interface Head {
  method: string;
  target: string;
  fields: string[];
  /** The body's declared length. */
  length: number;
}

const heads = new Map<string, Head | null>();
const KEPT_HEADS = 256;
const MAX_KEPT_HEAD = 2048;

/** The head when it is one taken here, else null. */
function readHead(text: string): Head | null {
  // By hand rather than by a regular expression a line: this runs for every new head, where a regular
  // expression a line showed in the profile.
  let stop = text.indexOf('\r\n');
  const start = REQUEST_LINE.exec(stop < 0 ? text : text.slice(0, stop));
  if (!start) return null;
  const headers: Record<string, string> = {};
  const fields: string[] = [];
  while (stop >= 0) {
    const from = stop + 2;
    stop = text.indexOf('\r\n', from);
    const end = stop < 0 ? text.length : stop;
    const colon = text.indexOf(':', from);
    if (colon < 0 || colon > end || fields.length >= 2 * MAX_HEADERS) return null;
    const name = text.slice(from, colon);
    if (!HEADER_NAME.test(name)) return null;
    let first = colon + 1;
    let last = end;
    while (first < last && isSpace(text.charCodeAt(first))) first++;
    while (last > first && isSpace(text.charCodeAt(last - 1))) last--;
    const value = text.slice(first, last);
    if (NOT_VISIBLE.test(value)) return null;
    const lower = name.toLowerCase();
    // A repeated header is joined or dropped by rules of Node's; a name a plain object already has
    // (`__proto__`, `constructor`) is no field of one.
    if (headers[lower] !== undefined || NODES_HEADERS.has(lower)) return null;
    headers[lower] = value;
    fields.push(lower, value);
  }
  if (headers.host === undefined) return null;
  const connection = headers.connection;
  if (connection !== undefined && connection.toLowerCase() !== 'keep-alive') return null;
  const declared = headers['content-length'];
  if (declared !== undefined && !/^\d{1,9}$/.test(declared)) return null;
  return { method: start[1] as string, target: start[2] as string, fields, length: Number(declared ?? 0) };
}

const isSpace = (code: number) => code === 0x20 || code === 0x09;

function lean(socket: Socket, host: LeanHost, server: Server, connections: Connections): void {
  let pending: Buffer | undefined;
  const lastHead: LastHead<Head> = {};
  let answering = false;
  let closing = false;
  let handedOff = false;
  const { open } = connections;
  open.set(socket, () => answering);

  const onData = (chunk: Buffer) => {
    pending = pending ? Buffer.concat([pending, chunk]) : chunk;
    if (!answering) next();
    // A client sending on while its answer is decided: no more than a request's worth is held meanwhile.
    else if (pending.length > host.bodyLimit + host.maxHeaderSize) socket.pause();
  };
  const onTimeout = () => socket.destroy();
  const onError = () => socket.destroy();
  // The client is done (Node's server is half-open, so this is no close yet): as Node does, the connection
  // closes at once, answers in flight and streams with it.
  const onEnd = () => socket.end();
  const onClose = () => open.delete(socket);
  socket.on('data', onData);
  socket.on('timeout', onTimeout);
  socket.on('error', onError);
  socket.on('end', onEnd);
  socket.once('close', onClose);

  // At a request's start: Node reads the connection from these bytes on. Paused first, so that what was read
  // waits for Node's reader, and before anything the socket reads later.
  const handOff = () => {
    handedOff = true;
    socket.pause();
    socket.off('data', onData);
    socket.off('timeout', onTimeout);
    socket.off('error', onError);
    socket.off('end', onEnd);
    socket.off('close', onClose);
    socket.setTimeout(0);
    onClose();
    if (pending) socket.unshift(pending);
    pending = undefined;
    connections.handOff(socket);
    socket.resume();
  };

  const settle = () => {
    answering = false;
    if (closing) {
      socket.end();
      return;
    }
    if (socket.isPaused()) socket.resume();
    if (pending) next();
    // Answering the next one, or Node's now: no keep-alive deadline of this reader's may stay on the socket.
    if (answering || handedOff || socket.destroyed) return;
    socket.setTimeout(server.keepAliveTimeout);
  };

  function next(): void {
    if (!pending) return;
    const request = readLean(pending, host.bodyLimit, host.maxHeaderSize, lastHead);
    if (!request) {
      handOff();
      return;
    }
    pending = request.end < pending.length ? pending.subarray(request.end) : undefined;
    answering = true;
    socket.setTimeout(0);
    const exchange = incomingExchange(request.method, requestTarget(request.target), request.headers, request.body);
    host.decide(exchange).then(
      ({ answer, headers }) => answerWith(answer, headers),
      (error: unknown) => answerWith(host.uncaught(error), {}),
    );
  }

  /** Writes the answer; one that cannot be written (a header no HTTP message may carry) is a failure's answer. */
  function answerWith(answer: Answer, extra: Record<string, string>): void {
    if (!socket.writable) {
      if (answer.kind === 'stream') (answer.stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
      return;
    }
    try {
      send(answer, extra);
    } catch (error) {
      try {
        send(host.uncaught(error), {});
      } catch {
        socket.destroy();
      }
    }
  }

  function send(answer: Answer, extra: Record<string, string>): void {
    if (answer.kind === 'drop' || answer.kind === 'upgrade') {
      // An upgrade is answered so only to a handshake, which Node reads: here it has no socket to give.
      if (answer.kind === 'drop') socket.resetAndDestroy();
      else socket.destroy();
      return;
    }
    const { status, list, body } = plainParts(answer, extra);
    const head = headOf(status, list, answer.kind === 'stream');
    closing = head.close;
    if (answer.kind === 'stream') {
      socket.write(head.text, 'latin1');
      stream(answer.stream, head.chunked);
      return;
    }
    // As Node writes them: a text answer and its head as one UTF-8 string, else the head in Latin-1; with the
    // other answers of this turn of the event loop.
    writeSoon(() => {
      if (socket.writable) {
        if (typeof body === 'string') socket.write(head.text + body);
        else writeHeadAndBytes(socket, head.text, body);
      }
      settle();
    });
  }

  function stream(source: NodeJS.ReadableStream, chunked: boolean): void {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        if (chunk.length === 0) return done();
        if (!chunked) return socket.write(chunk, done);
        socket.cork();
        socket.write(`${chunk.length.toString(16)}\r\n`);
        socket.write(chunk);
        socket.write('\r\n', done);
        socket.uncork();
      },
      final(done) {
        if (chunked) socket.write('0\r\n\r\n', done);
        else done();
      },
    });
    const streams = host.openStreams;
    const open = { end: () => sink.end() };
    streams?.add(open);
    const cut = () => sink.destroy();
    socket.once('close', cut);
    // pipeline, as for Node's answer: a client gone ends the source (an event subscription), a source failing
    // ends the answer (and the connection, whose framing cannot be trusted after it).
    pipeline(source, sink, (error) => {
      streams?.delete(open);
      socket.off('close', cut);
      if (error) socket.destroy();
      else settle();
    });
  }
}

/** The date as Node sends it, made at most once a second. */
let dateText: string | undefined;
function date(): string {
  if (dateText === undefined) {
    const now = new Date();
    dateText = now.toUTCString();
    setTimeout(() => (dateText = undefined), 1000 - now.getMilliseconds()).unref();
  }
  return dateText;
}

const CLOSE = /(?:^|\W)close(?:$|\W)/i;

/**
 * The status line and headers as `writeAnswer` has Node's `ServerResponse` write them for the same list: the
 * headers checked the same way, then `Date` unless the answer has its own, then the stream's framing. No
 * `Connection` header of its own (see `namesConnection`): every connection taken here stays open.
 */
function headOf(status: number, list: string[], streamed: boolean): { text: string; close: boolean; chunked: boolean } {
  let text = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'unknown'}\r\n`;
  let hasDate = false;
  let connection: string | undefined;
  let length = false;
  let encoding: string | undefined;
  for (let i = 0; i < list.length; i += 2) {
    const name = list[i] as string;
    const value = list[i + 1] as string;
    if (!HEADER_NAME.test(name)) throw new TypeError(`Header name must be a valid HTTP token ["${name}"]`);
    if (FORBIDDEN_VALUE.test(value)) throw new TypeError(`Invalid character in header content ["${name}"]`);
    text += `${name}: ${value}\r\n`;
    switch (name.length) {
      case 4:
        if (name.toLowerCase() === 'date') hasDate = true;
        break;
      case 10:
        if (name.toLowerCase() === 'connection') connection = value;
        break;
      case 14:
        if (name.toLowerCase() === 'content-length') length = true;
        break;
      case 17:
        if (name.toLowerCase() === 'transfer-encoding') encoding = value;
    }
  }
  if (!hasDate) text += `Date: ${date()}\r\n`;
  const close = connection !== undefined && CLOSE.test(connection);
  // Node frames a body of unknown length in chunks, unless the answer says how it is framed; a 204 or 304 has none.
  const bodiless = status === 204 || status === 304;
  let chunked = false;
  if (streamed && !bodiless) {
    if (encoding !== undefined) chunked = /(?:^|\W)chunked(?:$|\W)/i.test(encoding);
    else if (!length) {
      text += 'Transfer-Encoding: chunked\r\n';
      chunked = true;
    }
  }
  text += '\r\n';
  return { text, close, chunked };
}

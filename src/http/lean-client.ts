/**
 * The client side of HTTP/1.1 for forwarding to a plain-HTTP upstream: kept-alive connections, one request at
 * a time on each, the request written in one write and the answer read from the socket's bytes (its head and
 * framing by `client-answer.ts`). undici's Pool spent about 45 µs of a forwarded request in its own bookkeeping
 * (its dispatcher, its parser in WebAssembly and the callbacks between them, a `setImmediate` per request): a
 * forwarded request cost the simulator 193 µs of CPU through the Pool and 162 through this client.
 *
 * An event stream is handed on as a stream as its bytes come. Interim (1xx) answers are skipped. Anything
 * malformed fails the request, and its connection is not used again.
 */
import { connect, type Socket } from 'node:net';
import type { IncomingHttpHeaders } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';
import {
  answerHead,
  framingOf,
  idleLimit,
  keptAlive,
  LeanClientError,
  type Framing,
  type Head,
} from './client-answer.js';
import { writeSoon } from './outbox.js';
import { FORBIDDEN_VALUE, HEADER_NAME, writeHeadAndBytes } from './wire.js';

export { LeanClientError } from './client-answer.js';

export interface LeanClientRequest {
  method: string;
  /** The request target: a path and query. */
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

/** `headers` may be the same object for many answers (see `answerHead`): read it, never change it. */
export type LeanClientAnswer =
  | { status: number; headers: IncomingHttpHeaders; body: Buffer }
  | { status: number; headers: IncomingHttpHeaders; stream: Readable };

const HEAD_END = Buffer.from('\r\n\r\n');
const MAX_HEAD = 64 * 1024;
const FORBIDDEN_PATH = /[^\x21-\xff]/;
/** How long an idle connection is kept when the upstream does not say (Node's servers close theirs after 5 s). */
const DEFAULT_IDLE_MS = 4000;
/** Idle connections kept per upstream; more are closed as they come free. */
const MAX_IDLE = 256;
const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);
const EXPECTS_BODY = new Set(['POST', 'PUT', 'PATCH']);

interface Idle {
  socket: Socket;
  since: number;
  limit: number;
}

export class LeanPool {
  private readonly idle: Idle[] = [];
  private readonly open = new Set<Socket>();
  private closed = false;

  constructor(
    private readonly host: string,
    private readonly port: number,
    /** The `Host` header: the upstream's host and port as its URL names them. */
    private readonly authority: string,
    private readonly timeoutMs: number,
  ) {}

  async request(request: LeanClientRequest): Promise<LeanClientAnswer> {
    const text = requestHead(request, this.authority);
    const reused = this.takeIdle();
    if (!reused) return this.exchange(this.connect(), text, request);
    try {
      return await this.exchange(reused, text, request);
    } catch (error) {
      // A kept connection the upstream closed as the request went out: sent again on a new one, when that is safe.
      if (error instanceof LeanClientError && !error.answered && IDEMPOTENT.has(request.method) && !this.closed)
        return this.exchange(this.connect(), text, request);
      throw error;
    }
  }

  /** Closes every connection, idle or in use. */
  destroy(): void {
    this.closed = true;
    for (const socket of this.open) socket.destroy();
    this.open.clear();
    this.idle.length = 0;
  }

  private takeIdle(): Socket | undefined {
    const now = Date.now();
    for (let kept = this.idle.pop(); kept; kept = this.idle.pop()) {
      if (!kept.socket.destroyed && now - kept.since < kept.limit) {
        kept.socket.removeListener('data', destroyOnData);
        kept.socket.ref();
        return kept.socket;
      }
      kept.socket.destroy();
    }
    return undefined;
  }

  private connect(): Socket {
    if (this.closed) throw new LeanClientError('the upstream connections are closed', 'ECONNRESET');
    const socket = connect({ host: this.host, port: this.port, noDelay: true });
    this.open.add(socket);
    socket.once('close', () => this.open.delete(socket));
    // An idle connection's failure only closes it; a busy one's is heard by its exchange.
    socket.on('error', () => socket.destroy());
    return socket;
  }

  private release(socket: Socket, limit: number): void {
    if (this.closed || socket.destroyed || this.idle.length >= MAX_IDLE) {
      socket.destroy();
      return;
    }
    socket.setTimeout(0);
    // Bytes on an idle connection are no answer to anything: the connection cannot be trusted after them.
    socket.on('data', destroyOnData);
    socket.unref();
    this.idle.push({ socket, since: Date.now(), limit });
  }

  private exchange(socket: Socket, text: string, request: LeanClientRequest): Promise<LeanClientAnswer> {
    return new Promise<LeanClientAnswer>((resolve, reject) => {
      let pending: Buffer | undefined;
      let head: Head | undefined;
      let framing: Framing | undefined;
      const body: Buffer[] = [];
      let stream: PassThrough | undefined;
      let settled = false;
      let over = false;

      const finish = (error?: LeanClientError) => {
        over = true;
        socket.removeListener('data', onData);
        socket.removeListener('end', onEnd);
        socket.removeListener('close', onEnd);
        socket.removeListener('error', onError);
        socket.removeListener('timeout', onTimeout);
        if (error) {
          socket.destroy();
          if (stream) stream.destroy(error);
          else if (!settled) reject(error);
          settled = true;
        }
      };
      const complete = (rest: Buffer | undefined) => {
        // A stream's connection is not kept: it may be paused for its consumer, and a stream is rarely asked again.
        const reusable = !rest && !stream && keptAlive(head as Head) && !(framing as Framing).endsAtClose;
        finish();
        if (reusable) this.release(socket, idleLimit(head as Head) ?? DEFAULT_IDLE_MS);
        else socket.destroy();
        if (stream) stream.end();
        else {
          settled = true;
          const { status, headers } = head as Head;
          resolve({ status, headers, body: body.length === 1 ? (body[0] as Buffer) : Buffer.concat(body) });
        }
      };
      const feed = (chunk: Buffer) => {
        const out: Buffer[] = stream ? [] : body;
        const { done, rest } = (framing as Framing).feed(chunk, out);
        // A consumer slower than the upstream holds the upstream back, rather than its bytes piling up here.
        if (stream && out.reduce((open, piece) => (stream as PassThrough).write(piece) && open, true) === false) {
          socket.pause();
          stream.once('drain', () => socket.resume());
        }
        if (done) complete(rest);
      };
      const onHead = (bytes: Buffer): void => {
        const end = bytes.indexOf(HEAD_END);
        if (end < 0) {
          if (bytes.length > MAX_HEAD) throw new LeanClientError('the answer head is too large', 'EBADANSWER', true);
          pending = bytes;
          return;
        }
        pending = undefined;
        const text = bytes.toString('latin1', 0, end);
        const read = answerHead(text);
        const rest = bytes.subarray(end + HEAD_END.length);
        if (read.status < 200) {
          if (read.status === 101) throw new LeanClientError('the upstream switched protocols', 'EBADANSWER', true);
          if (rest.length) onHead(rest);
          return;
        }
        head = read;
        framing = framingOf(request.method, read);
        if (String(read.headers['content-type'] ?? '').startsWith('text/event-stream')) {
          // A stream has no deadline between its events: its own consumer decides how long to listen.
          socket.setTimeout(0);
          stream = new PassThrough();
          // The consumer went away: the connection goes with it (the upstream would go on sending).
          stream.once('close', () => {
            if (over) return;
            finish();
            socket.destroy();
          });
          settled = true;
          resolve({ status: read.status, headers: read.headers, stream });
        }
        feed(rest);
      };
      const onData = (chunk: Buffer) => {
        try {
          if (head) feed(chunk);
          else onHead(pending ? Buffer.concat([pending, chunk]) : chunk);
        } catch (error) {
          finish(error instanceof LeanClientError ? error : new LeanClientError(String(error), 'EBADANSWER', true));
        }
      };
      const onEnd = () => {
        if (head && framing?.endsAtClose) {
          complete(undefined);
          return;
        }
        finish(
          new LeanClientError(
            head ? 'the upstream broke off its answer' : 'the connection was closed',
            'ECONNRESET',
            head !== undefined || pending !== undefined,
          ),
        );
      };
      const onError = (error: NodeJS.ErrnoException) =>
        finish(
          new LeanClientError(error.message, error.code ?? 'ECONNRESET', head !== undefined || pending !== undefined),
        );
      const onTimeout = () =>
        finish(new LeanClientError(`no answer within ${this.timeoutMs} ms`, 'ETIMEDOUT', head !== undefined));

      socket.on('data', onData);
      socket.on('end', onEnd);
      socket.on('close', onEnd);
      socket.on('error', onError);
      socket.on('timeout', onTimeout);
      socket.setTimeout(this.timeoutMs);
      // With the turn's answers, after its reads (outbox.ts): the upstream is woken once for the requests of a
      // turn rather than once for each, as the clients are for their answers.
      writeSoon(() => {
        if (!over) writeHeadAndBytes(socket, text, request.body);
      });
    });
  }
}

function destroyOnData(this: Socket): void {
  this.destroy();
}

/** The request line and headers, checked as Node checks them before it writes a request. */
function requestHead(request: LeanClientRequest, authority: string): string {
  if (FORBIDDEN_PATH.test(request.path))
    throw new LeanClientError('the request path has a character no HTTP request may carry', 'EBADREQUEST');
  let text = `${request.method} ${request.path} HTTP/1.1\r\nhost: ${authority}\r\n`;
  for (const name in request.headers) {
    const value = request.headers[name] as string;
    if (!HEADER_NAME.test(name) || FORBIDDEN_VALUE.test(value))
      throw new LeanClientError(`the header ${name} cannot be sent`, 'EBADREQUEST');
    text += `${name}: ${value}\r\n`;
  }
  // As undici frames them: a body's length, and a length of 0 for a method that expects a body but has none.
  if (request.body?.length || EXPECTS_BODY.has(request.method))
    text += `content-length: ${request.body?.length ?? 0}\r\n`;
  return `${text}\r\n`;
}

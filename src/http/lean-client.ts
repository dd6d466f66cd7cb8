/**
 * The client side of HTTP/1.1 for forwarding to a plain-HTTP upstream: kept-alive connections, the request
 * written in one write and the answer read from the socket's bytes (its head and framing by
 * `client-answer.ts`). undici's Pool spends a measurable share of a forwarded request in its own bookkeeping
 * (its dispatcher, its parser in WebAssembly and the callbacks between them, a `setImmediate` per request),
 * which this client does without; bench/profile-notes.md has the alternated runs.
 *
 * Under load, the GETs of one turn share connections, pipelined (RFC 9112 §9.3.2): a write and a wake-up of
 * the upstream for several requests rather than one each, which is most of what forwarding costs both sides
 * once the JavaScript is lean. Only requests safe to send again are pipelined, only with each other and only
 * on a connection that has nothing older in flight, so a request can wait behind another of its own turn and
 * nothing else; one that was never answered (the connection closed, or the one ahead turned into an event
 * stream) is sent again on a connection of its own. With few requests in flight, as from a browser, each
 * has its connection to itself.
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
import { mayPipeline, requestHead, type LeanClientRequest } from './client-request.js';
import { keepHead, sameHead, writeHeadAndBytes, type LastHead } from './wire.js';

export { LeanClientError } from './client-answer.js';
export type { LeanClientRequest } from './client-request.js';

/** `headers` may be the same object for many answers (see `answerHead`): read it, never change it. */
export type LeanClientAnswer =
  | { status: number; headers: IncomingHttpHeaders; body: Buffer }
  | { status: number; headers: IncomingHttpHeaders; stream: Readable };

const HEAD_END = Buffer.from('\r\n\r\n');
const MAX_HEAD = 64 * 1024;
/** How long an idle connection is kept when the upstream does not say (Node's servers close theirs after 5 s). */
const DEFAULT_IDLE_MS = 4000;
/** Idle connections kept per upstream; more are closed as they come free. */
const MAX_IDLE = 256;
const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);
/**
 * Requests in flight (this turn's among them) from which a turn's GETs share connections. A browser keeps
 * at most six connections to a host, so a frontend never waits behind another request of its own.
 */
export const PIPELINE_FROM = 12;
/** Requests on one connection at most: a slow one holds back at most this many less one. */
export const PIPELINE_DEPTH = 8;

/** A request from the moment it is asked for to its answer (or its failure). */
interface Ask {
  readonly request: LeanClientRequest;
  readonly text: string;
  readonly pipelined: boolean;
  resolve(answer: LeanClientAnswer): void;
  reject(error: LeanClientError): void;
  /** Sent once already and never answered: the next try is the last, on a connection of its own. */
  again: boolean;
  /** Whether a failure before its answer may be sent again: it was not the first on a new connection. */
  mayRetry: boolean;
  head?: Head;
  framing?: Framing;
  body: Buffer[];
  stream?: PassThrough;
}

/** One connection to the upstream and the requests on it, oldest first; the first is the one being answered. */
interface Connection {
  readonly socket: Socket;
  readonly asks: Ask[];
  /** The start of a head that has not all arrived. */
  partial?: Buffer;
  connected: boolean;
  idleSince: number;
  idleLimit: number;
  readonly lastHead: LastHead<Head>;
}

export class LeanPool {
  private readonly idle: Connection[] = [];
  private readonly open = new Set<Connection>();
  private waiting: Ask[] = [];
  /** Requests written and not yet answered (event streams not counted). */
  private inFlight = 0;
  private closed = false;

  constructor(
    private readonly host: string,
    private readonly port: number,
    /** The `Host` header: the upstream's host and port as its URL names them. */
    private readonly authority: string,
    private readonly timeoutMs: number,
  ) {}

  request(request: LeanClientRequest): Promise<LeanClientAnswer> {
    return new Promise<LeanClientAnswer>((resolve, reject) => {
      const text = requestHead(request, this.authority);
      const pipelined = mayPipeline(request);
      this.ask({ request, text, pipelined, resolve, reject, again: false, mayRetry: false, body: [] });
    });
  }

  /** Closes every connection, idle or in use. */
  destroy(): void {
    this.closed = true;
    for (const connection of [...this.open]) connection.socket.destroy();
    this.open.clear();
    this.idle.length = 0;
  }

  private ask(ask: Ask): void {
    if (this.waiting.length === 0)
      // With the turn's answers, after its reads (outbox.ts): the upstream is woken once for the requests of
      // a turn rather than once for each, as the clients are for their answers.
      writeSoon(() => this.dispatch());
    this.waiting.push(ask);
  }

  /** Puts the turn's requests on connections and writes each connection's in one write. */
  private dispatch(): void {
    const batch = this.waiting;
    this.waiting = [];
    const pipelining = this.inFlight + batch.length >= PIPELINE_FROM;
    let shared: Connection | undefined;
    const written: Connection[] = [];
    for (const ask of batch) {
      let connection: Connection;
      if (pipelining && ask.pipelined && !ask.again && shared && shared.asks.length < PIPELINE_DEPTH)
        connection = shared;
      else {
        const kept = ask.again ? undefined : this.takeIdle();
        try {
          connection = kept ?? this.connect();
        } catch (error) {
          ask.reject(error as LeanClientError);
          continue;
        }
        ask.mayRetry = kept !== undefined;
        shared = ask.pipelined && !ask.again ? connection : undefined;
      }
      if (connection.asks.length === 0) {
        written.push(connection);
        connection.socket.ref();
        connection.socket.setTimeout(this.timeoutMs);
      } else ask.mayRetry = true;
      connection.asks.push(ask);
      this.inFlight++;
    }
    for (const connection of written) {
      const { asks, socket } = connection;
      if (asks.length === 1) {
        const only = asks[0] as Ask;
        writeHeadAndBytes(socket, only.text, only.request.body);
      } else {
        let text = '';
        for (const ask of asks) text += ask.text;
        socket.write(text, 'latin1');
      }
    }
  }

  private takeIdle(): Connection | undefined {
    const now = Date.now();
    for (let kept = this.idle.pop(); kept; kept = this.idle.pop()) {
      if (kept.socket.writable && now - kept.idleSince < kept.idleLimit) return kept;
      kept.socket.destroy();
    }
    return undefined;
  }

  private connect(): Connection {
    if (this.closed) throw new LeanClientError('the upstream connections are closed', 'ECONNRESET');
    const socket = connect({ host: this.host, port: this.port, noDelay: true });
    const connection: Connection = {
      socket,
      asks: [],
      connected: false,
      idleSince: 0,
      idleLimit: DEFAULT_IDLE_MS,
      lastHead: {},
    };
    this.open.add(connection);
    socket.once('connect', () => (connection.connected = true));
    socket.on('data', (chunk: Buffer) => this.read(connection, chunk));
    const ended = () => this.ended(connection);
    socket.on('end', ended);
    socket.on('close', () => {
      this.open.delete(connection);
      ended();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      const first = connection.asks[0];
      this.fail(
        connection,
        new LeanClientError(error.message, error.code ?? 'ECONNRESET', answerBegun(connection, first)),
        connection.connected,
      );
    });
    socket.on('timeout', () => {
      const first = connection.asks[0];
      this.fail(
        connection,
        new LeanClientError(`no answer within ${this.timeoutMs} ms`, 'ETIMEDOUT', first?.head !== undefined),
        true,
      );
    });
    return connection;
  }

  private read(connection: Connection, chunk: Buffer): void {
    let bytes: Buffer | undefined = connection.partial ? Buffer.concat([connection.partial, chunk]) : chunk;
    connection.partial = undefined;
    try {
      while (bytes) {
        const ask = connection.asks[0];
        // Bytes nobody asked for: the connection cannot be trusted after them.
        if (!ask) {
          connection.socket.destroy();
          return;
        }
        bytes = ask.head ? this.feed(connection, ask, bytes) : this.readHead(connection, ask, bytes);
      }
    } catch (error) {
      this.fail(
        connection,
        error instanceof LeanClientError ? error : new LeanClientError(String(error), 'EBADANSWER', true),
        true,
      );
    }
  }

  /** Reads the answer's head if it has all come; returns the bytes after what was read, if any. */
  private readHead(connection: Connection, ask: Ask, bytes: Buffer): Buffer | undefined {
    const end = bytes.indexOf(HEAD_END);
    if (end < 0) {
      if (bytes.length > MAX_HEAD) throw new LeanClientError('the answer head is too large', 'EBADANSWER', true);
      connection.partial = bytes;
      return undefined;
    }
    const head =
      sameHead(connection.lastHead, bytes, end) ??
      keepHead(connection.lastHead, bytes, end, answerHead(bytes.toString('latin1', 0, end)));
    const rest = bytes.subarray(end + HEAD_END.length);
    if (head.status < 200) {
      if (head.status === 101) throw new LeanClientError('the upstream switched protocols', 'EBADANSWER', true);
      return rest.length ? rest : undefined;
    }
    ask.head = head;
    ask.framing = framingOf(ask.request.method, head);
    // An answer that only the close ends, or a stream, is the last on its connection: whatever waits behind
    // it goes on another.
    const last = ask.framing.endsAtClose || !keptAlive(head);
    if (String(head.headers['content-type'] ?? '').startsWith('text/event-stream')) {
      // A stream has no deadline between its events: its own consumer decides how long to listen.
      connection.socket.setTimeout(0);
      this.inFlight--;
      const stream = new PassThrough();
      ask.stream = stream;
      // The consumer went away: the connection goes with it (the upstream would go on sending).
      stream.once('close', () => {
        if (connection.asks[0] === ask) connection.socket.destroy();
      });
      this.sendBehindElsewhere(connection);
      ask.resolve({ status: head.status, headers: head.headers, stream });
    } else if (last) this.sendBehindElsewhere(connection);
    return this.feed(connection, ask, rest);
  }

  /** Feeds body bytes to the answer being read; returns the bytes past its end, for the next answer. */
  private feed(connection: Connection, ask: Ask, chunk: Buffer): Buffer | undefined {
    const stream = ask.stream;
    const out: Buffer[] = stream ? [] : ask.body;
    const { done, rest } = (ask.framing as Framing).feed(chunk, out);
    // A consumer slower than the upstream holds the upstream back, rather than its bytes piling up here.
    if (stream && out.reduce((open, piece) => stream.write(piece) && open, true) === false) {
      connection.socket.pause();
      stream.once('drain', () => connection.socket.resume());
    }
    if (!done) return undefined;
    this.complete(connection, ask);
    return connection.socket.destroyed ? undefined : rest;
  }

  private complete(connection: Connection, ask: Ask): void {
    connection.asks.shift();
    const head = ask.head as Head;
    if (ask.stream) ask.stream.end();
    else {
      this.inFlight--;
      ask.resolve({
        status: head.status,
        headers: head.headers,
        body: ask.body.length === 1 ? (ask.body[0] as Buffer) : Buffer.concat(ask.body),
      });
    }
    // A stream's connection is not kept: it may be paused for its consumer, and a stream is rarely asked again.
    if (ask.stream || !keptAlive(head) || (ask.framing as Framing).endsAtClose) connection.socket.destroy();
    else if (connection.asks.length === 0) this.release(connection, idleLimit(head) ?? DEFAULT_IDLE_MS);
  }

  private release(connection: Connection, limit: number): void {
    const { socket } = connection;
    if (this.closed || socket.destroyed || this.idle.length >= MAX_IDLE) {
      socket.destroy();
      return;
    }
    socket.setTimeout(0);
    socket.unref();
    connection.idleSince = Date.now();
    connection.idleLimit = limit;
    this.idle.push(connection);
  }

  /** The connection ended or closed: an answer that runs to the close is whole, anything else is cut short. */
  private ended(connection: Connection): void {
    const first = connection.asks[0];
    if (first?.head && first.framing?.endsAtClose) {
      this.complete(connection, first);
      return;
    }
    if (!first) return;
    const begun = answerBegun(connection, first);
    this.fail(
      connection,
      new LeanClientError(
        first.head ? 'the upstream broke off its answer' : 'the connection was closed',
        'ECONNRESET',
        begun,
      ),
      true,
    );
  }

  /**
   * Fails the answer being read with `error`, and every request behind it as never answered; the connection
   * is not used again. `reached`: whether the upstream was reached at all (a refused connection is not sent
   * again).
   */
  private fail(connection: Connection, error: LeanClientError, reached: boolean): void {
    const asks = connection.asks.splice(0);
    connection.socket.destroy();
    asks.forEach((ask, i) => {
      if (!ask.stream) this.inFlight--;
      const failure = i === 0 ? error : new LeanClientError(error.message, error.code, false);
      this.settleFailure(ask, failure, reached);
    });
  }

  /** The requests behind the first on a connection that will carry nothing more go on connections of their own. */
  private sendBehindElsewhere(connection: Connection): void {
    const behind = connection.asks.splice(1);
    for (const ask of behind) {
      this.inFlight--;
      this.settleFailure(ask, new LeanClientError('the connection carries no more answers', 'ECONNRESET'), true);
    }
  }

  private settleFailure(ask: Ask, error: LeanClientError, reached: boolean): void {
    if (ask.stream) {
      ask.stream.destroy(error);
      return;
    }
    // A kept connection the upstream closed as the request went out, or a request behind one that will not be
    // answered: sent again on a new connection, when that is safe.
    if (
      reached &&
      !error.answered &&
      ask.mayRetry &&
      !ask.again &&
      !this.closed &&
      IDEMPOTENT.has(ask.request.method)
    ) {
      ask.again = true;
      ask.head = undefined;
      ask.framing = undefined;
      ask.body = [];
      this.ask(ask);
      return;
    }
    ask.reject(error);
  }
}

/** Whether any of the answer to `ask` (the first on the connection) has arrived. */
function answerBegun(connection: Connection, ask: Ask | undefined): boolean {
  return ask !== undefined && (ask.head !== undefined || connection.partial !== undefined);
}

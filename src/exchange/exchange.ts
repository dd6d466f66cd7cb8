/**
 * The values one exchange is made of, from the request as read to the answer as decided: neutral ground that
 * the HTTP layer, the layers that answer and the resource kinds all import, so none of them imports another
 * for its types.
 */
import type { IncomingMessage } from 'node:http';
import type { AnsweredBy } from './answered-by.js';

export type BodyRefusal = 'too-large' | 'too-deep';

/** Deeper than any body of the interface nests, and shallow enough for every recursive walk over it. */
export const MAX_BODY_DEPTH = 256;

export interface Exchange {
  id: string;
  now: number;
  method: string;
  pathname: string;
  /** The query as sent (`?a=1`, or empty), for forwarding byte for byte. */
  search: string;
  searchParams: URLSearchParams;
  /**
   * Names in lower case, whichever host read the request and however the client wrote them (`Content-Type`,
   * `PREFER`): every reader (validation, `Prefer`, partitions, auth, CORS, redaction, recording, forwarding)
   * looks a header up by its lower-case name. Each host makes it so where it reads the request: Node's parser
   * (`io.ts`, with `lowerCaseNames` for a host app's own additions), the lean reader (`lean-http.ts`), the
   * Fetch API's (`fetch-io.ts`, for msw in Node and the browser build).
   */
  headers: IncomingMessage['headers'];
  rawBody: Buffer;
  /**
   * Why the body was not kept (`rawBody` holds nothing then): longer than the limit, or nested deeper than any
   * request of the interface is (a parser, a validator or a copy would run out of stack on it).
   */
  bodyRefused?: BodyRefusal;
  /**
   * The request asks to switch protocols: a WebSocket handshake the simulator can complete itself (an
   * `upgrade` answer takes the connection), or `other` (another protocol, a handshake without its key).
   */
  upgrade?: 'websocket' | 'other';
}

interface AnswerBase {
  status: number;
  headers?: Record<string, string>;
  /** Who answered, when the layer speaks for several sources (replay, record, upstream). */
  answeredBy?: AnsweredBy;
  /** The rule that decided it, where the rule is written (sent as `x-sim-rule`, journaled, counted). */
  rule?: string;
  /** Decided by a rule that may leave the spec: not checked against it, and marked outside it. */
  outsideSpec?: true;
  /**
   * The same body object is served again, unchanged (a recorded answer, or the same bytes forwarded again):
   * its check against the spec can be remembered instead of made for every request.
   */
  served?: true;
}

/**
 * What the simulator says back, one variant per way of saying it. Each host turns it into bytes its own way:
 * `writeAnswer` on Node's response (src/http/io.ts), the lean server's own heads (src/http/lean-http.ts) and
 * `toResponse` as a Fetch Response (src/http/fetch-io.ts, msw's).
 */
export type Answer =
  /** A JSON value, serialised when sent; `text` is that serialisation once made (see `jsonText`). */
  | (AnswerBase & { kind: 'json'; body: unknown; text?: string })
  /** No body (204, or a status whose body is empty). */
  | (AnswerBase & { kind: 'empty' })
  /** Exact bytes to send (a forwarded or replayed answer); `body` is their parsed form, for checking. */
  | (AnswerBase & { kind: 'raw'; raw: Buffer; body?: unknown })
  /** A stream to pipe through as it comes (server-sent events). */
  | (AnswerBase & { kind: 'stream'; stream: NodeJS.ReadableStream })
  /**
   * A WebSocket the simulator serves itself (a PTY's terminal): the handshake is completed (101) and `open`
   * is given the connection. Only an exchange that is a WebSocket handshake (`upgrade`) can be answered so.
   */
  | (AnswerBase & { kind: 'upgrade'; status: 101; open(socket: MessageSocket): MessageHandlers })
  /** No answer at all: the connection is destroyed, as a crashed server would leave it (a scripted fault). */
  | { kind: 'drop'; status: 0; answeredBy?: AnsweredBy; rule?: string; outsideSpec?: true; headers?: undefined };

/** One open WebSocket as whoever serves it sees it: messages out, and the end of it. */
export interface MessageSocket {
  sendText(text: string): void;
  sendBinary(bytes: Uint8Array): void;
  /** Starts the closing handshake (1000 unless told); `closed` follows once the socket is gone. */
  close(code?: number, reason?: string): void;
}

/** What the server of a WebSocket does with the client's messages, and when the connection has gone. */
export interface MessageHandlers {
  message(text: string): void;
  closed(): void;
}

export function jsonAnswer(status: number, body: unknown, headers?: Record<string, string>): Answer {
  return { kind: 'json', status, body, headers };
}

export function emptyAnswer(status: number, headers?: Record<string, string>): Answer {
  return { kind: 'empty', status, headers };
}

export const DROP: Answer = { kind: 'drop', status: 0 };

/** The answer's body as a value, for checking it against the spec (streams and drops have none to check). */
export function answerBody(answer: Answer): unknown {
  return answer.kind === 'json' || answer.kind === 'raw' ? answer.body : undefined;
}

/**
 * The JSON text of a JSON answer, made once: the socket and the inspector's copy share it (serialising is a
 * good part of what an answer costs), and the copy keeps the answer as sent even if its object changes later.
 */
export function jsonText(answer: Extract<Answer, { kind: 'json' }>): string {
  answer.text ??= JSON.stringify(answer.body);
  return answer.text;
}

/** One header as one string (a repeated header joined), or nothing when absent. */
export function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Node's header object as one string per name (repeated headers joined), leaving out `drop`. */
export function flatHeaders(
  headers: IncomingMessage['headers'],
  drop: ReadonlySet<string> = new Set(),
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !drop.has(name)) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

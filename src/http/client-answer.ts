/**
 * An HTTP/1.1 answer as a client reads it (`lean-client.ts`): its head, and how its body is framed. RFC 9112
 * §6.3: no body for HEAD, 204 and 304; chunked; by `Content-Length`; otherwise until the server closes.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { remember } from '../caches/bounded-map.js';
import { HEADER_NAME } from './wire.js';

/** A failure with a code as Node's sockets name them (`ECONNREFUSED`, `ETIMEDOUT`, `ECONNRESET`, …). */
export class LeanClientError extends Error {
  constructor(
    message: string,
    readonly code: string,
    /** Whether any of the answer had arrived (a failure before it may be tried again on a new connection). */
    readonly answered = false,
  ) {
    super(message);
  }
}

const STATUS_LINE = /^HTTP\/1\.([01]) (\d{3})(?: .*)?$/;
const CHUNK_SIZE = /^([0-9a-fA-F]{1,15})[\t ]*(?:;.*)?$/;

/** How an answer's body ends; `feed` returns the body bytes in a chunk and says when the body is complete. */
export interface Framing {
  feed(chunk: Buffer, out: Buffer[]): { done: boolean; rest?: Buffer };
  /** Whether the upstream closing the connection ends the body (rather than cutting it short). */
  endsAtClose: boolean;
}

function noBody(): Framing {
  return { feed: (chunk) => ({ done: true, rest: chunk.length ? chunk : undefined }), endsAtClose: false };
}

function byLength(length: number): Framing {
  let remaining = length;
  return {
    endsAtClose: false,
    feed(chunk, out) {
      if (chunk.length <= remaining) {
        if (chunk.length) out.push(chunk);
        remaining -= chunk.length;
        return { done: remaining === 0 };
      }
      out.push(chunk.subarray(0, remaining));
      const rest = chunk.subarray(remaining);
      remaining = 0;
      return { done: true, rest };
    },
  };
}

function untilClose(): Framing {
  return {
    endsAtClose: true,
    feed(chunk, out) {
      if (chunk.length) out.push(chunk);
      return { done: false };
    },
  };
}

/** RFC 9112 §7.1: sizes in hex, each chunk followed by CRLF, a zero size, then trailer lines up to an empty one. */
function chunked(): Framing {
  let state: 'size' | 'data' | 'data-end' | 'trailer' = 'size';
  let line = '';
  let remaining = 0;
  return {
    endsAtClose: false,
    feed(chunk, out) {
      let at = 0;
      while (at < chunk.length) {
        if (state === 'data') {
          const take = Math.min(remaining, chunk.length - at);
          out.push(chunk.subarray(at, at + take));
          at += take;
          remaining -= take;
          if (remaining === 0) state = 'data-end';
          continue;
        }
        const newline = chunk.indexOf(10, at);
        const end = newline < 0 ? chunk.length : newline;
        line += chunk.toString('latin1', at, end);
        if (line.length > 4096) throw new LeanClientError('a chunk line is too long', 'EBADANSWER', true);
        at = end + 1;
        if (newline < 0) break;
        const text = line.endsWith('\r') ? line.slice(0, -1) : line;
        line = '';
        if (state === 'data-end') {
          if (text !== '') throw new LeanClientError('a chunk does not end where its size says', 'EBADANSWER', true);
          state = 'size';
        } else if (state === 'size') {
          const size = CHUNK_SIZE.exec(text);
          if (!size) throw new LeanClientError('a chunk size is malformed', 'EBADANSWER', true);
          remaining = parseInt(size[1] as string, 16);
          state = remaining === 0 ? 'trailer' : 'data';
        } else if (text === '') {
          return { done: true, rest: at < chunk.length ? chunk.subarray(at) : undefined };
        }
      }
      return { done: false };
    },
  };
}

/**
 * Heads read, by their text: an upstream asked the same thing sends the same head again (until its `Date`
 * changes), and reading one took a tenth of a forwarded request's CPU. A head is shared: never changed.
 */
const heads = new Map<string, Head>();
const KEPT_HEADS = 256;
const MAX_KEPT_HEAD = 2048;

export interface Head {
  major11: boolean;
  status: number;
  headers: IncomingHttpHeaders;
}

function readHead(text: string): Head {
  const lines = text.split('\r\n');
  const status = STATUS_LINE.exec(lines[0] as string);
  if (!status) throw new LeanClientError('the answer does not start with an HTTP/1 status line', 'EBADANSWER', true);
  const headers: IncomingHttpHeaders = {};
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] as string;
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).toLowerCase();
    if (colon <= 0 || !HEADER_NAME.test(name))
      throw new LeanClientError('an answer header is malformed', 'EBADANSWER', true);
    const value = line.slice(colon + 1).trim();
    const known = headers[name];
    if (name === 'set-cookie') headers['set-cookie'] = [...(known ?? []), value];
    else headers[name] = known === undefined ? value : `${String(known)}, ${value}`;
  }
  return { major11: status[1] === '1', status: Number(status[2]), headers };
}

/** The head an answer's text reads as: read once for each text kept (see `heads`). */
export function answerHead(text: string): Head {
  return text.length <= MAX_KEPT_HEAD ? remember(heads, KEPT_HEADS, text, () => readHead(text)) : readHead(text);
}

export function framingOf(method: string, head: Head): Framing {
  const { status, headers } = head;
  if (method === 'HEAD' || status === 204 || status === 304) return noBody();
  const encoding = headers['transfer-encoding'];
  if (encoding !== undefined) {
    if (/(?:^|,)\s*chunked\s*$/i.test(encoding)) return chunked();
    return untilClose();
  }
  const length = headers['content-length'];
  if (length === undefined) return untilClose();
  if (!/^\d{1,15}$/.test(length))
    throw new LeanClientError('the answer has a malformed Content-Length', 'EBADANSWER', true);
  return byLength(Number(length));
}

/** Whether the connection may carry another request after this answer. */
export function keptAlive(head: Head): boolean {
  const connection = head.headers.connection;
  if (connection !== undefined && /(?:^|\W)close(?:$|\W)/i.test(connection)) return false;
  return head.major11;
}

/** The upstream's `Keep-Alive: timeout=N` (seconds), less a second for the request on its way, in ms. */
export function idleLimit(head: Head): number | undefined {
  const timeout = /(?:^|[\s,])timeout=(\d+)/i.exec(String(head.headers['keep-alive'] ?? ''));
  return timeout ? Math.max(0, Number(timeout[1]) * 1000 - 1000) : undefined;
}

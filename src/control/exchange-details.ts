/**
 * The whole of recent exchanges (request and answer, headers and bodies), for the inspector's detail view
 * and `GET /__sim/exchanges/:id`. The journal keeps one line per exchange; this keeps what a line leaves
 * out, for fewer of them, and with secrets already masked: what is stored here can be shown to anyone who
 * can reach the control API. Bounded in count and in body size so a long run's memory stays flat.
 */
import { SimExchangeNotFoundError } from '../errors.js';
import { MAX_BODY_DEPTH, answerBody, type Answer, type Exchange } from '../exchange/exchange.js';
import { redactBody, redactedRequestHead, redactHeaders, type RedactionRules } from '../recordings/redact.js';

export const DEFAULT_EXCHANGE_CAPACITY = 200;
export const BODY_LIMIT = 64 * 1024;
/** Bodies kept per partition, all exchanges together: 200 large answers must not cost 25 MB in each of 256 partitions. */
export const BYTES_LIMIT = 4 * 1024 * 1024;

/** A body as shown: the JSON value when it is JSON and whole, else its text (cut at the limit). */
export interface BodyView {
  /** Bytes as sent, before any cut (unknown for a body too large to read). */
  size?: number;
  json?: unknown;
  text?: string;
  truncated?: true;
}

interface StoredBody {
  size?: number;
  text: string;
  json: boolean;
  truncated?: true;
}

interface Sides<B> {
  request: {
    method: string;
    path: string;
    query: Record<string, string | string[]>;
    headers: Record<string, string>;
    body?: B;
  };
  response: {
    /** 0 for a dropped connection. */
    status: number;
    /** How it was sent: `json`, `raw`, `empty`, `stream` (written as it came, so no body here) or `drop`. */
    kind: Answer['kind'];
    headers: Record<string, string>;
    body?: B;
  };
}

export type ExchangeDetail = { id: string; time: number; iso: string } & Sides<BodyView>;

export interface ExchangeDetails {
  /**
   * Keeps the exchange with its secrets masked by `rules`; the oldest goes when more than the capacity are
   * kept. `sent`: the headers the pipeline adds to the answer's own (CORS, `x-sim-…`).
   */
  record(exchange: Exchange, answer: Answer, sent: Record<string, string>, rules: RedactionRules): void;
  /** Throws SimExchangeNotFoundError when it was never recorded or has been evicted. */
  get(id: string): ExchangeDetail;
  clear(): void;
  readonly size: number;
}

export function createExchangeDetails(capacity = DEFAULT_EXCHANGE_CAPACITY, bytesLimit = BYTES_LIMIT): ExchangeDetails {
  // A Map iterates in insertion order, so its first key is the oldest: eviction without a second index.
  const kept = new Map<string, KeptExchange>();
  /** Highest request number recorded since the last clear: a lower unknown one was evicted, not mistyped. */
  let highest = 0;
  let bytes = 0;
  const drop = (id: string) => {
    const gone = kept.get(id);
    if (!gone) return;
    kept.delete(id);
    bytes -= gone.weight;
  };
  return {
    record(exchange, answer, sent, rules) {
      const entry = keep(exchange, answer, sent, rules);
      drop(entry.id);
      kept.set(entry.id, entry);
      bytes += entry.weight;
      // The newest always stays, however large: it is the one someone is about to open.
      while (kept.size > 1 && (kept.size > capacity || bytes > bytesLimit)) drop(kept.keys().next().value as string);
      highest = Math.max(highest, requestNumber(entry.id) ?? 0);
    },
    get(id) {
      const found = kept.get(id);
      if (!found) {
        const n = requestNumber(id);
        throw new SimExchangeNotFoundError(id, n !== undefined && n <= highest, capacity);
      }
      const { request, response } = found.stored();
      return {
        id: found.id,
        time: found.time,
        iso: new Date(found.time).toISOString(),
        request: { ...request, ...view(request.body) },
        response: { ...response, ...view(response.body) },
      };
    },
    clear() {
      kept.clear();
      bytes = 0;
      highest = 0;
    },
    get size() {
      return kept.size;
    },
  };
}

interface KeptExchange {
  id: string;
  time: number;
  /** Bytes of body this entry holds, counted against the partition's limit. */
  weight: number;
  /** The exchange as shown, secrets masked: worked out when someone opens it, not for every request answered. */
  stored(): Sides<StoredBody>;
}

/**
 * Keeps what the exchange was made of rather than its shown form: nothing of it changes afterwards (Node's
 * header object, the body's bytes, the text the answer was sent as), so masking and cutting it later shows
 * what masking it now would, and the request path pays only for a few references. A body past the cut is
 * shown at once instead, so a long one is not held whole.
 */
function keep(exchange: Exchange, answer: Answer, sent: Record<string, string>, rules: RedactionRules): KeptExchange {
  let requestSide = (): Sides<StoredBody>['request'] => ({
    ...redactedRequestHead(exchange, rules),
    ...requestBody(exchange, rules),
  });
  let responseSide = (): Sides<StoredBody>['response'] => ({
    status: answer.status,
    kind: answer.kind,
    // A dropped connection sent nothing, headers included.
    headers:
      answer.kind === 'drop'
        ? {}
        : redactHeaders(
            {
              ...sent,
              ...answer.headers,
              ...(answer.kind === 'json' && answer.body !== undefined && answer.status !== 204
                ? { 'content-type': 'application/json' }
                : {}),
            },
            rules,
          ),
    ...responseBody(answer, rules),
  });
  const requestSize = exchange.rawBody.length;
  const responseSize =
    answer.kind === 'json' ? (answer.text?.length ?? 0) : answer.kind === 'raw' ? answer.raw.length : 0;
  if (requestSize > BODY_LIMIT) requestSide = settled(requestSide());
  if (responseSize > BODY_LIMIT || (answer.kind === 'json' && answer.text === undefined))
    responseSide = settled(responseSide());
  return {
    id: exchange.id,
    time: exchange.now,
    weight: Math.min(requestSize, BODY_LIMIT) + Math.min(responseSize, BODY_LIMIT),
    stored: () => ({ request: requestSide(), response: responseSide() }),
  };
}

const settled =
  <T>(value: T) =>
  () =>
    value;

function requestNumber(id: string): number | undefined {
  const match = /^req_(\d+)$/.exec(id);
  return match ? Number(match[1]) : undefined;
}

function requestBody(exchange: Exchange, rules: RedactionRules): { body?: StoredBody } {
  if (exchange.bodyRefused) {
    const why =
      exchange.bodyRefused === 'too-large'
        ? 'larger than the simulator accepts'
        : `nested deeper than ${MAX_BODY_DEPTH} levels`;
    return { body: { text: `(not kept: ${why})`, json: false, truncated: true } };
  }
  const raw = exchange.rawBody;
  if (raw.length === 0) return {};
  const text = raw.toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON (form-encoded, cut short): the fields the pointers name are masked in the text.
    return { body: stored(redactBody(text, rules) as string, raw.length, false) };
  }
  return { body: storedJson(parsed, raw.length, rules) };
}

function responseBody(answer: Answer, rules: RedactionRules): { body?: StoredBody } {
  if (answer.kind === 'json') {
    if (answer.body === undefined || answer.status === 204) return {};
    // The text it was sent as, when the pipeline wrote it already: parsed again only when someone looks.
    return { body: storedJson(answer.text === undefined ? answer.body : JSON.parse(answer.text), undefined, rules) };
  }
  if (answer.kind !== 'raw') return {};
  const parsed = answerBody(answer);
  if (parsed !== undefined) return { body: storedJson(parsed, answer.raw.length, rules) };
  return answer.raw.length
    ? { body: stored(redactBody(answer.raw.toString('utf8'), rules) as string, answer.raw.length, false) }
    : {};
}

/**
 * Masked before it is cut, so no secret survives in a prefix; kept as text, so a handler that later mutates
 * the object it answered with does not rewrite history.
 */
function storedJson(value: unknown, size: number | undefined, rules: RedactionRules): StoredBody {
  const text = JSON.stringify(redactBody(value, rules)) ?? 'null';
  return stored(text, size ?? Buffer.byteLength(text), true);
}

function stored(text: string, size: number, json: boolean): StoredBody {
  return text.length > BODY_LIMIT
    ? { size, text: text.slice(0, BODY_LIMIT), json, truncated: true }
    : { size, text, json };
}

function view(body: StoredBody | undefined): { body?: BodyView } {
  if (!body) return {};
  const { text, json, ...rest } = body;
  // A cut JSON text no longer parses: it is shown as the text it is.
  return { body: json && !body.truncated ? { ...rest, json: JSON.parse(text) as unknown } : { ...rest, text } };
}

/**
 * The whole of an exchange (request and answer, headers and bodies), for the inspector's detail view and
 * `GET /__sim/exchanges/:id`: made once per exchange for its log entry (the pipeline's one write), and shown
 * from what the log kept. The journal keeps one line per exchange; the log keeps this, which a line leaves
 * out, on fewer of them (its `details` bound), and with secrets already masked: what is kept can be shown
 * to anyone who can reach the control API. Bodies are cut so a long run's memory stays flat.
 */
import { SimExchangeNotFoundError } from '../errors/errors.js';
import { MAX_BODY_DEPTH, answerBody, type Answer, type Exchange } from '../exchange/exchange.js';
import { redactBody, redactedRequestHead, redactHeaders, type RedactionRules } from '../recordings/redact.js';
import type { Violation } from '../openapi/violation.js';
import type { EventLog, ExchangeDetails, ExchangeSides, KeptBody } from '../state/log.js';

export const BODY_LIMIT = 64 * 1024;

/** A body as shown: the JSON value when it is JSON and whole, else its text (cut at the limit). */
export interface BodyView {
  /** Bytes as sent, before any cut (unknown for a body too large to read). */
  size?: number;
  json?: unknown;
  text?: string;
  truncated?: true;
}

export type ExchangeDetail = { id: string; time: number; iso: string } & ExchangeSides<BodyView> & {
    /** What was wrong with it against the spec, as the journal line has it. */
    violations?: Violation[];
    /** Answered by a rule outside the spec on purpose (`outsideSpec: true`). */
    outsideSpec?: true;
  };

/** The exchange as the log kept it; throws SimExchangeNotFoundError when it was never kept or has been let go. */
export function showExchange(log: EventLog, id: string): ExchangeDetail {
  const entry = log.detailed.get(id);
  const details = entry?.details;
  if (!entry || !details) {
    const n = requestNumber(id);
    const newest = log.detailed.newest === undefined ? undefined : requestNumber(log.detailed.newest);
    throw new SimExchangeNotFoundError(
      id,
      n !== undefined && newest !== undefined && n <= newest,
      log.detailed.capacity,
    );
  }
  const { request, response } = details.sides();
  return {
    id: entry.id,
    time: entry.time,
    iso: new Date(entry.time).toISOString(),
    request: { ...request, ...view(request.body) },
    response: { ...response, ...view(response.body) },
    ...(entry.violations ? { violations: entry.violations } : {}),
    ...(entry.outsideSpec ? { outsideSpec: true as const } : {}),
  };
}

/**
 * The exchange whole, for its log entry, with its secrets masked by `rules`. `sent`: the headers the pipeline
 * adds to the answer's own (CORS, `x-sim-…`).
 *
 * Keeps what the exchange was made of rather than its shown form: nothing of it changes afterwards (Node's
 * header object, the body's bytes, the text the answer was sent as), so masking and cutting it later shows
 * what masking it now would, and the request path pays only for a few references. A body past the cut is
 * shown at once instead, so a long one is not held whole.
 */
export function keepExchange(
  exchange: Exchange,
  answer: Answer,
  sent: Record<string, string>,
  rules: RedactionRules,
): ExchangeDetails {
  let requestSide = (): ExchangeSides['request'] => ({
    ...redactedRequestHead(exchange, rules),
    ...requestBody(exchange, rules),
  });
  let responseSide = (): ExchangeSides['response'] => ({
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
    weight: Math.min(requestSize, BODY_LIMIT) + Math.min(responseSize, BODY_LIMIT),
    sides: () => ({ request: requestSide(), response: responseSide() }),
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

function requestBody(exchange: Exchange, rules: RedactionRules): { body?: KeptBody } {
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

function responseBody(answer: Answer, rules: RedactionRules): { body?: KeptBody } {
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
function storedJson(value: unknown, size: number | undefined, rules: RedactionRules): KeptBody {
  const text = JSON.stringify(redactBody(value, rules)) ?? 'null';
  return stored(text, size ?? Buffer.byteLength(text), true);
}

function stored(text: string, size: number, json: boolean): KeptBody {
  return text.length > BODY_LIMIT
    ? { size, text: text.slice(0, BODY_LIMIT), json, truncated: true }
    : { size, text, json };
}

function view(body: KeptBody | undefined): { body?: BodyView } {
  if (!body) return {};
  const { text, json, ...rest } = body;
  // A cut JSON text no longer parses: it is shown as the text it is.
  return { body: json && !body.truncated ? { ...rest, json: JSON.parse(text) as unknown } : { ...rest, text } };
}

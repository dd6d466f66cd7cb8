/**
 * A whole answer's interaction as the recording's document, made from its parts: byte for byte what
 * `interactionDocument` makes of the same interaction, without building the interaction or serialising what
 * was serialised for an earlier one. Recording in front of an upstream, every request has a document made:
 * built as one object and stringified, indented, it was the largest of what recording adds to forwarding
 * (see bench/profile-notes.md). An upstream asked the same thing mostly answers the same head and the same
 * body, which the upstream client hands over as the same objects (`answeredHeaders`, the parsed bodies kept in
 * upstream.ts): their masked text is made once and kept with them.
 */
import type { Answer, Exchange } from '../exchange/exchange.js';
import { queryOf, REDACTED, redactBody, redactQuery, type RedactionRules } from './redact.js';
import { isoTime } from '../text/iso-time.js';

/** What a whole answer's interaction is made of, besides the exchange and its answer. */
export interface InteractionParts {
  seq: number;
  route: { operationId?: string; pathParams?: Record<string, string> };
  /** Wall ms when the exchange began, and how long the upstream took. */
  startedAt: number;
  durationMs: number;
}

export type InteractionText = (
  exchange: Exchange,
  answer: Exclude<Answer, { kind: 'stream' }>,
  parts: InteractionParts,
) => string;

/** The document maker for one set of rules: what it keeps was masked by them. */
export function interactionText(rules: RedactionRules): InteractionText {
  const secret = new Set(rules.headers);
  // Keyed by the objects themselves: the same object (never changed once made) has the same masked text.
  const headerTexts = new WeakMap<object, string>();
  const bodyTexts = new WeakMap<object, string>();

  /** A header object at the depth of `request.headers` and `response.headers`, secrets masked. */
  const headersText = (headers: Exchange['headers']): string => {
    let text = '';
    for (const name in headers) {
      const value = headers[name];
      if (value === undefined) continue;
      const shown = secret.has(name.toLowerCase()) ? REDACTED : Array.isArray(value) ? value.join(', ') : value;
      text += `${text ? ',' : ''}\n      ${quoted(name)}: ${quoted(shown)}`;
    }
    return text ? `{${text}\n    }` : '{}';
  };

  /** Route parameters at the depth of `pathParams`: names and strings, written as JSON.stringify would. */
  const paramsText = (params: Record<string, string>): string => {
    let text = '';
    for (const name in params) {
      const value = params[name];
      if (typeof value !== 'string') return nested(params, 1);
      text += `${text ? ',' : ''}\n    ${quoted(name)}: ${quoted(value)}`;
    }
    return text ? `{${text}\n  }` : '{}';
  };

  const answerHeadersText = (headers: Record<string, string>): string => {
    let text = headerTexts.get(headers);
    if (text === undefined) headerTexts.set(headers, (text = headersText(headers)));
    return text;
  };

  /** A body at the depth of `response.body`; one served again (the same object, unchanged) is masked once. */
  const bodyText = (body: unknown, served: boolean): string => {
    if (!served || typeof body !== 'object' || body === null) return nested(redactBody(body, rules), 2);
    let text = bodyTexts.get(body);
    if (text === undefined) bodyTexts.set(body, (text = nested(redactBody(body, rules), 2)));
    return text;
  };

  return (exchange, answer, { seq, route, startedAt, durationMs }) => {
    let text = `---\n{\n  "seq": ${seq},`;
    if (route.operationId !== undefined) text += `\n  "operationId": ${quoted(route.operationId)},`;
    if (route.pathParams !== undefined) text += `\n  "pathParams": ${paramsText(route.pathParams)},`;
    // A query is read only when there is one: most requests have none.
    const query = exchange.search === '' ? '{}' : nested(redactQuery(queryOf(exchange.searchParams), rules), 2);
    text +=
      `\n  "request": {\n    "method": ${quoted(exchange.method)},\n    "path": ${quoted(exchange.pathname)},` +
      `\n    "query": ${query},\n    "headers": ${headersText(exchange.headers)}`;
    const sent = requestBody(exchange);
    if (sent !== undefined) text += `,\n    "body": ${nested(redactBody(sent, rules), 2)}`;
    text += `\n  },\n  "response": {\n    "status": ${answer.status},\n    "headers": ${answerHeadersText(answer.headers ?? {})}`;
    const body = answerBodyOf(answer);
    // Served again: the parsed body is the same object each time (a text made of the raw bytes is not).
    const served = answer.kind === 'raw' && answer.served === true && body === answer.body;
    if (body !== undefined) text += `,\n    "body": ${bodyText(body, served)}`;
    return `${text}\n  },\n  "timing": {\n    "started": "${isoTime(startedAt)}",\n    "durationMs": ${JSON.stringify(durationMs)}\n  }\n}\n`;
  };
}

/** What a recording keeps of a whole answer's body: its parsed value, or its text when it was not JSON. */
export function answerBodyOf(answer: Exclude<Answer, { kind: 'stream' }>): unknown {
  const parsed = answer.kind === 'json' || answer.kind === 'raw' ? answer.body : undefined;
  if (parsed !== undefined) return parsed;
  return answer.kind === 'raw' && answer.raw.length ? answer.raw.toString('utf8') : undefined;
}

/** The request's body as a recording keeps it: its JSON value, or its text when it is not JSON. */
export function requestBody(exchange: Pick<Exchange, 'rawBody'>): unknown {
  if (exchange.rawBody.length === 0) return undefined;
  const text = exchange.rawBody.toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** What JSON.stringify escapes in a string: quotes, backslashes, control characters and surrogates. */
const ESCAPED = /[^\x20\x21\x23-\x5b\x5d-\ud7ff\ue000-\uffff]/;

/**
 * A string as JSON.stringify writes it: most need no escape, and testing for one costs less than the call,
 * which showed in a recorded request's profile (bench/profile-notes.md).
 */
function quoted(text: string): string {
  return ESCAPED.test(text) ? JSON.stringify(text) : `"${text}"`;
}

/** A value as `JSON.stringify(…, null, 2)` writes it `depth` levels in (the document's own braces are level 0). */
function nested(value: unknown, depth: number): string {
  const text = JSON.stringify(value, null, 2);
  // JSON.stringify leaves no line break inside a string, so every one is where its indentation goes.
  return depth === 0 || !text.includes('\n') ? text : text.replaceAll('\n', INDENTS[depth] as string);
}

const INDENTS = ['\n', '\n  ', '\n    ', '\n      '];

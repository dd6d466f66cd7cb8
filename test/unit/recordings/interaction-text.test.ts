import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Answer, Exchange } from '../../../src/exchange/exchange.js';
import { interactionDocument, parseRecording } from '../../../src/recordings/format.js';
import { interactionText, requestBody } from '../../../src/recordings/interaction-text.js';
import {
  DEFAULT_REDACTION,
  mergeRedaction,
  redactBody,
  redactedRequestHead,
  redactHeaders,
  REDACTED,
  type RedactionRules,
} from '../../../src/recordings/redact.js';

type Whole = Exclude<Answer, { kind: 'stream' }>;

function exchangeOf(target: string, headers: Exchange['headers'], body = '', method = body ? 'POST' : 'GET'): Exchange {
  const url = new URL(`http://sim.invalid${target}`);
  return {
    id: 'req_000001',
    now: 0,
    method,
    pathname: url.pathname,
    search: url.search,
    searchParams: url.searchParams,
    headers,
    rawBody: Buffer.from(body),
  };
}

/** The interaction as the recorder built it before: one object, stringified whole. */
function reference(
  exchange: Exchange,
  answer: Whole,
  route: { operationId?: string; pathParams?: Record<string, string> },
  seq: number,
  startedAt: number,
  durationMs: number,
  rules: RedactionRules,
): string {
  const parsed = answer.kind === 'json' || answer.kind === 'raw' ? answer.body : undefined;
  const body =
    parsed !== undefined
      ? parsed
      : answer.kind === 'raw' && answer.raw.length
        ? answer.raw.toString('utf8')
        : undefined;
  return interactionDocument({
    seq,
    operationId: route.operationId,
    pathParams: route.pathParams,
    request: { ...redactedRequestHead(exchange, rules), body: redactBody(requestBody(exchange), rules) },
    response: {
      status: answer.status,
      headers: redactHeaders(answer.headers ?? {}, rules),
      body: redactBody(body, rules),
    },
    timing: { started: new Date(startedAt).toISOString(), durationMs },
  });
}

const SHELL = { location: { directory: '/home/dev' }, data: { id: 'sh_1', status: 'running', metadata: {} } };

describe('an interaction made from its parts', () => {
  it('is the document the whole interaction stringified makes, for each kind of whole answer', () => {
    const text = interactionText(DEFAULT_REDACTION);
    const raw = Buffer.from(JSON.stringify(SHELL));
    const answers: Whole[] = [
      { kind: 'raw', status: 200, headers: { 'content-type': 'application/json' }, body: SHELL, raw, served: true },
      { kind: 'raw', status: 200, headers: { 'content-type': 'text/plain' }, raw: Buffer.from('plain "text"\n') },
      { kind: 'raw', status: 204, headers: {}, raw: Buffer.alloc(0) },
      { kind: 'json', status: 404, body: { _tag: 'NotFound', message: 'no such shell' } },
      { kind: 'empty', status: 304 },
      { kind: 'raw', status: 200, headers: { 'content-type': 'application/json' }, body: [], raw: Buffer.from('[]') },
      { kind: 'raw', status: 200, headers: { 'content-type': 'application/json' }, body: 7, raw: Buffer.from('7') },
    ];
    const exchanges = [
      exchangeOf('/api/shell/sh_1', { host: '127.0.0.1:4096', 'user-agent': 'sdk' }),
      exchangeOf('/api/session?limit=2&auth_token=tok-1&tag=a&tag=b', { authorization: 'Bearer k', cookie: 'a=b' }),
      exchangeOf('/api/integration/x/connect/key', { 'content-type': 'application/json' }, '{"key":"sk-1","a":[1]}'),
      exchangeOf('/api/form', { 'x-many': ['a', 'b'] as unknown as string }, 'key=sk-2&b=1', 'PUT'),
      exchangeOf('/api/empty?', {}),
    ];
    const routes: Array<{ operationId?: string; pathParams?: Record<string, string> }> = [
      {},
      { operationId: 'v2.shell.get', pathParams: { shellID: 'sh_1' } },
      { pathParams: {} },
    ];
    let seq = 0;
    for (const exchange of exchanges)
      for (const answer of answers)
        for (const route of routes) {
          seq++;
          const made = text(exchange, answer, { seq, route, startedAt: 1_795_338_000_000 + seq, durationMs: seq / 7 });
          const expected = reference(exchange, answer, route, seq, 1_795_338_000_000 + seq, seq / 7, DEFAULT_REDACTION);
          expect(made, `${exchange.method} ${exchange.pathname}${exchange.search} → ${answer.kind}`).toBe(expected);
        }
  });

  it('is the same document for any headers, query, bodies and rules', () => {
    const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,12}$/).filter((n) => n !== '__proto__');
    const json = fc.jsonValue({ maxDepth: 4 });
    // Any UTF-16 code units, lone surrogates and control characters included: what JSON escapes in a string.
    const units = fc
      .array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 12 })
      .map((codes) => String.fromCharCode(...codes));
    fc.assert(
      fc.property(
        fc.dictionary(name, fc.oneof(fc.string(), units, fc.constant('Bearer sk-live-1'))),
        fc.dictionary(fc.string({ minLength: 1 }), fc.string()),
        fc.option(
          fc.oneof(
            json.map((v) => JSON.stringify(v)),
            fc.string(),
          ),
          { nil: undefined },
        ),
        fc.option(json, { nil: undefined }),
        fc.record({
          headers: fc.array(name, { maxLength: 3 }),
          pointers: fc.array(fc.constant('/a/b'), { maxLength: 1 }),
        }),
        fc.boolean(),
        fc.option(fc.dictionary(fc.oneof(fc.string(), units), fc.oneof(fc.string(), units)), { nil: undefined }),
        fc.oneof(
          fc.integer({ min: 0, max: 4_102_444_800_000 }),
          fc.double({ min: -1e13, max: 8.64e15 - 10, noNaN: true }),
        ),
        (headers, query, sentBody, answerBody, extra, served, pathParams, startedAt) => {
          const rules = mergeRedaction(extra);
          const search = new URLSearchParams(query).toString();
          const exchange = exchangeOf(`/api/x${search ? `?${search}` : ''}`, headers, sentBody ?? '');
          const answer: Whole =
            answerBody === undefined
              ? { kind: 'empty', status: 204, headers: { 'x-b': 'y' } }
              : {
                  kind: 'raw',
                  status: 200,
                  headers: { ...headers, 'content-type': 'application/json' },
                  body: answerBody,
                  raw: Buffer.from(JSON.stringify(answerBody)),
                  ...(served ? { served: true as const } : {}),
                };
          const make = interactionText(rules);
          // Twice: the second time from what was kept of the first.
          const route = { operationId: 'op', pathParams };
          for (const seq of [1, 2]) {
            const made = make(exchange, answer, { seq, route, startedAt: startedAt + seq, durationMs: 1.5 });
            expect(made).toBe(reference(exchange, answer, route, seq, startedAt + seq, 1.5, rules));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('masks a secret header, query value and body field, and reads back as the interaction', () => {
    const make = interactionText(DEFAULT_REDACTION);
    const body = { key: 'sk-answer', ok: true };
    const answer: Whole = {
      kind: 'raw',
      status: 200,
      headers: { 'set-cookie': 'sid=secret-cookie', 'content-type': 'application/json' },
      body,
      raw: Buffer.from(JSON.stringify(body)),
      served: true,
    };
    const exchange = exchangeOf(
      '/api/integration/x/connect/key?auth_token=tok-secret',
      { authorization: 'Bearer sk-header', 'x-api-key': 'sk-api' },
      '{"key":"sk-body"}',
    );
    // The masked text of the served body is kept: asked again, it is still masked.
    for (const seq of [1, 2]) {
      const text = make(exchange, answer, { seq, route: {}, startedAt: 0, durationMs: 1 });
      for (const secret of ['sk-answer', 'secret-cookie', 'tok-secret', 'sk-header', 'sk-api', 'sk-body'])
        expect(text).not.toContain(secret);
      const [interaction] = parseRecording(text).interactions;
      expect(interaction?.request).toMatchObject({
        query: { auth_token: REDACTED },
        headers: { authorization: REDACTED, 'x-api-key': REDACTED },
        body: { key: REDACTED },
      });
      expect(interaction?.response).toMatchObject({
        headers: { 'set-cookie': REDACTED },
        body: { key: REDACTED, ok: true },
      });
    }
    // The body object itself is left as it was: it is served to the client as it is.
    expect(body.key).toBe('sk-answer');
  });
});

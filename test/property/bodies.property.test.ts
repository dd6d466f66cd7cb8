/**
 * Request bodies over every operation: the valid body with a field set to a value of any type (huge and
 * negative-zero number literals, `"NaN"`, unicode, nesting), fields dropped or repeated, `__proto__` and
 * `constructor` payloads at the top and inside, thousands of levels of nesting, huge strings, broken JSON,
 * bytes that are not UTF-8, and content types that are not JSON. Every answer must be JSON: the operation's
 * declared error or a success valid against the spec.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TARGETS, contentType, deepJson, requestBodyText, type TargetOperation } from '../support/arbitraries.js';
import {
  RUNS,
  afterTheRun,
  exchange,
  params,
  runs,
  sampleRequest,
  timeoutFor,
  useSimulator,
  type WireRequest,
} from './harness.js';

const fixture = useSimulator();

/** Cases per operation (23 × 130 = 2,990 requests a run). */
const PER_OPERATION = RUNS.bodyPerOperation;

function bodyCase(target: TargetOperation): fc.Arbitrary<WireRequest> {
  return fc
    .record({
      body: requestBodyText(target),
      type: fc.oneof(
        { weight: 4, arbitrary: fc.constant<string | undefined>('application/json') },
        { weight: 1, arbitrary: contentType },
      ),
      // a GET or DELETE with a body, now and then a HEAD of a GET
      method: fc.oneof(
        { weight: 9, arbitrary: fc.constant(target.method) },
        { weight: 1, arbitrary: fc.constant(target.method === 'GET' ? 'HEAD' : target.method) },
      ),
    })
    .map(({ body, type, method }) =>
      sampleRequest(target, {
        method,
        body,
        headers: body === undefined || type === undefined ? [] : [['content-type', type]],
      }),
    );
}

it('aims at every operation of the spec but the streams (the two event streams, the PTY WebSocket) and wait', () => {
  expect(TARGETS).toHaveLength(87);
});

describe.each(TARGETS.map((t) => [t.operationId, t] as const))('%s', (_id, target) => {
  it(
    'answers any body and content type with JSON, a declared error or a valid success',
    async () => {
      await fc.assert(
        fc.asyncProperty(bodyCase(target), async (request) => {
          await exchange(fixture, request);
        }),
        params(PER_OPERATION),
      );
    },
    timeoutFor(PER_OPERATION),
  );
});

describe('deep nesting', () => {
  const byId = (id: string) => TARGETS.find((t) => t.operationId === id) as TargetOperation;
  // JSON.parse takes any depth; whatever walks the parsed body recursively afterwards (JSON.stringify,
  // structuredClone, a validator) must not turn 5,000 levels into a stack overflow (it once answered an
  // HTML 500 with the stack).
  it.each([
    ['a GET that takes no body', 'v2.plugin.list', deepJson(5_000, 'array')],
    [
      'a free-form member (synthetic metadata)',
      'v2.session.synthetic',
      `{"text":"hi","metadata":${deepJson(5_000, 'object')}}`,
    ],
    [
      'a member next to a redacted secret (connect key)',
      'v2.integration.connect.key',
      `{"key":"k","label":"l","extra":${deepJson(5_000, 'array')}}`,
    ],
    ['a typed member (compact id)', 'v2.session.compact', `{"id":${deepJson(5_000, 'array')}}`],
  ])('answers a body nested 5,000 levels deep in %s with JSON', async (_name, id, body) => {
    const answer = await exchange(
      fixture,
      sampleRequest(byId(id), { body, headers: [['content-type', 'application/json']] }),
    );
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
  });
});

describe('wide arrays', () => {
  const byId = (id: string) => TARGETS.find((t) => t.operationId === id) as TargetOperation;
  // One schema error per item: 150,000 of them once overflowed a spread into push (300 kB of body, far
  // under the 10 MiB limit, answered 500 after a second).
  it.each([
    ['v2.session.question.reply', `{"answers":[${Array<string>(150_000).fill('1').join(',')}]}`],
    ['v2.session.permission.create', `{"action":"bash","resources":[${Array<string>(150_000).fill('1').join(',')}]}`],
  ])(
    'answers %s with 150,000 wrong items with its declared error',
    async (id, body) => {
      const answer = await exchange(
        fixture,
        sampleRequest(byId(id), { body, headers: [['content-type', 'application/json']] }),
        { timeoutMs: 20_000 },
      );
      expect(answer.status).toBe(400);
    },
    30_000,
  );
});

afterTheRun(fixture, TARGETS.length * runs(PER_OPERATION));

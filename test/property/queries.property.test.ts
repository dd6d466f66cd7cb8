/**
 * Query strings over every operation: deep `location[a][b][c]…` keys, prototype keys, repeated keys, the
 * operation's own parameters with adversarial values, broken escapes, and values up to 100 kB (past the
 * simulator's header limit the answer is its JSON 431). Every answer must be JSON: the operation's declared
 * error or a success valid against the spec, or, for an oversized request line, the simulator's refusal.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TARGETS, queryString, type TargetOperation } from '../support/arbitraries.js';
import {
  NODE_HEADER_LIMIT,
  RUNS,
  afterTheRun,
  exchange,
  headSize,
  params,
  runs,
  sampleRequest,
  timeoutFor,
  useSimulator,
  type WireRequest,
} from './harness.js';

const fixture = useSimulator();

/** Cases per operation (23 × 100 = 2,300 requests a run). */
const PER_OPERATION = RUNS.queryPerOperation;

function queryCase(target: TargetOperation): fc.Arbitrary<WireRequest> {
  return queryString(target).map((query) => sampleRequest(target, { query }));
}

describe.each(TARGETS.map((t) => [t.operationId, t] as const))('%s', (_id, target) => {
  it(
    'answers any query string with JSON, a declared error or a valid success',
    async () => {
      await fc.assert(
        fc.asyncProperty(queryCase(target), async (request) => {
          await exchange(fixture, request);
        }),
        params(PER_OPERATION),
      );
    },
    timeoutFor(PER_OPERATION),
  );
});

describe('prototype keys in location', () => {
  // `prop in object` sees inherited members: a key given once must not be reported as repeated.
  it.each(['__proto__', 'constructor', 'toString'])(
    'answers location[%s] as the unknown key it is, not as a repeated one',
    async (key) => {
      const plugins = TARGETS.find((t) => t.operationId === 'v2.plugin.list') as TargetOperation;
      const answer = await exchange(fixture, sampleRequest(plugins, { query: `location[${key}]=/tmp` }));
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.text).message).not.toMatch(/more than once/);
    },
  );
});

describe('long query strings', () => {
  const fsList = TARGETS.find((t) => t.operationId === 'v2.fs.list') as TargetOperation;
  const messages = TARGETS.find((t) => t.operationId === 'v2.session.messages') as TargetOperation;

  // Past Node's default 16 kB a bare 431 with an empty body used to come back; a browser sends URLs this long.
  it('answers a 20 kB location query with the operation, in JSON', async () => {
    const request = sampleRequest(fsList, { query: `path=src&location[directory]=/home/dev/${'d'.repeat(20_000)}` });
    expect(headSize(request)).toBeGreaterThan(NODE_HEADER_LIMIT);
    const answer = await exchange(fixture, request);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text).location.directory).toBe(`/home/dev/${'d'.repeat(20_000)}`);
  });

  it('answers a 20 kB cursor with the declared InvalidCursorError, in JSON', async () => {
    const answer = await exchange(fixture, sampleRequest(messages, { query: `cursor=${'A'.repeat(20_000)}` }));
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text)._tag).toBe('InvalidCursorError');
  });

  it('refuses a 100 kB query string in JSON, and keeps serving', async () => {
    const answer = await exchange(fixture, sampleRequest(fsList, { query: `path=${'p'.repeat(100_000)}` }), {
      fresh: true,
    });
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.status).toBe(431);
    expect(JSON.parse(answer.text)._tag).toBe('SimRequestRefusedError');
    expect((await exchange(fixture, sampleRequest(fsList))).status).toBe(200);
  });

  it('answers 2,000 levels of location nesting and 1,000 repeated keys with the declared error', async () => {
    for (const query of [
      `location${'[a]'.repeat(2_000)}=x`,
      Array<string>(1_000).fill('location[directory]=/tmp').join('&'),
    ]) {
      const answer = await exchange(fixture, sampleRequest(fsList, { query }));
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.text)._tag).toBe('InvalidRequestError');
    }
  });
});

afterTheRun(fixture, TARGETS.length * runs(PER_OPERATION));

/**
 * Headers over every operation: `Prefer` controls (the operation's own statuses and examples, and every
 * malformed variant), `X-Sim-Partition` names valid and not, content types, CORS headers, credentials and
 * random names with unicode, control-character and prototype-key values. The answer must be the operation's
 * own (a declared error, a spec-valid success, a declared 5xx only when `Prefer: code=` asked for it) or one
 * of the simulator's rules: SimPreferenceError for a preference it refuses, SimPartitionNameError for a name
 * that cannot be one. Then all of it at once: adversarial headers, query, body and a path parameter in one
 * request. Preflights answer 204 whatever they carry.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  TARGETS,
  headerList,
  headerValue,
  pathSegment,
  queryString,
  requestBodyText,
  type TargetOperation,
} from '../support/arbitraries.js';
import {
  RUNS,
  afterTheRun,
  exchange,
  params,
  pathWith,
  runs,
  sampleRequest,
  timeoutFor,
  useSimulator,
  type WireRequest,
} from './harness.js';

const fixture = useSimulator();

/** Cases: 23 × 50 header sets, 23 × 50 of everything at once, 200 preflights = 2,500 requests a run. */
const RUNS_PER_OPERATION = RUNS.headerPerOperation;
const RUNS_COMBINED = RUNS.combinedPerOperation;
const RUNS_PREFLIGHT = RUNS.preflights;

function headerCase(target: TargetOperation): fc.Arbitrary<WireRequest> {
  return headerList(target).map((headers) => {
    const request = sampleRequest(target);
    return { ...request, headers: [...(request.headers ?? []), ...headers] };
  });
}

/** Headers, query, body and a path parameter, each adversarial or left valid: what no single property tries. */
function everythingCase(target: TargetOperation): fc.Arbitrary<WireRequest> {
  const names = target.pathParams.map((p) => p.name);
  return fc
    .record({
      headers: headerList(target),
      query: fc.option(queryString(target), { freq: 2 }),
      body: fc.option(requestBodyText(target), { freq: 2 }),
      param: names.length
        ? fc.option(fc.tuple(fc.constantFrom(...names), pathSegment), { freq: 2 })
        : fc.constant(null),
    })
    .map(({ headers, query, body, param }) => {
      const base = sampleRequest(target, body === null ? {} : { body });
      const path = param === null ? target.sample.path : pathWith(target, { [param[0]]: param[1] });
      const q = query ?? target.sample.query;
      return { ...base, target: q ? `${path}?${q}` : path, headers: [...(base.headers ?? []), ...headers] };
    });
}

describe.each(TARGETS.map((t) => [t.operationId, t] as const))('%s', (_id, target) => {
  it(
    'answers any set of headers with JSON, the operation answer or the simulator rule for it',
    async () => {
      await fc.assert(
        fc.asyncProperty(headerCase(target), async (request) => {
          await exchange(fixture, request);
        }),
        params(RUNS_PER_OPERATION),
      );
    },
    timeoutFor(RUNS_PER_OPERATION),
  );
});

describe.each(TARGETS.map((t) => [t.operationId, t] as const))('%s, everything at once', (_id, target) => {
  it(
    'answers adversarial headers, query, body and path together with JSON, declared or the simulator rules',
    async () => {
      await fc.assert(
        fc.asyncProperty(everythingCase(target), async (request) => {
          await exchange(fixture, request);
        }),
        params(RUNS_COMBINED),
      );
    },
    timeoutFor(RUNS_COMBINED),
  );
});

describe('CORS preflights', () => {
  it(
    'answers OPTIONS of any operation with 204, whatever the request headers and origin',
    async () => {
      const preflight = fc
        .record({
          target: fc.constantFrom(...TARGETS),
          origin: fc.option(headerValue),
          method: fc.option(fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'x')),
          requested: fc.option(headerValue),
        })
        .map(({ target, origin, method, requested }): WireRequest => {
          const headers: [string, string][] = [];
          if (origin !== null) headers.push(['origin', origin]);
          if (method !== null) headers.push(['access-control-request-method', method]);
          if (requested !== null) headers.push(['access-control-request-headers', requested]);
          return { method: 'OPTIONS', target: target.sample.path, headers };
        });
      await fc.assert(
        fc.asyncProperty(preflight, async (request) => {
          const answer = await exchange(fixture, request);
          expect(answer.status).toBe(204);
          // Reflected byte for byte (the raw client reads header bytes as latin1, as Node does).
          const origin = request.headers?.find(([n]) => n === 'origin')?.[1].replace(/^[ \t]+|[ \t]+$/g, '');
          if (origin)
            expect(answer.headers['access-control-allow-origin']).toBe(Buffer.from(origin, 'utf8').toString('latin1'));
        }),
        params(RUNS_PREFLIGHT),
      );
    },
    timeoutFor(RUNS_PREFLIGHT),
  );
});

describe('Expect', () => {
  it('goes on after Expect: 100-continue', async () => {
    const target = TARGETS.find((t) => t.operationId === 'v2.pty.create') as TargetOperation;
    const request = sampleRequest(target);
    const answer = await exchange(fixture, {
      ...request,
      headers: [...(request.headers ?? []), ['expect', '100-continue']],
    });
    expect(answer.status).toBe(200);
  });

  // Node answers an expectation it cannot meet itself, unless told otherwise: a bare 417 with an empty body.
  it('answers an Expect it cannot meet with JSON', async () => {
    const answer = await exchange(fixture, {
      method: 'GET',
      target: '/api/plugin',
      headers: [['expect', 'something-else']],
    });
    expect(answer.status).toBe(417);
  });
});

afterTheRun(fixture, TARGETS.length * (runs(RUNS_PER_OPERATION) + runs(RUNS_COMBINED)) + runs(RUNS_PREFLIGHT));

/**
 * Paths and methods: every operation's path parameters replaced by adversarial segments (encoded strictly
 * or loosely, dot segments, broken escapes) and its literal segments bent; random paths and every method
 * Node's parser knows; partition prefixes; and raw request-targets and request lines no client library
 * would send. Routed requests must get the operation's declared answers, unrouted ones the simulator's
 * JSON 404/405, malformed HTTP its JSON refusal; nothing may hang, drop the connection or answer a 5xx.
 */
import { METHODS } from 'node:http';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  NASTY_STRINGS,
  TARGETS,
  partitionName,
  pathSegment,
  percentEncode,
  queryEncode,
  type TargetOperation,
} from '../support/arbitraries.js';
import {
  CONTROL_PREFIX,
  PLANNED_CASES,
  RUNS,
  afterTheRun,
  exchange,
  params,
  pathWith,
  readRequest,
  runs,
  sampleRequest,
  timeoutFor,
  useSimulator,
  type WireRequest,
} from './harness.js';

const fixture = useSimulator();

/** Cases: 23 × 60 mutated paths, 1,000 random paths, 600 raw request lines = 2,980 requests a run. */
const RUNS_PER_OPERATION = RUNS.pathPerOperation;
const RUNS_RANDOM = RUNS.randomPaths;
const RUNS_RAW = RUNS.rawRequests;

/**
 * CONNECT gets its own test: Node hands it to a `connect` listener, not the request handler. GET and HEAD of
 * the event stream open a stream that never ends, which is not what these properties look at.
 */
const ROUTABLE_METHODS = METHODS.filter((m) => m !== 'CONNECT');

/** Requests these properties leave alone: the control plane (its inspector answers HTML) and the event stream. */
function outOfScope(request: WireRequest): boolean {
  const { pathname, route } = readRequest(request);
  if (pathname === undefined) return false;
  if (pathname === CONTROL_PREFIX || pathname.startsWith(`${CONTROL_PREFIX}/`)) return true;
  return route?.kind === 'operation' && route.operationId === 'v2.event.subscribe';
}

/** A literal segment bent: case, an escape for a plain letter, a dot segment around it, an extra slash. */
const bend = fc.constantFrom<(segments: string[], at: number) => string[]>(
  (s) => s,
  (s, at) => s.map((x, i) => (i === at ? x.toUpperCase() : x)),
  (s, at) => s.map((x, i) => (i === at && x.length ? `%${x.charCodeAt(0).toString(16)}${x.slice(1)}` : x)),
  (s, at) => [...s.slice(0, at), '.', ...s.slice(at)],
  (s, at) => [...s.slice(0, at), 'x', '..', ...s.slice(at)],
  (s, at) => [...s.slice(0, at), '', ...s.slice(at)],
  (s) => [...s, ''],
  (s) => [...s, 'extra'],
  (s) => s.slice(0, -1),
  (s, at) => s.map((x, i) => (i === at ? `${x}%00` : x)),
  (s, at) => s.map((x, i) => (i === at ? `${x};v=1` : x)),
);

function mutatedPath(target: TargetOperation): fc.Arbitrary<WireRequest> {
  const replacement = fc.option(pathSegment, { nil: undefined, freq: 4 });
  return fc
    .record({
      replacements: fc.tuple(...target.pathParams.map(() => replacement), fc.constant(undefined)),
      bend,
      at: fc.nat(),
      method: fc.oneof(
        { weight: 8, arbitrary: fc.constant(target.method) },
        { weight: 1, arbitrary: fc.constantFrom(...ROUTABLE_METHODS) },
      ),
      partition: fc.option(partitionName.map(percentEncode), { freq: 8 }),
    })
    .map(({ replacements, bend: bent, at, method, partition }) => {
      const named = Object.fromEntries(
        target.pathParams.flatMap((p, i) =>
          replacements[i] === undefined ? [] : [[p.name, replacements[i] as string]],
        ),
      );
      const segments = pathWith(target, named).split('/');
      const path = bent(segments, 1 + (at % Math.max(1, segments.length - 1))).join('/');
      const prefixed = partition === null ? path : `/__partition/${partition}${path}`;
      return sampleRequest(target, {
        method,
        target: target.sample.query ? `${prefixed}?${target.sample.query}` : prefixed,
      });
    })
    .filter((request) => !outOfScope(request));
}

const WORDS = [
  'api',
  'session',
  'shell',
  'integration',
  'form',
  'request',
  'message',
  'model',
  'default',
  'agent',
  'pty',
  'fs',
  'list',
  'plugin',
  'reference',
  'credential',
  'experimental',
  'project',
  'copy',
  'attempt',
  'connect',
  'key',
  'question',
  'reply',
  'instructions',
  'entries',
  'timeout',
  'compact',
  'permission',
  'revert',
  'stage',
  'synthetic',
  'switchModel',
  'v2',
  '__partition',
  'fuzz-a',
  '',
  '.',
  '..',
  '%2e%2e',
  'api.',
  'API',
];

const randomPath: fc.Arbitrary<WireRequest> = fc
  .record({
    segments: fc.array(
      fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...WORDS) }, { weight: 1, arbitrary: pathSegment }),
      { minLength: 0, maxLength: 8 },
    ),
    method: fc.constantFrom(...ROUTABLE_METHODS),
    query: fc.option(
      fc.array(fc.tuple(fc.constantFrom(...NASTY_STRINGS), fc.constantFrom(...NASTY_STRINGS)), { maxLength: 3 }),
      { freq: 3 },
    ),
    body: fc.option(fc.constantFrom('{}', '{"__proto__":{"polluted":"yes"}}', 'null', '[', 'x'), { freq: 3 }),
  })
  .map(({ segments, method, query, body }): WireRequest => {
    const q =
      query === null
        ? ''
        : `?${query.map(([k, v]) => `${queryEncode(k, 'percent')}=${queryEncode(v, 'loose')}`).join('&')}`;
    return {
      method,
      target: `/${segments.join('/')}${q}`,
      headers: body === null ? [] : [['content-type', 'application/json']],
      ...(body === null ? {} : { body }),
    };
  })
  .filter((request) => !outOfScope(request));

/** Characters of a request-target Node's parser may or may not take: it must refuse in JSON or answer. */
const TARGET_CHARS = [
  ...'abcAZ09/?#[]@:!$&\'()*+,;=%-._~\\^`{|}<>"',
  '%zz',
  '%2F',
  '%00',
  '..',
  '\u007f',
  '\u0080',
  'é',
  '😀',
  '\t',
  ' ',
  '\u0000',
  '\u000b',
];
const METHOD_NAMES = [
  ...ROUTABLE_METHODS,
  'get',
  'Get',
  'FOO',
  'GETS',
  'G',
  'M-SEARCH',
  'HEAD ',
  'PRI',
  'BREW',
  'DELETE\u0000',
  '*',
  '',
];
const VERSIONS = [
  'HTTP/1.1',
  'HTTP/1.0',
  'HTTP/1.2',
  'HTTP/2.0',
  'HTTP/0.9',
  'http/1.1',
  'HTTP/1',
  'HTTP/1.1 ',
  'HTTP/11',
  'FOO',
  '',
];

const rawRequest: fc.Arbitrary<WireRequest> = fc
  .record({
    method: fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS') },
      { weight: 1, arbitrary: fc.constantFrom(...METHOD_NAMES) },
    ),
    prefix: fc.constantFrom(
      '/',
      '/',
      '/api/',
      '/api/session/',
      '*',
      '//',
      'http://sim',
      'http://[::1]:1',
      'https://x',
      'http://x:99999',
      '',
      '?',
      '#',
      '%',
      '[',
      ':',
      '@',
      '\\',
    ),
    rest: fc.array(fc.constantFrom(...TARGET_CHARS), { maxLength: 12 }).map((cs) => cs.join('')),
    version: fc.oneof(
      { weight: 6, arbitrary: fc.constant('HTTP/1.1') },
      { weight: 1, arbitrary: fc.constantFrom(...VERSIONS) },
    ),
    header: fc.option(
      fc.constantFrom<[string, string]>(
        ['x-a', 'b\u0000c'],
        ['bad name', 'x'],
        ['x-a', 'é'],
        ['', 'x'],
        [':', 'x'],
        ['x-a ', 'x'],
        ['x-a', '\u0001'],
        ['content-length', 'abc'],
        ['content-length', '-1'],
        ['content-length', '0, 1'],
        ['transfer-encoding', 'gzip'],
        ['x-a', ' folded\r\n continued'],
        ['x-a\u0000', 'x'],
        ['X-Sim-Partition', 'é'],
        ['prefer', 'code=404\u0000'],
      ),
      { freq: 3 },
    ),
  })
  .map(({ method, prefix, rest, version, header }): WireRequest => ({
    method,
    target: prefix + rest,
    version,
    headers: header === null ? [] : [header],
  }))
  .filter((request) => !outOfScope(request));

it('plans at least 10,000 cases a run over the four property files', () => {
  expect(PLANNED_CASES).toBeGreaterThanOrEqual(10_000);
});

describe.each(TARGETS.map((t) => [t.operationId, t] as const))('%s', (_id, target) => {
  it(
    'answers adversarial path parameters and bent paths with JSON, declared or the simulator route errors',
    async () => {
      await fc.assert(
        fc.asyncProperty(mutatedPath(target), async (request) => {
          await exchange(fixture, request);
        }),
        params(RUNS_PER_OPERATION),
      );
    },
    timeoutFor(RUNS_PER_OPERATION),
  );
});

describe('paths that address no operation', () => {
  it(
    'answers random paths and methods with JSON: the operation it routes to, or a Sim 404 or 405',
    async () => {
      await fc.assert(
        fc.asyncProperty(randomPath, async (request) => {
          await exchange(fixture, request);
        }),
        params(RUNS_RANDOM),
      );
    },
    timeoutFor(RUNS_RANDOM),
  );

  it(
    'answers raw request lines, malformed or not, in JSON and never hangs or drops',
    async () => {
      await fc.assert(
        fc.asyncProperty(rawRequest, async (request) => {
          await exchange(fixture, request, { fresh: true, wellFormed: false });
        }),
        params(RUNS_RAW),
      );
    },
    timeoutFor(RUNS_RAW),
  );
});

describe('request lines a client library would not send', () => {
  // Node hands CONNECT to a `connect` listener, not the request handler; without one the socket was destroyed unanswered.
  it('answers CONNECT in JSON instead of dropping the connection', async () => {
    const answer = await exchange(
      fixture,
      { method: 'CONNECT', target: '127.0.0.1:1' },
      { fresh: true, wellFormed: false },
    );
    expect(answer.status).toBeGreaterThanOrEqual(400);
  });

  // Node's parser takes `*` followed by more characters, which `new URL` refuses: the request once went unanswered.
  it('answers the request-target *% instead of hanging', async () => {
    const answer = await exchange(
      fixture,
      { method: 'GET', target: '*%' },
      { fresh: true, wellFormed: false, timeoutMs: 2_000 },
    );
    expect(answer.status).toBeGreaterThanOrEqual(400);
  });

  // Targets Express's own URL parsing reads as no path: its router once answered them in HTML ("Cannot GET null").
  it.each(['//#@a', 'http://x@', 'http://[::1]:1a'])('answers the request-target %s in JSON', async (target) => {
    await exchange(fixture, { method: 'GET', target }, { fresh: true, wellFormed: false });
  });

  // RFC 9112 §3.2.2: a server must accept the absolute form (it was once read as the path //host/…).
  it('routes an absolute-form target by its path', async () => {
    const answer = await exchange(fixture, { method: 'GET', target: 'http://127.0.0.1/api/plugin' }, { fresh: true });
    expect(answer.status).toBe(200);
  });
});

describe('HEAD of the event stream', () => {
  // The answer to a HEAD ends with its headers; a stream kept open behind it would stall the connection.
  it('answers HEAD /api/event, then the next request on the same connection', async () => {
    const head = await exchange(fixture, { method: 'HEAD', target: '/api/event' }, { fresh: true });
    expect(head.status).toBe(200);
    const next = await exchange(fixture, { method: 'GET', target: '/api/plugin' }, { timeoutMs: 2_000 });
    expect(next.status).toBe(200);
  });
});

afterTheRun(fixture, TARGETS.length * runs(RUNS_PER_OPERATION) + runs(RUNS_RANDOM) + runs(RUNS_RAW));

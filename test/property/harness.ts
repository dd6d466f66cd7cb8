/**
 * What the property tests share: one simulator per test file on a real socket, a raw HTTP/1.1 client that
 * sends exactly the bytes it is given (node:http refuses many of the paths and headers worth sending) with a
 * deadline on every answer, and the oracle every answer is held to.
 *
 *   npx vitest run test/property                      the fixed seed, ~11,000 requests
 *   FC_SEED=42 FC_RUNS=10 npx vitest run test/property  another seed, ten times the cases (a bug hunt)
 *   FC_NO_SHRINK=1 …                                  report a failure as found, without shrinking it
 *
 * A failure prints the seed and the counterexample; `FC_SEED=<seed>` replays it.
 */
import { connect, type Socket } from 'node:net';
import type fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningSimulator } from '../../src/hosts/server.js';
import { declaredTags, operation as specOperation, operations, specProblems } from '../support/spec-validator.js';
import { EVENT_STREAM, TARGETS, type HeaderList, type TargetOperation } from '../support/arbitraries.js';

// ---- Seeds and run counts -----------------------------------------------------------------------------

/** Fixed so CI is deterministic; `FC_SEED=…` replays or explores another seed. */
export const SEED = process.env.FC_SEED === undefined ? 0x5eed_2024 : Number(process.env.FC_SEED);
/** `FC_RUNS=4` runs four times as many cases; `FC_RUNS=0.1` a tenth (at least one per property). */
export const SCALE = process.env.FC_RUNS === undefined ? 1 : Number(process.env.FC_RUNS);
if (!Number.isFinite(SEED) || !Number.isFinite(SCALE) || SCALE <= 0)
  throw new Error(
    `FC_SEED must be a number and FC_RUNS a positive number, got ${process.env.FC_SEED} and ${process.env.FC_RUNS}`,
  );

/** How many requests this run sends, over all properties of the process (counted by `send`). */
export const counter = { requests: 0 };

export function runs(base: number): number {
  return Math.max(1, Math.round(base * SCALE));
}

/**
 * fast-check parameters: the seed and the run count; `FC_NO_SHRINK=1` stops at the first failure (a hang
 * costs the answer deadline at every shrink step).
 */
export function params<T>(base: number): fc.Parameters<T> {
  return { seed: SEED, numRuns: runs(base), endOnFailure: process.env.FC_NO_SHRINK === '1' };
}

/**
 * The vitest timeout for a property of `base` runs: generous (a hang costs 5 s at each shrink step, a wide
 * body a few hundred ms), since a property vitest gives up on keeps sending in the background.
 */
export function timeoutFor(base: number): number {
  return 60_000 + runs(base) * 200;
}

/**
 * Cases per property before `FC_RUNS` scales them; the four files together plan `PLANNED_CASES` requests a
 * run (the acceptance criterion is at least 10,000), besides their example-based tests.
 */
export const RUNS = {
  bodyPerOperation: 130,
  queryPerOperation: 100,
  pathPerOperation: 60,
  headerPerOperation: 50,
  combinedPerOperation: 50,
  randomPaths: 1_000,
  rawRequests: 600,
  preflights: 200,
} as const;

export const PLANNED_CASES =
  TARGETS.length *
    (RUNS.bodyPerOperation +
      RUNS.queryPerOperation +
      RUNS.pathPerOperation +
      RUNS.headerPerOperation +
      RUNS.combinedPerOperation) +
  RUNS.randomPaths +
  RUNS.rawRequests +
  RUNS.preflights;

// ---- The raw client -----------------------------------------------------------------------------------

export interface WireRequest {
  method: string;
  /** The request-target exactly as sent. */
  target: string;
  headers?: HeaderList;
  body?: string | Buffer;
  /** `HTTP/1.1` unless given. */
  version?: string;
}

export interface WireAnswer {
  status: number;
  /** Lower-cased names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  body: Buffer;
  text: string;
}

export const ANSWER_TIMEOUT_MS = 5_000;

function bodyBytes(request: WireRequest): Buffer | undefined {
  return request.body === undefined
    ? undefined
    : Buffer.isBuffer(request.body)
      ? request.body
      : Buffer.from(request.body, 'utf8');
}

function head(request: WireRequest, bodyLength: number | undefined): string {
  const lines = [`${request.method} ${request.target} ${request.version ?? 'HTTP/1.1'}`, 'host: 127.0.0.1'];
  for (const [name, value] of request.headers ?? []) lines.push(`${name}: ${value}`);
  if (bodyLength !== undefined) lines.push(`content-length: ${bodyLength}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** The bytes of a request: request line, `host`, the given headers, a content-length for a body. */
export function serialize(request: WireRequest): Buffer {
  const body = bodyBytes(request);
  return body
    ? Buffer.concat([Buffer.from(head(request, body.length), 'utf8'), body])
    : Buffer.from(head(request, undefined), 'utf8');
}

/** Size of the request line and headers, as the server's header limit counts them (roughly). */
export function headSize(request: WireRequest): number {
  return Buffer.byteLength(head(request, request.body === undefined ? undefined : Buffer.byteLength(request.body)));
}

type Parsed = { answer: WireAnswer; rest: Buffer } | undefined;

/** One answer from the front of `buffer`, or undefined while it is incomplete; 1xx interim answers are skipped. */
function parseAnswer(buffer: Buffer, method: string, ended: boolean): Parsed {
  let start = 0;
  for (;;) {
    const end = buffer.indexOf('\r\n\r\n', start);
    if (end < 0) return undefined;
    const [statusLine = '', ...lines] = buffer.subarray(start, end).toString('latin1').split('\r\n');
    const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
    if (!match) throw new Error(`not an HTTP answer: ${JSON.stringify(statusLine.slice(0, 80))}`);
    const status = Number(match[1]);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      // HTTP trims spaces and tabs only (not U+00A0, which a latin1 reading of UTF-8 bytes may end with).
      const value = line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '');
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
    const bodyStart = end + 4;
    if (status >= 100 && status < 200) {
      start = bodyStart;
      continue;
    }
    const done = (from: number, to: number, restFrom: number): Parsed => {
      const body = buffer.subarray(from, to);
      return { answer: { status, headers, body, text: body.toString('utf8') }, rest: buffer.subarray(restFrom) };
    };
    if (method === 'HEAD' || status === 204 || status === 304) return done(bodyStart, bodyStart, bodyStart);
    if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
      const chunks: Buffer[] = [];
      let at = bodyStart;
      for (;;) {
        const lineEnd = buffer.indexOf('\r\n', at);
        if (lineEnd < 0) return undefined;
        const size = parseInt(buffer.subarray(at, lineEnd).toString('latin1'), 16);
        if (Number.isNaN(size)) throw new Error('bad chunk size');
        if (size === 0) {
          const trailerEnd = buffer.indexOf('\r\n', lineEnd + 2);
          if (trailerEnd < 0) return undefined;
          const body = Buffer.concat(chunks);
          return {
            answer: { status, headers, body, text: body.toString('utf8') },
            rest: buffer.subarray(trailerEnd + 2),
          };
        }
        if (buffer.length < lineEnd + 2 + size + 2) return undefined;
        chunks.push(buffer.subarray(lineEnd + 2, lineEnd + 2 + size));
        at = lineEnd + 2 + size + 2;
      }
    }
    if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length']);
      if (buffer.length < bodyStart + length) return undefined;
      return done(bodyStart, bodyStart + length, bodyStart + length);
    }
    return ended ? done(bodyStart, buffer.length, buffer.length) : undefined;
  }
}

export class WireClient {
  private socket: Socket | undefined;
  private lastUsed = 0;

  constructor(readonly port: number) {}

  /**
   * Sends one request and reads its answer, on a kept-alive connection unless `fresh`. Rejects, naming what
   * happened, on a socket error, a connection closed before a whole answer, or no answer within the deadline.
   */
  send(request: WireRequest, options: { fresh?: boolean; timeoutMs?: number } = {}): Promise<WireAnswer> {
    counter.requests++;
    // Node closes an idle kept-alive connection after 5 s: a connection idle for a while is not trusted.
    if (
      options.fresh ||
      !this.socket ||
      this.socket.destroyed ||
      !this.socket.writable ||
      Date.now() - this.lastUsed > 2_000
    ) {
      this.socket?.destroy();
      this.socket = connect(this.port, '127.0.0.1');
      this.socket.setNoDelay(true);
      // Between requests nobody listens: a reset then must not become an uncaught error.
      this.socket.on('error', () => {});
    }
    const socket = this.socket;
    const timeoutMs = options.timeoutMs ?? ANSWER_TIMEOUT_MS;
    return new Promise<WireAnswer>((resolve, reject) => {
      let buffer = Buffer.alloc(0);
      let settled = false;
      const finish = (error: Error | undefined, answer?: WireAnswer) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        socket.off('data', onData);
        socket.off('end', onEnd);
        socket.off('close', onClose);
        socket.off('error', onError);
        this.lastUsed = Date.now();
        if (error || !answer || /close/i.test(answer.headers.connection ?? '')) {
          socket.destroy();
          if (this.socket === socket) this.socket = undefined;
        }
        if (error) reject(error);
        else resolve(answer as WireAnswer);
      };
      const tryParse = (ended: boolean) => {
        let parsed: Parsed;
        try {
          // Node's parser reads `HEAD  /` (extra spaces) as a HEAD too.
          parsed = parseAnswer(buffer, request.method.trim(), ended);
        } catch (error) {
          finish(new Error(`unparseable answer: ${(error as Error).message}`));
          return;
        }
        if (parsed) {
          // Bytes after a closing answer are dropped with the connection (a refusal cannot know it refused a HEAD).
          if (parsed.rest.length && !/close/i.test(parsed.answer.headers.connection ?? ''))
            finish(
              new Error(
                `${parsed.rest.length} bytes after the answer: ${JSON.stringify(parsed.rest.toString('latin1').slice(0, 200))}`,
              ),
            );
          else finish(undefined, parsed.answer);
        } else if (ended) {
          finish(
            new Error(
              `connection closed before a complete answer (${buffer.length} bytes: ${JSON.stringify(buffer.toString('latin1').slice(0, 200))})`,
            ),
          );
        }
      };
      const onData = (chunk: Buffer) => {
        buffer = Buffer.concat([buffer, chunk]);
        tryParse(false);
      };
      const onEnd = () => tryParse(true);
      const onClose = () => tryParse(true);
      const onError = (error: NodeJS.ErrnoException) =>
        finish(new Error(`socket error ${error.code ?? error.message} (${buffer.length} bytes received)`));
      const timer = setTimeout(
        () => finish(new Error(`no answer within ${timeoutMs} ms (a hang; ${buffer.length} bytes received)`)),
        timeoutMs,
      );
      socket.on('data', onData);
      socket.on('end', onEnd);
      socket.on('close', onClose);
      socket.on('error', onError);
      socket.write(serialize(request));
    });
  }

  close(): void {
    this.socket?.destroy();
    this.socket = undefined;
  }
}

// ---- One simulator per file ---------------------------------------------------------------------------

export interface Fixture {
  sim: RunningSimulator;
  client: WireClient;
  /** Every line the simulator logged. */
  logged: string[];
}

/** The own property names of the prototypes a pollution would land on, taken before the simulator starts. */
const PROTOTYPES = {
  Object: Object.prototype,
  Array: Array.prototype,
  Function: Function.prototype,
  String: String.prototype,
} as const;
function prototypeSnapshot(): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(PROTOTYPES).map(([name, proto]) => [name, Reflect.ownKeys(proto).map(String).sort()]),
  );
}
export const PROTOTYPES_BEFORE = prototypeSnapshot();
const POLLUTION_PROBES = ['polluted', 'isAdmin', 'admin', 'foo', 'x', 'a', 'status', 'toJSON'];

/** What a pollution would have changed, or [] when every prototype is as it was. */
export function pollution(): string[] {
  const problems: string[] = [];
  const now = prototypeSnapshot();
  for (const name of Object.keys(PROTOTYPES)) {
    const added = (now[name] ?? []).filter((k) => !(PROTOTYPES_BEFORE[name] ?? []).includes(k));
    const removed = (PROTOTYPES_BEFORE[name] ?? []).filter((k) => !(now[name] ?? []).includes(k));
    if (added.length || removed.length)
      problems.push(`${name}.prototype changed: +[${added.join(', ')}] -[${removed.join(', ')}]`);
  }
  const plain = {} as Record<string, unknown>;
  const list = [] as unknown as Record<string, unknown>;
  for (const key of POLLUTION_PROBES) {
    if (plain[key] !== undefined) problems.push(`({}).${key} is ${String(plain[key])}`);
    if (list[key] !== undefined) problems.push(`[].${key} is ${String(list[key])}`);
  }
  if (Object.getPrototypeOf({}) !== Object.prototype) problems.push('({}) no longer has Object.prototype');
  return problems;
}

/** Starts a simulator for the file (closed after it) and returns the handle the tests fill in. */
export function useSimulator(): Fixture {
  const fixture = { logged: [] as string[] } as Fixture;
  beforeAll(async () => {
    // Imported here, so a file that only uses the oracle (oracle.test.ts) does not load the simulator.
    const { startServer } = await import('../../src/hosts/server.js');
    fixture.sim = await startServer({ port: 0, scenario: 'default', log: (line) => fixture.logged.push(line) });
    fixture.client = new WireClient(fixture.sim.port);
  }, 60_000);
  afterAll(async () => {
    fixture.client?.close();
    await fixture.sim?.close();
  });
  return fixture;
}

/**
 * The file's last test: after every property ran, the simulator still answers every operation, logged no
 * unexpected failure, and every prototype is as it was; and the properties sent at least `planned` requests.
 */
export function afterTheRun(fixture: Fixture, planned: number): void {
  it('still answers every operation afterwards, logged no unexpected failure and left every prototype as it was', async () => {
    for (const target of TARGETS) expect((await exchange(fixture, sampleRequest(target))).status).toBeLessThan(500);
    expect((await exchange(fixture, { method: 'GET', target: '/api/plugin' })).status).toBe(200);
    expect(failureLines(fixture.logged)).toEqual([]);
    expect(pollution()).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
  // Fewer requests than planned means a property stopped early (it failed, or a filter starved it).
  it(`sent at least the ${planned} requests its properties plan`, () => {
    expect(counter.requests).toBeGreaterThanOrEqual(planned);
  });
}

/** Lines the pipeline logs for an unexpected failure (`[err_…] METHOD path: stack`). */
export function failureLines(logged: readonly string[]): string[] {
  return logged.filter((line) => /^\[err_[0-9a-f]+\]/.test(line));
}

// ---- The oracle ---------------------------------------------------------------------------------------

/** The operations that queue a turn, refused past the session's or the partition's queue limit. */
const QUEUES = new Set(['v2.session.prompt', 'v2.session.synthetic']);

/** Node's default header limit: a request head past it may be refused with a JSON 431 (the simulator's is larger). */
export const NODE_HEADER_LIMIT = 16 * 1024;
const PARTITION_NAME = /^[A-Za-z0-9._-]{1,64}$/;
const PARTITION_PREFIX = '/__partition/';
const CONTROL_PREFIX = '/__sim';

type JsonObject = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Templates of every operation, streams included (they route, though they are never fuzzed). */
const ROUTES = operations.map((o) => ({ operationId: o.operationId, method: o.method, segments: o.path.split('/') }));
export const EVENT_STREAM_PATH = specOperation(EVENT_STREAM).path;

export type Route = { kind: 'operation'; operationId: string } | { kind: 'method-not-allowed' } | { kind: 'not-found' };

/**
 * Which operation a path addresses, read from the spec's templates alone: a parameter takes one non-empty
 * segment, a trailing `*` takes the rest of the path (none or more segments), literals outrank parameters,
 * HEAD is GET without the body.
 */
export function routeOf(method: string, pathname: string): Route {
  const actual = pathname.split('/');
  const wanted = method === 'HEAD' ? 'GET' : method;
  let best: { operationId: string; literals: number } | undefined;
  let otherMethod = false;
  for (const route of ROUTES) {
    const rest = route.segments[route.segments.length - 1] === '*';
    if (rest ? actual.length < route.segments.length : route.segments.length !== actual.length) continue;
    let literals = 0;
    const matches = route.segments.every((t, i) => {
      const a = actual[i] as string;
      if (rest && i === route.segments.length - 1) return true;
      if (t.startsWith('{')) return a !== '';
      if (t === a) literals++;
      return t === a;
    });
    if (!matches) continue;
    if (route.method !== wanted) otherMethod = true;
    else if (!best || literals > best.literals) best = { operationId: route.operationId, literals };
  }
  if (best) return { kind: 'operation', operationId: best.operationId };
  return otherMethod ? { kind: 'method-not-allowed' } : { kind: 'not-found' };
}

/** A header as the server reads it: its bytes as latin1, spaces and tabs trimmed, repeats joined with `, `. */
function headerOf(request: WireRequest, name: string): string | undefined {
  const values = (request.headers ?? [])
    .filter(([n]) => n.toLowerCase() === name)
    .map(([, v]) =>
      Buffer.from(v, 'utf8')
        .toString('latin1')
        .replace(/^[ \t]+|[ \t]+$/g, ''),
    );
  return values.length ? values.join(', ') : undefined;
}

/** The statuses a `Prefer: code=…` asks for (any of them may be what the simulator heard). */
function preferredCodes(request: WireRequest): number[] {
  const prefer = headerOf(request, 'prefer');
  if (prefer === undefined) return [];
  return prefer.split(/[,;]/).flatMap((part) => {
    const [key, ...rest] = part.split('=');
    return key?.trim().toLowerCase() === 'code'
      ? [
          Number(
            rest
              .join('=')
              .trim()
              .replace(/^"(.*)"$/, '$1'),
          ),
        ]
      : [];
  });
}

export interface Reading {
  /** The path the pipeline routes (URL-normalised, partition prefix taken off), when the target parses as a URL. */
  pathname?: string;
  /** The partition the request names, by header or path prefix; undefined when it names none. */
  partition?: string;
  route?: Route;
}

/** How the request should be read, from the standards (WHATWG URL) and the README's addressing rules. */
export function readRequest(request: WireRequest): Reading {
  let pathname: string;
  try {
    // The absolute form (`GET http://host/path`) addresses its path: RFC 9112 §3.2.2 has servers accept it.
    const absolute = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(request.target);
    pathname = new URL(absolute ? request.target : `http://sim.invalid${request.target}`).pathname;
  } catch {
    // No path to route, but the header still names a partition.
    const named = headerOf(request, 'x-sim-partition');
    return named === undefined || named === '' ? {} : { partition: named };
  }
  let partition: string | undefined;
  if (pathname.startsWith(PARTITION_PREFIX)) {
    const end = pathname.indexOf('/', PARTITION_PREFIX.length);
    const raw = pathname.slice(PARTITION_PREFIX.length, end < 0 ? undefined : end);
    try {
      partition = decodeURIComponent(raw);
    } catch {
      partition = raw;
    }
    pathname = end < 0 ? '/' : pathname.slice(end);
  } else {
    partition = headerOf(request, 'x-sim-partition');
  }
  if (partition === '') partition = undefined;
  return { pathname, partition, route: routeOf(request.method.trim(), pathname) };
}

/**
 * A stack frame in a body, raw or JSON-escaped (`at fn (/path/file.ts:1:2)`, `at node:internal/…:1:2`):
 * unexpected failures are logged, never sent. (The spec's own examples say `Missing key\n  at ["text"]`,
 * which is a schema path, not a frame.)
 */
const STACK_TRACE = /(?:\n|\\n|<br>|^|\s)\s*at (?:[^\s()]+ \()?(?:file:\/\/|\/|node:|[A-Za-z]:\\)[^\s)"]*:\d+:\d+/;

/**
 * Everything wrong with an answer to a request, or [] when it is one the interface allows: JSON whenever it
 * has a body, never a 5xx unless the operation declares it and `Prefer: code=` asked for it, a declared error
 * or a spec-valid success for a routed request, and a `Sim…` error only where the simulator's own rules put
 * one (unrouted paths, refused preferences or partitions, oversized heads, malformed HTTP, upgrades).
 */
export function answerProblems(
  request: WireRequest,
  answer: WireAnswer,
  options: { wellFormed?: boolean } = {},
): string[] {
  const wellFormed = options.wellFormed ?? true;
  const problems: string[] = [];
  const reading = readRequest(request);
  const { route } = reading;
  const operationId = route?.kind === 'operation' ? route.operationId : undefined;
  const contentType = answer.headers['content-type'];
  const method = request.method.trim();
  const isHead = method === 'HEAD';
  const declares = (status: number) =>
    operationId !== undefined && specOperation(operationId).raw.responses[String(status)] !== undefined;

  // 1. Whatever the request: JSON whenever there is a body, an error always has one, no stack trace, no 5xx
  //    but a declared one asked for, no 1xx or 3xx as the final answer.
  let body: JsonObject | undefined;
  if (answer.body.length > 0) {
    if (!contentType?.toLowerCase().startsWith('application/json'))
      problems.push(`a body with content-type ${contentType ?? '(none)'}: ${answer.text.slice(0, 200)}`);
    try {
      body = JSON.parse(answer.text) as JsonObject;
    } catch {
      problems.push(`a body that is not JSON: ${answer.text.slice(0, 200)}`);
    }
  } else if (!isHead && answer.status >= 400) {
    problems.push(`status ${answer.status} with an empty body (${JSON.stringify(answer.headers)})`);
  }
  if (STACK_TRACE.test(answer.text)) problems.push(`a stack trace in the body: ${answer.text.slice(0, 300)}`);
  if (answer.status >= 500 && !(declares(answer.status) && preferredCodes(request).includes(answer.status))) {
    problems.push(`a ${answer.status} the request did not ask for: ${answer.text.slice(0, 300)}`);
  }
  if (answer.status < 200 || (answer.status >= 300 && answer.status < 400)) problems.push(`status ${answer.status}`);
  if (problems.length) return problems;

  const tag =
    body !== null && typeof body === 'object' && !Array.isArray(body)
      ? ((body._tag ?? body.name) as unknown)
      : undefined;
  const simTag = typeof tag === 'string' && tag.startsWith('Sim') ? tag : undefined;
  const bigHead = answer.status === 431 && headSize(request) > NODE_HEADER_LIMIT;
  const refused = bigHead || (answer.status === 400 && !wellFormed);
  const addressed = reading.partition;
  const badPartition = addressed !== undefined && !PARTITION_NAME.test(addressed);

  // 2. The simulator's own errors, each only where its rule puts it.
  const legit: Record<string, boolean> = {
    SimRequestRefusedError: refused,
    SimPartitionNameError: answer.status === 400 && badPartition,
    SimPartitionLimitError: answer.status === 429 && addressed !== undefined && !badPartition,
    SimPreferenceError: answer.status === 400 && operationId !== undefined && headerOf(request, 'prefer') !== undefined,
    SimRouteNotFoundError:
      answer.status === 404 && (route?.kind === 'not-found' || (route === undefined && !wellFormed)),
    SimMethodNotAllowedError: answer.status === 405 && route?.kind === 'method-not-allowed',
    // Properties prompt one session many times over, faster than its turns play: its queue fills up.
    SimResourceLimitError: answer.status === 429 && (operationId === undefined ? false : QUEUES.has(operationId)),
  };
  // Requests Node takes aside before the pipeline: CONNECT (no tunnel to offer), an Expect it cannot meet.
  const expectation = headerOf(request, 'expect');
  const asidePipeline =
    method === 'CONNECT' ||
    (answer.status === 417 && expectation !== undefined && expectation.toLowerCase() !== '100-continue');
  if (simTag !== undefined) {
    if (!legit[simTag] && !asidePipeline)
      problems.push(
        `${simTag} ${answer.status} where no rule of the simulator puts it (route ${JSON.stringify(route)}, partition ${JSON.stringify(addressed)}): ${answer.text.slice(0, 300)}`,
      );
    else if (badPartition && simTag !== 'SimPartitionNameError' && simTag !== 'SimRequestRefusedError')
      problems.push(`partition ${JSON.stringify(addressed)} is no name, yet answered ${simTag}`);
    return problems;
  }
  if (badPartition && !(isHead && answer.status === 400)) {
    problems.push(
      `partition ${JSON.stringify(addressed)} is no name, yet answered ${answer.status} ${answer.text.slice(0, 200)}`,
    );
    return problems;
  }
  // 3. CORS preflight: 204 for any target.
  if (method === 'OPTIONS') {
    if (answer.status !== 204) problems.push(`OPTIONS answered ${answer.status}, not the CORS 204`);
    return problems;
  }
  if (reading.pathname === undefined || route === undefined) {
    // A target that is no URL: nothing routes it, and nothing but a refusal or the simulator's own error fits.
    if (!isHead) problems.push(`the target is no URL, yet answered ${answer.status} ${answer.text.slice(0, 200)}`);
    return problems;
  }

  // 4. HEAD: no body to read a tag from; the status must be one a GET could get.
  if (isHead) {
    const simStatus =
      refused ||
      (answer.status === 429 && addressed !== undefined) ||
      (answer.status === 400 &&
        (badPartition || (operationId !== undefined && headerOf(request, 'prefer') !== undefined)));
    const expected =
      route.kind === 'operation' ? declares(answer.status) : answer.status === (route.kind === 'not-found' ? 404 : 405);
    if (!expected && !simStatus)
      problems.push(`HEAD ${reading.pathname} answered ${answer.status} (route ${JSON.stringify(route)})`);
    if (
      operationId &&
      answer.headers['x-sim-operation'] !== undefined &&
      answer.headers['x-sim-operation'] !== operationId
    )
      problems.push(`x-sim-operation ${answer.headers['x-sim-operation']}, the spec routes to ${operationId}`);
    return problems;
  }

  // 5. Paths that address no operation.
  if (route.kind !== 'operation') {
    problems.push(
      `${request.method} ${reading.pathname} routes to no operation (${route.kind}), yet answered ${answer.status} ${answer.text.slice(0, 200)}`,
    );
    return problems;
  }

  // 6. A routed request: the operation's own answer, as the spec declares it.
  const id = route.operationId;
  if (answer.headers['x-sim-operation'] !== id)
    problems.push(
      `x-sim-operation is ${answer.headers['x-sim-operation'] ?? '(none)'}, the spec routes ${request.method} ${reading.pathname} to ${id}`,
    );
  if (answer.headers['x-sim-violations'] !== undefined)
    problems.push(`the simulator flagged its own answer: x-sim-violations ${answer.headers['x-sim-violations']}`);
  const specBody = answer.status === 204 || answer.body.length === 0 ? undefined : body;
  for (const p of specProblems(id, answer.status, specBody, contentType)) problems.push(`${id} ${answer.status}: ${p}`);
  if (answer.status >= 400) {
    const tags = declaredTags(id, answer.status);
    if (typeof tag !== 'string' || !tags.includes(tag))
      problems.push(`${id} ${answer.status} tagged ${JSON.stringify(tag)}, declared: ${tags.join(', ') || '(none)'}`);
  }
  return problems;
}

// ---- Checking one exchange ----------------------------------------------------------------------------

/** A request's description short enough to read in a failure (long strings cut, their length kept). */
export function describeRequest(request: WireRequest): string {
  const cut = (s: string) => (s.length > 300 ? `${s.slice(0, 200)}…(${s.length} chars)…${s.slice(-40)}` : s);
  const body =
    request.body === undefined
      ? ''
      : `\n  body ${cut(Buffer.isBuffer(request.body) ? `<${request.body.length} bytes> ${request.body.toString('latin1')}` : request.body)}`;
  const headers = (request.headers ?? []).map(([n, v]) => `\n  ${n}: ${cut(v)}`).join('');
  return `${request.method} ${cut(request.target)}${headers}${body}`;
}

/**
 * Sends the request and throws, naming request and answer, if anything about the exchange is wrong: no
 * answer, a bad answer, a new unexpected-failure line in the log, or a polluted prototype.
 */
export async function exchange(
  fixture: Fixture,
  request: WireRequest,
  options: { fresh?: boolean; wellFormed?: boolean; timeoutMs?: number } = {},
): Promise<WireAnswer> {
  const loggedBefore = fixture.logged.length;
  let answer: WireAnswer;
  try {
    answer = await fixture.client.send(request, { fresh: options.fresh, timeoutMs: options.timeoutMs });
  } catch (error) {
    throw new Error(`${(error as Error).message}\nrequest: ${describeRequest(request)}`, { cause: error });
  }
  const problems = answerProblems(request, answer, { wellFormed: options.wellFormed });
  problems.push(
    ...failureLines(fixture.logged.slice(loggedBefore)).map(
      (line) => `logged an unexpected failure: ${line.slice(0, 600)}`,
    ),
  );
  problems.push(...pollution());
  if (problems.length) {
    throw new Error(
      `${problems.join('\n')}\nrequest: ${describeRequest(request)}\nanswer: ${answer.status} ${JSON.stringify(answer.headers)} ${answer.text.slice(0, 400)}`,
    );
  }
  return answer;
}

// ---- Requests built from an operation -----------------------------------------------------------------

/** The sample request's path with some parameters replaced (each replacement already encoded). */
export function pathWith(target: TargetOperation, replacements: Record<string, string> = {}): string {
  const segments = target.sample.path.split('/');
  for (const { name, index } of target.pathParams)
    if (replacements[name] !== undefined) segments[index] = replacements[name] as string;
  return segments.join('/');
}

/** The operation's valid request, with whatever parts are given instead. */
export function sampleRequest(
  target: TargetOperation,
  parts: Partial<WireRequest> & { query?: string } = {},
): WireRequest {
  const query = parts.query ?? target.sample.query;
  const body =
    'body' in parts ? parts.body : target.sample.body === undefined ? undefined : JSON.stringify(target.sample.body);
  const headers =
    parts.headers ?? (body === undefined ? [] : [['content-type', 'application/json'] as [string, string]]);
  return {
    method: parts.method ?? target.method,
    target: parts.target ?? (query ? `${target.sample.path}?${query}` : target.sample.path),
    headers,
    ...(body === undefined ? {} : { body }),
  };
}

export { CONTROL_PREFIX };

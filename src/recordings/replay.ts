/**
 * Replays a recording: a request is identified by method, operation (or path), path parameters, query and
 * normalised JSON body, all redacted the way the recording was, minus configured ignores. Identical requests
 * get the recorded answers in recorded order (poll 1, poll 2, poll 3…), then the last one again. A miss
 * names the closest recorded interaction and the first field that differs.
 */
import { existsSync, readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { remember } from '../caches/bounded-map.js';
import { SimRecordingNotFoundError } from '../errors/errors.js';
import type { Answer, Exchange } from '../exchange/exchange.js';
import { readRecording, type Interaction } from './format.js';
import { requestBody } from './recorder.js';
import { queryOf, redactBody, redactQuery, type RedactionRules } from './redact.js';

export interface Route {
  operationId?: string;
  pathParams?: Record<string, string>;
}

export interface Replayer {
  /**
   * The recorded answer for this request, or undefined when nothing recorded matches. `cursors` counts how
   * often each recorded request was answered (per partition, so parallel workers each replay from the start).
   * An answer served again as it is, is the same object each time: read it, never change it.
   */
  answer(exchange: Exchange, route: Route, cursors: Map<string, number>): Replayed | undefined;
  /** The error to answer for a miss, naming the closest recorded interaction. */
  miss(exchange: Exchange, route: Route): SimRecordingNotFoundError;
  readonly size: number;
}

/** A recorded answer, saying it was replayed. */
export type Replayed = Answer & { answeredBy: 'replay' };

interface Identity {
  method: string;
  target: string;
  pathParams: Record<string, string>;
  query: Record<string, string | string[]>;
  body: unknown;
}

/**
 * JSON with sorted keys, so field order never decides a match (`undefined` for `undefined`, as JSON.stringify).
 * Built as one string rather than from arrays joined: a replay keys every interaction it loads with it.
 */
function canonical(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  if (Array.isArray(value)) {
    let text = '[';
    for (let i = 0; i < value.length; i++) text += `${i ? ',' : ''}${canonical(value[i]) ?? 'null'}`;
    return `${text}]`;
  }
  const keys = Object.keys(value);
  if (keys.length > 1) keys.sort();
  let text = '{';
  for (const key of keys) {
    const inner = canonical((value as Record<string, unknown>)[key]);
    if (inner !== undefined) text += `${text.length > 1 ? ',' : ''}${JSON.stringify(key)}:${inner}`;
  }
  return `${text}}`;
}

/** What an identity is found by: its parts each in canonical JSON, in a fixed order. */
function keyOf(identity: Identity): string {
  const { method, target, pathParams, query, body } = identity;
  return `${method} ${target}\n${canonical(pathParams) as string}\n${canonical(query) as string}\n${canonical(body) ?? ''}`;
}

/**
 * The same text as one flat string. A key built by appending is held by V8 as a tree of its pieces, and kept
 * that way by the Map it keys: the bench's 100,000 interactions held about 30 MiB more so. Converting a string
 * to a number flattens it in place.
 */
function flat(text: string): string {
  Number(text);
  return text;
}

const LIVE_KEY_CAPACITY = 4096;

/** After the recorded answers of a request are used up: answer the last again, or count it as a miss. */
export type Exhausted = 'last' | 'error';

export function createReplayer(
  file: string,
  rules: RedactionRules,
  ignore: string[] = [],
  exhausted: Exhausted = 'last',
): Replayer {
  const ignored = { ...rules, headers: [], query: [], pointers: [] };
  const drop = (identity: Identity): Identity => {
    if (!ignore.length) return identity;
    const query = Object.fromEntries(Object.entries(identity.query).filter(([k]) => !ignore.includes(k)));
    // Ignored body fields are blanked out like secrets, so any value matches.
    const body = redactBody(identity.body, { ...ignored, pointers: ignore.filter((p) => p.startsWith('/')) });
    return { ...identity, query, body };
  };
  const identify = (
    method: string,
    route: Route,
    path: string,
    query: Record<string, string | string[]>,
    body: unknown,
  ): Identity =>
    drop({
      method,
      target: route.operationId ?? path,
      pathParams: route.pathParams ?? {},
      query: redactQuery(query, rules),
      body: redactBody(body, rules),
    });

  // What a replay keeps of each interaction: its identity (for a miss's "closest") and its answer, the JSON
  // body as text; the rest of the recording (request headers, timings) is let go as it is read.
  const byKey = new Map<string, Recorded[]>();
  const headerSets: HeaderSets = new Map();
  const identities: Array<{ identity: Identity; recorded: Recorded }> = [];
  let size = 0;
  const keep = (interaction: Interaction) => {
    const { request } = interaction;
    const identity = identify(
      request.method,
      { operationId: interaction.operationId, pathParams: interaction.pathParams },
      request.path,
      request.query,
      request.body,
    );
    const key = flat(keyOf(identity));
    const recorded = {
      seq: interaction.seq,
      method: request.method,
      path: request.path,
      response: keptResponse(interaction.response, headerSets),
    };
    const same = byKey.get(key);
    if (same) same.push(recorded);
    else byKey.set(key, [recorded]);
    identities.push({ identity, recorded });
    size++;
  };
  // A hybrid replay may start from nothing: every request is then recorded on the way.
  if (existsSync(file)) readRecording(readFileSync(file), keep);

  const liveIdentity = (exchange: Exchange, route: Route) =>
    identify(exchange.method, route, exchange.pathname, queryOf(exchange.searchParams), requestBody(exchange));
  // A request without a body is keyed by its method, operation and target alone: a client polls the same few
  // URLs, and working out their identity again for each poll was a good part of a replayed answer. What the
  // key finds is kept with it: the recording is read once, so a key's recorded answers never change.
  const liveKeys = new Map<string, Keyed>();
  const keyed = (key: string): Keyed => ({ key, recorded: byKey.get(key) });
  const liveKey = (exchange: Exchange, route: Route): Keyed => {
    if (exchange.rawBody.length) return keyed(keyOf(liveIdentity(exchange, route)));
    const target = `${exchange.method} ${route.operationId ?? ''} ${exchange.pathname}${exchange.search}`;
    return remember(liveKeys, LIVE_KEY_CAPACITY, target, () => keyed(keyOf(liveIdentity(exchange, route))));
  };

  return {
    size,
    answer(exchange, route, cursors) {
      const { key, recorded } = liveKey(exchange, route);
      const served = cursors.get(key) ?? 0;
      if (!recorded || (exhausted === 'error' && served >= recorded.length)) return undefined;
      const chosen = recorded[Math.min(served, recorded.length - 1)] as Recorded;
      cursors.set(key, served + 1);
      return toAnswer(chosen.response);
    },
    miss(exchange, route) {
      const live = liveIdentity(exchange, route);
      const candidates = identities.filter(
        (c) => c.identity.method === live.method && c.identity.target === live.target,
      );
      if (!candidates.length)
        return new SimRecordingNotFoundError(
          `${exchange.method} ${route.operationId ?? exchange.pathname}`,
          'nothing was recorded for this operation',
          undefined,
        );
      // The closest is the one whose first difference comes latest (path parameters, then query, then body).
      const best = candidates
        .map((c) => ({ c, diff: firstDifference(c.identity, live) }))
        .reduce((a, b) => (b.diff.depth > a.diff.depth ? b : a));
      return new SimRecordingNotFoundError(
        `${exchange.method} ${route.operationId ?? exchange.pathname}`,
        best.diff.text,
        { seq: best.c.recorded.seq, method: best.c.recorded.method, path: best.c.recorded.path },
      );
    },
  };
}

/** The first field (in OpenAPI terms: path parameter, query parameter, body field) that differs. */
function firstDifference(recorded: Identity, live: Identity): { text: string; depth: number } {
  for (const name of Object.keys({ ...recorded.pathParams, ...live.pathParams })) {
    if (recorded.pathParams[name] !== live.pathParams[name])
      return {
        text: `path parameter ${name} differs: recorded ${JSON.stringify(recorded.pathParams[name])}, sent ${JSON.stringify(live.pathParams[name])}`,
        depth: 1,
      };
  }
  for (const name of new Set([...Object.keys(recorded.query), ...Object.keys(live.query)])) {
    if (canonical(recorded.query[name]) !== canonical(live.query[name]))
      return {
        text: `query parameter ${name} differs: recorded ${JSON.stringify(recorded.query[name])}, sent ${JSON.stringify(live.query[name])}`,
        depth: 2,
      };
  }
  const field = bodyDifference(recorded.body, live.body, '');
  return { text: field === undefined ? 'identical request, but its recorded answers are used up' : field, depth: 3 };
}

function bodyDifference(recorded: unknown, live: unknown, at: string): string | undefined {
  if (canonical(recorded) === canonical(live)) return undefined;
  if (
    recorded &&
    live &&
    typeof recorded === 'object' &&
    typeof live === 'object' &&
    !Array.isArray(recorded) &&
    !Array.isArray(live)
  ) {
    for (const key of new Set([...Object.keys(recorded), ...Object.keys(live)])) {
      const inner = bodyDifference(
        (recorded as Record<string, unknown>)[key],
        (live as Record<string, unknown>)[key],
        `${at}.${key}`,
      );
      if (inner) return inner;
    }
  }
  return `body field ${at.slice(1) || '(body)'} differs: recorded ${JSON.stringify(recorded)}, sent ${JSON.stringify(live)}`;
}

/** A live request's key, and what was recorded under it (nothing, for a miss). */
interface Keyed {
  key: string;
  recorded: Recorded[] | undefined;
}

interface Recorded {
  seq: number;
  method: string;
  path: string;
  response: KeptResponse;
}

type KeptResponse = Omit<Interaction['response'], 'body'> & {
  /** A JSON body as compact text (far smaller than the object it parses to), parsed when first answered. */
  json?: { text: string };
  body?: string;
  /**
   * The answer made from it, when it is served again as it is (anything but a stream): the same object each
   * time, read and never changed by those it is handed to, as its body already was.
   */
  answer?: Replayed;
};

/** Header sets are few in a recording however long it is: each distinct one is kept once. */
type HeaderSets = Map<string, Record<string, string>>;

function keptResponse(response: Interaction['response'], headerSets: HeaderSets): KeptResponse {
  const { status, body, chunks, open } = response;
  const own =
    'content-length' in response.headers
      ? Object.fromEntries(Object.entries(response.headers).filter(([name]) => name !== 'content-length'))
      : response.headers;
  const key = JSON.stringify(own);
  let headers = headerSets.get(key);
  if (!headers) headerSets.set(key, (headers = own));
  if (chunks) return { status, headers, chunks, ...(open === undefined ? {} : { open }) };
  if (body === undefined) return { status, headers };
  if (typeof body === 'string' && !String(response.headers['content-type'] ?? '').includes('json'))
    return { status, headers, body };
  return { status, headers, json: { text: JSON.stringify(body) } };
}

function toAnswer(response: KeptResponse): Replayed {
  if (response.chunks)
    return {
      answeredBy: 'replay',
      kind: 'stream',
      status: response.status,
      headers: response.headers,
      stream: playChunks(response.chunks, response.open === true),
    };
  return (response.answer ??= served(response));
}

/** The answer a recorded response gives every time it is served (a stream is played anew each time). */
function served(response: KeptResponse): Replayed {
  const { status, headers, body, json } = response;
  const answeredBy = 'replay';
  // The text goes out as recorded; the value is what the answer is checked with, parsed once.
  if (json)
    return {
      answeredBy,
      kind: 'json',
      status,
      headers,
      body: JSON.parse(json.text) as unknown,
      text: json.text,
      served: true,
    };
  if (body !== undefined) return { answeredBy, kind: 'raw', status, headers, raw: Buffer.from(body) };
  return { answeredBy, kind: 'empty', status, headers };
}

/**
 * A recorded stream played back as it was sent: each chunk at its offset from the start, then either the end
 * (the server ended it) or nothing more, the stream left open as the server left it, so a client does not
 * reconnect and see the same events again. The timers go with the stream when the client goes away.
 */
function playChunks(chunks: ReadonlyArray<{ at: number; data: string }>, open: boolean): PassThrough {
  const stream = new PassThrough();
  const timers: NodeJS.Timeout[] = [];
  const started = Date.now();
  chunks.forEach((chunk, i) => {
    const last = i === chunks.length - 1;
    timers.push(
      setTimeout(
        () => {
          stream.write(chunk.data);
          if (last && !open) stream.end();
        },
        Math.max(0, chunk.at - (Date.now() - started)),
      ),
    );
  });
  if (chunks.length === 0 && !open) stream.end();
  stream.once('close', () => timers.forEach(clearTimeout));
  return stream;
}

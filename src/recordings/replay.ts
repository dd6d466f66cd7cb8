/**
 * Replays a recording: a request is identified by method, operation (or path), path parameters, query and
 * normalised JSON body, all redacted the way the recording was, minus configured ignores. Identical requests
 * get the recorded answers in recorded order (poll 1, poll 2, poll 3…), then the last one again. A miss
 * names the closest recorded interaction and the first field that differs.
 */
import { existsSync, readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { SimRecordingNotFoundError } from '../errors.js';
import type { Answer, Exchange } from '../http/io.js';
import { parseRecording, type Interaction } from './format.js';
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
   */
  answer(exchange: Exchange, route: Route, cursors: Map<string, number>): Answer | undefined;
  /** The error to answer for a miss, naming the closest recorded interaction. */
  miss(exchange: Exchange, route: Route): SimRecordingNotFoundError;
  readonly size: number;
}

interface Identity {
  method: string;
  target: string;
  pathParams: Record<string, string>;
  query: Record<string, string | string[]>;
  body: unknown;
}

/** JSON with sorted keys, so field order never decides a match. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v,
  );
}

/** After the recorded answers of a request are used up: answer the last again, or count it as a miss. */
export type Exhausted = 'last' | 'error';

export function createReplayer(file: string, rules: RedactionRules, ignore: string[] = [], exhausted: Exhausted = 'last'): Replayer {
  // A hybrid replay may start from nothing: every request is then recorded on the way.
  const { interactions } = existsSync(file) ? parseRecording(readFileSync(file, 'utf8')) : { interactions: [] };
  const ignored = { ...rules, headers: [], query: [], pointers: [] };
  const drop = (identity: Identity): Identity => {
    if (!ignore.length) return identity;
    const query = Object.fromEntries(Object.entries(identity.query).filter(([k]) => !ignore.includes(k)));
    // Ignored body fields are blanked out like secrets, so any value matches.
    const body = redactBody(identity.body, { ...ignored, pointers: ignore.filter((p) => p.startsWith('/')) });
    return { ...identity, query, body };
  };
  const identify = (method: string, route: Route, path: string, query: Record<string, string | string[]>, body: unknown): Identity =>
    drop({ method, target: route.operationId ?? path, pathParams: route.pathParams ?? {}, query: redactQuery(query, rules), body: redactBody(body, rules) });

  const byKey = new Map<string, Interaction[]>();
  const identities: Array<{ identity: Identity; interaction: Interaction }> = [];
  for (const interaction of interactions) {
    const { request } = interaction;
    const identity = identify(request.method, { operationId: interaction.operationId, pathParams: interaction.pathParams }, request.path, request.query, request.body);
    const key = canonical(identity);
    const recorded = byKey.get(key) ?? [];
    recorded.push(interaction);
    byKey.set(key, recorded);
    identities.push({ identity, interaction });
  }

  const liveIdentity = (exchange: Exchange, route: Route) => identify(exchange.method, route, exchange.pathname, queryOf(exchange.searchParams), requestBody(exchange));

  return {
    size: interactions.length,
    answer(exchange, route, cursors) {
      const key = canonical(liveIdentity(exchange, route));
      const recorded = byKey.get(key);
      const served = cursors.get(key) ?? 0;
      if (!recorded || (exhausted === 'error' && served >= recorded.length)) return undefined;
      const interaction = recorded[Math.min(served, recorded.length - 1)] as Interaction;
      cursors.set(key, served + 1);
      return toAnswer(interaction);
    },
    miss(exchange, route) {
      const live = liveIdentity(exchange, route);
      const candidates = identities.filter((c) => c.identity.method === live.method && c.identity.target === live.target);
      if (!candidates.length) return new SimRecordingNotFoundError(`${exchange.method} ${route.operationId ?? exchange.pathname}`, 'nothing was recorded for this operation', undefined);
      // The closest is the one whose first difference comes latest (path parameters, then query, then body).
      const best = candidates.map((c) => ({ c, diff: firstDifference(c.identity, live) })).reduce((a, b) => (b.diff.depth > a.diff.depth ? b : a));
      return new SimRecordingNotFoundError(`${exchange.method} ${route.operationId ?? exchange.pathname}`, best.diff.text, { seq: best.c.interaction.seq, method: best.c.interaction.request.method, path: best.c.interaction.request.path });
    },
  };
}

/** The first field (in OpenAPI terms: path parameter, query parameter, body field) that differs. */
function firstDifference(recorded: Identity, live: Identity): { text: string; depth: number } {
  for (const name of Object.keys({ ...recorded.pathParams, ...live.pathParams })) {
    if (recorded.pathParams[name] !== live.pathParams[name]) return { text: `path parameter ${name} differs: recorded ${JSON.stringify(recorded.pathParams[name])}, sent ${JSON.stringify(live.pathParams[name])}`, depth: 1 };
  }
  for (const name of new Set([...Object.keys(recorded.query), ...Object.keys(live.query)])) {
    if (canonical(recorded.query[name]) !== canonical(live.query[name])) return { text: `query parameter ${name} differs: recorded ${JSON.stringify(recorded.query[name])}, sent ${JSON.stringify(live.query[name])}`, depth: 2 };
  }
  const field = bodyDifference(recorded.body, live.body, '');
  return { text: field === undefined ? 'identical request, but its recorded answers are used up' : field, depth: 3 };
}

function bodyDifference(recorded: unknown, live: unknown, at: string): string | undefined {
  if (canonical(recorded) === canonical(live)) return undefined;
  if (recorded && live && typeof recorded === 'object' && typeof live === 'object' && !Array.isArray(recorded) && !Array.isArray(live)) {
    for (const key of new Set([...Object.keys(recorded), ...Object.keys(live)])) {
      const inner = bodyDifference((recorded as Record<string, unknown>)[key], (live as Record<string, unknown>)[key], `${at}.${key}`);
      if (inner) return inner;
    }
  }
  return `body field ${at.slice(1) || '(body)'} differs: recorded ${JSON.stringify(recorded)}, sent ${JSON.stringify(live)}`;
}

function toAnswer(interaction: Interaction): Answer {
  const { status, headers, body, chunks } = interaction.response;
  const rest = Object.fromEntries(Object.entries(headers).filter(([name]) => name !== 'content-length'));
  if (chunks) return { kind: 'stream', status, headers: rest, stream: playChunks(chunks, interaction.response.open === true) };
  if (body === undefined) return { kind: 'empty', status, headers: rest };
  if (typeof body === 'string' && !String(headers['content-type'] ?? '').includes('json')) return { kind: 'raw', status, headers: rest, raw: Buffer.from(body) };
  return { kind: 'json', status, headers: rest, body };
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
      setTimeout(() => {
        stream.write(chunk.data);
        if (last && !open) stream.end();
      }, Math.max(0, chunk.at - (Date.now() - started))),
    );
  });
  if (chunks.length === 0 && !open) stream.end();
  stream.once('close', () => timers.forEach(clearTimeout));
  return stream;
}

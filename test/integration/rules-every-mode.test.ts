/**
 * A run-time rule answers ahead of the source in every mode, over real loopback sockets: the mock's fallback,
 * a bare upstream (proxy, record), a recording (replay, hybrid replay). Once removed, the source answers
 * again; a rule's answer is never written to a recording nor counted against the replay's positions.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimOptions } from '../../src/config/config.js';
import { startServer, type RunningSimulator } from '../../src/hosts/server.js';
import { parseRecording } from '../../src/recordings/format.js';

const SES = 'ses_dfc5ae513ffePKUBK7HkVp5zCB';
const MESSAGES = `/api/session/${SES}/message`;
const RULE = {
  when: { operation: 'v2.session.messages', params: { sessionID: SES }, query: { limit: '10' } },
  then: {
    error: { _tag: 'SessionNotFoundError', sessionID: SES, message: `Session not found: ${SES}` },
  },
};
/** Every request of these tests ends within this, answered or not. */
const DEADLINE = 5000;

let upstream: Server;
let upstreamUrl: string;
let hits = 0;
let seen: IncomingHttpHeaders[] = [];
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sim-rules-modes-'));
  // Each answer names its place in line, so a test can tell which upstream answer (or recorded one) it got.
  upstream = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      hits++;
      seen.push(req.headers);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: [], hit: hits }));
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});

afterAll(async () => {
  upstream.closeAllConnections();
  await new Promise((resolve) => upstream.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

/** A simulator on a free loopback port for the duration of `body`, closed whatever happens. */
async function serving(options: SimOptions, body: (sim: RunningSimulator) => Promise<void>): Promise<void> {
  const sim = await startServer({ port: 0, host: '127.0.0.1', log: () => {}, ...options });
  try {
    await body(sim);
  } finally {
    await sim.close();
  }
}

async function call(
  sim: RunningSimulator,
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Headers; body: unknown }> {
  const res = await fetch(`${sim.url}${path}`, {
    method: init.method ?? 'GET',
    headers: init.body === undefined ? init.headers : { 'content-type': 'application/json', ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    signal: AbortSignal.timeout(DEADLINE),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as unknown) : undefined };
}

const rules = async (sim: RunningSimulator) =>
  (await call(sim, '/__sim/rules')).body as { rules: { id?: string; where: string; fired: number }[] };

const journal = async (sim: RunningSimulator) =>
  ((await call(sim, '/__sim/journal')).body as { entries: Record<string, unknown>[] }).entries;

/**
 * Adds the rule, checks the matching request gets the rule's answer (headers, journal, fired count) and, once
 * the rule is removed, that the same request reaches the source, which answers with `source` in `x-sim-layer`.
 * Returns the source's answer.
 */
async function ruleThenSource(
  sim: RunningSimulator,
  source: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: unknown }> {
  const added = await call(sim, '/__sim/rules', { method: 'POST', body: RULE });
  expect(added.status).toBe(201);
  const { id } = added.body as { id: string };
  expect(id).toBe('rul_1');

  const ruled = await call(sim, `${MESSAGES}?limit=10`, { headers });
  expect(ruled.status).toBe(404);
  expect(ruled.body).toEqual(RULE.then.error);
  expect(ruled.headers.get('x-sim-layer')).toBe('rule');
  expect(ruled.headers.get('x-sim-rule')).toBe('runtime rule rul_1');
  expect((await rules(sim)).rules).toEqual([expect.objectContaining({ id, fired: 1 })]);
  expect((await journal(sim)).at(-1)).toMatchObject({ layer: 'rule', rule: 'runtime rule rul_1', status: 404 });

  expect((await call(sim, `/__sim/rules/${id}`, { method: 'DELETE' })).status).toBe(204);
  expect((await rules(sim)).rules).toEqual([]);
  const sourced = await call(sim, `${MESSAGES}?limit=10`, { headers });
  expect(sourced.headers.get('x-sim-layer')).toBe(source);
  expect(sourced.headers.get('x-sim-rule')).toBeNull();
  return sourced;
}

/** Records two upstream answers to the rule's request into a new file. */
async function recordTwo(): Promise<string> {
  const file = join(mkdtempSync(join(dir, 'rec-')), 'flow.yaml');
  await serving({ upstream: upstreamUrl, record: file }, async (sim) => {
    for (let i = 0; i < 2; i++) expect((await call(sim, `${MESSAGES}?limit=10`)).status).toBe(200);
  });
  return file;
}

const interactions = (file: string) => parseRecording(readFileSync(file, 'utf8')).interactions;

describe('a run-time rule answers ahead of the source', () => {
  it('in mock mode, ahead of the fallback, and the journal explains a near miss', async () => {
    await serving({}, async (sim) => {
      await ruleThenSource(sim, 'fallback');
      // Rules of the operation that did not match: the closest, and the first condition it failed.
      await call(sim, '/__sim/rules', { method: 'POST', body: RULE });
      const missed = await call(sim, `${MESSAGES}?limit=5`);
      expect(missed.headers.get('x-sim-layer')).toBe('fallback');
      expect((await journal(sim)).at(-1)).toMatchObject({
        layer: 'fallback',
        nearMiss: { rule: 'runtime rule rul_2', failed: 'query limit is "5"; the rule wants "10"' },
      });
      // An operation no rule is written for has no near miss.
      await call(sim, '/api/plugin');
      expect((await journal(sim)).at(-1)).not.toHaveProperty('nearMiss');
    });
  });

  it('in proxy mode, ahead of the upstream, a Prefer header being no control there', async () => {
    await serving({ upstream: upstreamUrl }, async (sim) => {
      hits = 0;
      seen = [];
      // In the mock, code=500 would be refused as undeclared; to a real server it is a header to pass on.
      const sourced = await ruleThenSource(sim, 'upstream', { prefer: 'code=500' });
      expect(sourced.body).toEqual({ data: [], hit: 1 });
      expect(hits).toBe(1);
      expect(seen[0]?.prefer).toBe('code=500');
      await call(sim, '/__sim/rules', { method: 'POST', body: RULE });
      await call(sim, `${MESSAGES}?limit=5`);
      expect((await journal(sim)).at(-1)).toMatchObject({
        layer: 'upstream',
        nearMiss: { rule: 'runtime rule rul_2', failed: 'query limit is "5"; the rule wants "10"' },
      });
    });
  });

  it('in record mode, ahead of the upstream, and its answer is not recorded', async () => {
    const file = join(mkdtempSync(join(dir, 'rec-')), 'flow.yaml');
    await serving({ upstream: upstreamUrl, record: file }, async (sim) => {
      hits = 0;
      const sourced = await ruleThenSource(sim, 'record');
      expect(sourced.body).toEqual({ data: [], hit: 1 });
      const written = interactions(file);
      expect(written).toHaveLength(1);
      expect(written[0]?.response.status).toBe(200);
      expect(written[0]?.response.body).toEqual({ data: [], hit: 1 });
    });
  });

  it('in replay mode, ahead of the recording, and its answer moves no replay position', async () => {
    hits = 0;
    const file = await recordTwo();
    await serving({ replay: file }, async (sim) => {
      const first = await ruleThenSource(sim, 'replay');
      expect(first.body).toEqual({ data: [], hit: 1 });
      expect((await call(sim, `${MESSAGES}?limit=10`)).body).toEqual({ data: [], hit: 2 });
      // A miss of the recording is where a near miss explains most.
      await call(sim, '/__sim/rules', { method: 'POST', body: RULE });
      const missed = await call(sim, `${MESSAGES}?limit=5`);
      expect(missed.body).toMatchObject({ _tag: 'SimRecordingNotFoundError' });
      expect((await journal(sim)).at(-1)).toMatchObject({
        nearMiss: { rule: 'runtime rule rul_2', failed: 'query limit is "5"; the rule wants "10"' },
      });
    });
  });

  it('in hybrid replay, ahead of the recording, writing nothing for it', async () => {
    hits = 0;
    const file = await recordTwo();
    await serving({ replay: file, upstream: upstreamUrl }, async (sim) => {
      const first = await ruleThenSource(sim, 'replay');
      expect(first.body).toEqual({ data: [], hit: 1 });
    });
    expect(hits).toBe(2);
    expect(interactions(file)).toHaveLength(2);
  });
});

/**
 * Rules for anything: a rule by method and path (inside the spec or outside it), any status, headers and body
 * with `outsideSpec: true` (refused without it, the refusal naming the flag), in the mock and in front of an
 * upstream (stubs answer, the rest passes on; a stub is never recorded), marked outside the spec in the
 * journal, the exchange details and coverage; and event-stream faults that make the official client reconnect.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http, { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOpencodeClient } from '@opencode-ai/sdk/v2/client';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/hosts/app.js';
import type { SimOptions } from '../../src/config/config.js';
import { parseRecording } from '../../src/recordings/format.js';
import { startServer, type RunningSimulator } from '../../src/hosts/server.js';
import { until } from '../support/until.js';

const SES = 'ses_dfc5ae513ffePKUBK7HkVp5zCB';
/** Every request of these tests ends within this, answered or not. */
const DEADLINE = 5000;

const GATEWAY_DOWN = {
  when: { method: 'GET', path: '/api/gateway/{name}', params: { name: 'openai' } },
  then: {
    status: 502,
    headers: { 'Retry-After': '5', 'x-upstream': 'gateway' },
    body: { _tag: 'BadGateway', message: 'the gateway is down' },
  },
  outsideSpec: true,
};

let upstream: Server;
let upstreamUrl: string;
let upstreamPaths: string[] = [];
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sim-rules-anything-'));
  upstream = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      upstreamPaths.push(`${req.method} ${req.url}`);
      if (req.url === '/api/event') {
        // A real server's stream: a greeting, then an event now and then, never ending by itself.
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: {"id":"evt_1","type":"server.connected","data":{}}\n\n');
        const timer = setInterval(() => res.write('data: {"id":"evt_2","type":"ping","data":{}}\n\n'), 20);
        res.on('close', () => clearInterval(timer));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: [], from: 'upstream' }));
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

const running: Array<() => unknown> = [];
afterEach(async () => {
  for (const stop of running.splice(0).reverse()) await stop();
});

async function serving(options: SimOptions): Promise<RunningSimulator> {
  const sim = await startServer({ port: 0, host: '127.0.0.1', log: () => {}, ...options });
  running.push(() => sim.close());
  return sim;
}

async function call(
  sim: RunningSimulator,
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<{ status: number; headers: Headers; text: string; body: unknown }> {
  const res = await fetch(`${sim.url}${path}`, {
    method: init.method ?? 'GET',
    headers: init.body === undefined ? undefined : { 'content-type': 'application/json' },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    signal: AbortSignal.timeout(DEADLINE),
  });
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, text, body };
}

describe('a rule by method and path, outside the spec', () => {
  it('answers a 502 with headers and body in the mock, marked outside the spec everywhere', async () => {
    const app = await createApp({ log: () => {} });
    const added = await request(app).post('/__sim/rules').send(GATEWAY_DOWN);
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ method: 'GET', path: '/api/gateway/{name}', outsideSpec: true });

    const stubbed = await request(app).get('/api/gateway/openai');
    expect(stubbed.status).toBe(502);
    expect(stubbed.body).toEqual(GATEWAY_DOWN.then.body);
    expect(stubbed.headers['retry-after']).toBe('5');
    expect(stubbed.headers['x-upstream']).toBe('gateway');
    expect(stubbed.headers['content-type']).toBe('application/json');
    expect(stubbed.headers['x-sim-layer']).toBe('rule');
    expect(stubbed.headers['x-sim-rule']).toBe('runtime rule rul_1');
    expect(stubbed.headers['x-sim-violations']).toBeUndefined();

    // Another name is not the rule's: the mock refuses the path as ever, and the journal says how near it came.
    const other = await request(app).get('/api/gateway/anthropic');
    expect(other.status).toBe(404);
    expect(other.body._tag).toBe('SimRouteNotFoundError');

    const entries = (await request(app).get('/__sim/journal')).body.entries as Record<string, unknown>[];
    expect(entries.at(-2)).toMatchObject({
      path: '/api/gateway/openai',
      layer: 'rule',
      status: 502,
      tag: 'BadGateway',
      rule: 'runtime rule rul_1',
      outsideSpec: true,
    });
    expect(entries.at(-2)).not.toHaveProperty('operationId');
    expect(entries.at(-1)).toMatchObject({
      status: 404,
      nearMiss: { rule: 'runtime rule rul_1', failed: 'path parameter name is "anthropic"; the rule wants "openai"' },
    });
    expect(entries.at(-1)).not.toHaveProperty('outsideSpec');

    const detail = await request(app).get(`/__sim/exchanges/${stubbed.headers['x-sim-request-id'] as string}`);
    expect(detail.body).toMatchObject({ outsideSpec: true, response: { status: 502 } });

    const coverage = (await request(app).get('/__sim/coverage')).body;
    expect(coverage.outsideSpec).toEqual([{ request: 'GET /api/gateway/openai', answered: 1 }]);
    expect(coverage.summary.outsideSpec).toBe(1);
    expect(coverage.summary.line).toMatch(/, 1 exchange outside the spec$/);
  });

  it('refuses a path outside the spec and an undeclared status without outsideSpec, naming the flag', async () => {
    const app = await createApp({ log: () => {} });
    const unflagged = { when: GATEWAY_DOWN.when, then: GATEWAY_DOWN.then };
    const path = await request(app).post('/__sim/rules').send(unflagged);
    expect(path.status).toBe(400);
    expect(path.body._tag).toBe('SimRuleError');
    expect(path.body.problems).toEqual([
      expect.stringMatching(
        /^when\.path: GET \/api\/gateway\/\{name\} is no operation of the spec\. .*outsideSpec: true on the rule allows it\.$/,
      ),
    ]);
    expect(path.body.hint).toMatch(/outsideSpec: true/);

    const status = await request(app)
      .post('/__sim/rules')
      .send({ when: { operation: 'v2.plugin.list' }, then: { status: 502, body: { message: 'down' } } });
    expect(status.status).toBe(400);
    expect(status.body.problems).toEqual([
      'then: answer violates the spec: status 502 is not declared by v2.plugin.list; outsideSpec: true on the rule allows it',
    ]);

    // With the flag, the same status answers the operation, unchecked, and the exchange is marked.
    const flagged = await request(app)
      .post('/__sim/rules')
      .send({
        when: { operation: 'v2.plugin.list' },
        then: { status: 502, body: { message: 'down' } },
        outsideSpec: true,
      });
    expect(flagged.status).toBe(201);
    const answered = await request(app).get('/api/plugin');
    expect(answered.status).toBe(502);
    expect(answered.headers['x-sim-violations']).toBeUndefined();
    const coverage = (await request(app).get('/__sim/coverage')).body;
    expect(coverage.outsideSpec).toEqual([{ request: 'GET v2.plugin.list', answered: 1 }]);
    expect(coverage.operations.find((o: { operationId: string }) => o.operationId === 'v2.plugin.list')).toMatchObject({
      statuses: expect.arrayContaining([{ status: 502, declared: false, answered: 1 }]),
    });
  });

  it('matches a path of the spec by method and template as its operation, held to its answers', async () => {
    const app = await createApp({ scenario: 'busy-session', log: () => {} });
    // The template's parameter is the rule's own name; the operation's answers are what it may give.
    const wrong = await request(app)
      .post('/__sim/rules')
      .send({
        when: { method: 'GET', path: '/api/session/{id}/message', params: { idd: SES } },
        then: { status: 418 },
      });
    expect(wrong.body.problems).toEqual([
      'when.params.idd: no path parameter idd. Did you mean "id"? Parameters: id.',
      'then: answer violates the spec: status 418 is not declared by v2.session.messages; outsideSpec: true on the rule allows it',
    ]);
    const rule = {
      when: { method: 'GET', path: '/api/session/{id}/message', params: { id: SES } },
      then: { error: { _tag: 'SessionNotFoundError', sessionID: SES, message: `Session not found: ${SES}` } },
    };
    expect((await request(app).post('/__sim/rules').send(rule)).status).toBe(201);
    const ruled = await request(app).get(`/api/session/${SES}/message`);
    expect(ruled.status).toBe(404);
    expect(ruled.headers['x-sim-operation']).toBe('v2.session.messages');
    expect(ruled.headers['x-sim-rule']).toBe('runtime rule rul_1');
    // A HEAD is a GET to rules as to routing.
    expect((await request(app).head(`/api/session/${SES}/message`)).status).toBe(404);
  });

  it('answers text with its content type, and matches a pattern with named groups and a JSON body', async () => {
    const app = await createApp({ log: () => {} });
    await request(app)
      .post('/__sim/rules')
      .send({
        when: {
          method: 'POST',
          pathPattern: '^/hooks/(?<hook>[a-z]+)$',
          params: { hook: 'deploy' },
          body: { ok: true },
        },
        then: { status: 503, headers: { 'content-type': 'text/html' }, text: '<h1>maintenance</h1>' },
        outsideSpec: true,
      })
      .expect(201);
    const html = await request(app).post('/hooks/deploy').send({ ok: true, more: 1 });
    expect(html.status).toBe(503);
    expect(html.headers['content-type']).toBe('text/html');
    expect(html.text).toBe('<h1>maintenance</h1>');
    const body = await request(app).post('/hooks/deploy').send({ ok: false });
    expect(body.status).toBe(404);
    const entries = (await request(app).get('/__sim/journal')).body.entries as Record<string, unknown>[];
    expect(entries.at(-1)).toMatchObject({
      nearMiss: { rule: 'runtime rule rul_1', failed: 'body field ok is false; the rule wants true' },
    });
  });

  it('comes from a scenario too, which says what is wrong with a bad one', async () => {
    const good = await createApp({
      log: () => {},
      scenario: {
        name: 'gateway',
        rules: [{ when: { pathPattern: '^/api/gateway/' }, then: { status: 504, text: 'timeout' }, outsideSpec: true }],
      },
    });
    const answered = await request(good).delete('/api/gateway/x');
    expect(answered.status).toBe(504);
    expect(answered.headers['x-sim-rule']).toMatch(/rules\[0\]$/);
    await expect(
      createApp({
        log: () => {},
        scenario: { name: 'gateway', rules: [{ when: { pathPattern: '^/api/(' }, then: { status: 504 } }] },
      }),
    ).rejects.toThrow(/rules\[0\]\.when\.pathPattern: Invalid regular expression/);
  });
});

describe('in front of an upstream, stubs answer and the rest passes on', () => {
  it('proxy: the 502 stub answers, other paths and operations reach the upstream', async () => {
    const sim = await serving({ upstream: upstreamUrl });
    upstreamPaths = [];
    expect((await call(sim, '/__sim/rules', { method: 'POST', body: GATEWAY_DOWN })).status).toBe(201);

    const stubbed = await call(sim, '/api/gateway/openai');
    expect(stubbed.status).toBe(502);
    expect(stubbed.body).toEqual(GATEWAY_DOWN.then.body);
    expect(stubbed.headers.get('retry-after')).toBe('5');
    expect(stubbed.headers.get('x-sim-layer')).toBe('rule');

    const passed = await call(sim, '/api/gateway/anthropic');
    expect(passed.status).toBe(200);
    expect(passed.body).toEqual({ data: [], from: 'upstream' });
    expect(passed.headers.get('x-sim-layer')).toBe('upstream');
    expect((await call(sim, '/api/plugin')).headers.get('x-sim-layer')).toBe('upstream');
    expect(upstreamPaths).toEqual(['GET /api/gateway/anthropic', 'GET /api/plugin']);

    const entries = ((await call(sim, '/__sim/journal')).body as { entries: Record<string, unknown>[] }).entries;
    expect(entries.map((e) => [e.path, e.layer, e.outsideSpec ?? false])).toEqual([
      ['/api/gateway/openai', 'rule', true],
      ['/api/gateway/anthropic', 'upstream', false],
      ['/api/plugin', 'upstream', false],
    ]);
  });

  it('record: a stub is not the upstream, so it is never recorded', async () => {
    const file = join(mkdtempSync(join(dir, 'rec-')), 'hybrid.yaml');
    const sim = await serving({ upstream: upstreamUrl, record: file });
    await call(sim, '/__sim/rules', { method: 'POST', body: GATEWAY_DOWN });
    expect((await call(sim, '/api/gateway/openai')).status).toBe(502);
    expect((await call(sim, '/api/gateway/anthropic')).status).toBe(200);
    await sim.close();
    const recorded = parseRecording(readFileSync(file, 'utf8')).interactions.map((i) => i.request.path);
    expect(recorded).toEqual(['/api/gateway/anthropic']);
  });

  it('replay: the stub answers ahead of the recording', async () => {
    const file = join(mkdtempSync(join(dir, 'rec-')), 'plugins.yaml');
    const recorder = await serving({ upstream: upstreamUrl, record: file });
    await call(recorder, '/api/plugin');
    await recorder.close();
    const sim = await serving({ replay: file });
    await call(sim, '/__sim/rules', { method: 'POST', body: GATEWAY_DOWN });
    expect((await call(sim, '/api/gateway/openai')).status).toBe(502);
    expect((await call(sim, '/api/plugin')).headers.get('x-sim-layer')).toBe('replay');
  });
});

/** Subscribes with the official client, counting the frames it yields and the stream failures it retries. */
async function officialSubscription(baseUrl: string) {
  const controller = new AbortController();
  const client = createOpencodeClient({ baseUrl });
  const failures: unknown[] = [];
  const { stream } = await client.v2.event.subscribe({
    signal: controller.signal,
    onSseError: (error) => failures.push(error),
  });
  const types: string[] = [];
  void (async () => {
    try {
      for await (const event of stream) types.push((event as { type: string }).type);
    } catch {
      // aborted at the end of the test
    }
  })();
  running.push(() => controller.abort());
  return { types, failures };
}

describe('event-stream faults', () => {
  it('a cut mid-frame makes the official client reconnect (after the retry it was sent) and keep receiving', async () => {
    const sim = await serving({ scenario: 'busy-session' });
    const fault = {
      when: { operation: 'v2.event.subscribe' },
      then: { stream: { afterFrames: 1, fault: 'cut', retry: '20ms' } },
      times: 1,
    };
    expect((await call(sim, '/__sim/rules', { method: 'POST', body: fault })).status).toBe(201);
    const sub = await officialSubscription(sim.url);
    await until(() => sub.types.length === 1, 'the first server.connected');
    // The next event is the one cut in half: the client fails, reconnects, and is greeted again.
    await call(sim, `/api/session/${SES}/agent`, { method: 'POST', body: { agent: 'plan' } });
    await until(() => sub.types.length === 2, 'the second server.connected');
    expect(sub.failures).toHaveLength(1);
    expect(sub.types).toEqual(['server.connected', 'server.connected']);
    // The new connection is whole again (the rule answered once) and carries what happens next.
    await call(sim, `/api/session/${SES}/agent`, { method: 'POST', body: { agent: 'build' } });
    await until(() => sub.types.length > 2, 'an event after the reconnect');
    expect(sub.types.slice(2)).not.toContain('server.connected');
    const entries = ((await call(sim, '/__sim/journal')).body as { entries: Record<string, unknown>[] }).entries;
    const subscriptions = entries.filter((e) => e.operationId === 'v2.event.subscribe');
    expect(subscriptions.map((e) => e.rule ?? null)).toEqual(['runtime rule rul_1', null]);
  });

  it('a drop after N frames makes it reconnect too, each time the rule answers', async () => {
    const sim = await serving({ scenario: 'busy-session' });
    await call(sim, '/__sim/rules', {
      method: 'POST',
      body: {
        when: { operation: 'v2.event.subscribe' },
        then: { stream: { afterFrames: 1, fault: 'drop', retry: 20 } },
        times: 2,
      },
    });
    const sub = await officialSubscription(sim.url);
    await until(() => sub.types.length === 3, 'three connections');
    expect(sub.failures).toHaveLength(2);
    await call(sim, `/api/session/${SES}/agent`, { method: 'POST', body: { agent: 'plan' } });
    await until(() => sub.types.length > 3, 'an event on the third connection');
  });

  it("shape a session's own /event stream too", async () => {
    const sim = await serving({ scenario: 'busy-session' });
    await call(sim, '/__sim/rules', {
      method: 'POST',
      body: { when: { operation: 'v2.session.events' }, then: { stream: { afterFrames: 1, fault: 'drop' } } },
    });
    const dropped = await rawStream(`${sim.url}/api/session/${SES}/event`);
    await until(() => dropped.ended, 'the drop');
    expect(dropped.error).toBeDefined();
    expect(dropped.text.match(/^data:/gm)).toHaveLength(1);
  });

  it("shape an upstream's stream in proxy mode", async () => {
    const sim = await serving({ upstream: upstreamUrl });
    await call(sim, '/__sim/rules', {
      method: 'POST',
      body: { when: { operation: 'v2.event.subscribe' }, then: { stream: { afterFrames: 3, fault: 'cut' } } },
    });
    const cut = await rawStream(`${sim.url}/api/event`);
    await until(() => cut.ended, 'the cut');
    expect(cut.error).toBeDefined();
    const ping = 'data: {"id":"evt_2","type":"ping","data":{}}\n\n';
    expect(cut.text).toBe(
      `data: {"id":"evt_1","type":"server.connected","data":{}}\n\n${ping}${ping}${ping.slice(0, Math.ceil(ping.length / 2))}`,
    );
  });

  it('sends half of the frame it cuts, and a stall keeps the connection silent but open', async () => {
    const sim = await serving({ scenario: 'busy-session' });
    await call(sim, '/__sim/rules', {
      method: 'POST',
      body: { when: { operation: 'v2.event.subscribe' }, then: { stream: { fault: 'cut' } }, times: 1 },
    });
    const cut = await rawStream(`${sim.url}/api/event`);
    await until(() => cut.ended, 'the cut');
    expect(cut.error).toBeDefined();
    expect(cut.text).toMatch(/^data: \{"id":"evt_[^\n]*$/);
    expect(cut.text.length).toBeGreaterThan(8);

    await call(sim, '/__sim/rules', {
      method: 'POST',
      body: { when: { operation: 'v2.event.subscribe' }, then: { stream: { afterFrames: 1, fault: 'stall' } } },
    });
    const stalled = await rawStream(`${sim.url}/api/event`);
    await until(() => stalled.text.includes('server.connected'), 'the greeting');
    await call(sim, `/api/session/${SES}/agent`, { method: 'POST', body: { agent: 'plan' } });
    const another = await rawStream(`${sim.url}/api/event`);
    await until(() => another.text.includes('server.connected'), 'a greeting on the stalled rule too');
    // Both are stalled after their greeting (the rule has no times): nothing more comes, and neither ends.
    await call(sim, `/api/session/${SES}/agent`, { method: 'POST', body: { agent: 'build' } });
    await new Promise((r) => setTimeout(r, 100));
    expect(stalled.text.match(/^data:/gm)).toHaveLength(1);
    expect(stalled.ended).toBe(false);
    expect(another.ended).toBe(false);
  });
});

/** A GET read as raw text, for what goes on the wire: how much arrived, and how it ended. */
function rawStream(url: string): Promise<{ text: string; ended: boolean; error?: Error }> {
  return new Promise((resolve, reject) => {
    const state: { text: string; ended: boolean; error?: Error } = { text: '', ended: false };
    const req = http.get(url, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (state.text += chunk));
      res.on('end', () => (state.ended = true));
      res.on('error', (error) => {
        state.error = error;
        state.ended = true;
      });
      res.on('aborted', () => {
        state.error ??= new Error('aborted');
        state.ended = true;
      });
      resolve(state);
    });
    req.on('error', reject);
    running.push(() => req.destroy());
  });
}

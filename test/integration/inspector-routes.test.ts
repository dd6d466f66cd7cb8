/**
 * The inspector's server side: the page and its assets (and nothing else from disk), the full exchanges it
 * opens (secrets masked before they are kept), and the live stream's first frames over a real socket.
 */
import { get, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type SimApp } from '../../src/hosts/app.js';
import { keepExchange, showExchange } from '../../src/control/exchange-details.js';
import type { Answer, Exchange } from '../../src/exchange/exchange.js';
import { DEFAULT_REDACTION } from '../../src/recordings/redact.js';
import { createEventLog, type EventLog, type ExchangeEntry } from '../../src/state/log.js';

const SES = 'ses_dfc5ae513ffePKUBK7HkVp5zCB';

let app: SimApp;
beforeAll(async () => {
  app = await createApp({ scenario: 'default', log: () => {} });
});

describe('the page and its assets', () => {
  it('serves the page as HTML, never cached, from /__sim/ (and sends /__sim there)', async () => {
    const page = await request(app).get('/__sim/').expect(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.text).toContain('<script type="module" src="inspector/app.js">');
    const bare = await request(app).get('/__sim').expect(308);
    expect(bare.headers.location).toBe('__sim/');
    // The control plane's own traffic stays out of the journal.
    expect((await request(app).get('/__sim/journal')).body.entries).toEqual([]);
  });

  it('serves each asset with its content type', async () => {
    const js = await request(app).get('/__sim/inspector/app.js').expect(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.text).toContain('EventSource');
    const css = await request(app).get('/__sim/inspector/style.css').expect(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.headers['cache-control']).toBe('no-cache');
  });

  it('refuses anything that is not one of its files, however the path is spelt', async () => {
    for (const path of [
      '/__sim/inspector/..%2F..%2Fpackage.json',
      '/__sim/inspector/%2e%2e%2fsrc%2fapp.ts',
      '/__sim/inspector/.hidden.js',
      '/__sim/inspector/missing.js',
      '/__sim/inspector/README.md',
    ]) {
      const res = await request(app).get(path);
      expect(res.status, path).toBe(404);
      expect(res.body._tag, path).toBe('SimRouteNotFoundError');
      expect(res.body.hint, path).toContain('/__sim/inspector/app.js');
    }
    // Dot segments are resolved before routing: this is a path of the API, not a file.
    const climbed = await request(app).get('/__sim/inspector/../../package.json');
    expect(climbed.status).toBe(404);
    expect(climbed.text).not.toContain('devDependencies');
  });
});

describe('GET /__sim/exchanges/:id', () => {
  it('answers the whole exchange with every secret masked', async () => {
    const sent = await request(app)
      .post('/api/integration/openai/connect/key?auth_token=dG9rZW4tc2VjcmV0')
      .set('authorization', 'Basic c2VjcmV0')
      .set('cookie', 'session=cookie-secret')
      .set('x-api-key', 'api-key-secret')
      .send({ key: 'sk-live-very-secret', label: 'Personal' });
    const id = sent.headers['x-sim-request-id'] as string;
    const detail = await request(app).get(`/__sim/exchanges/${id}`).expect(200);
    const text = JSON.stringify(detail.body);
    for (const secret of ['c2VjcmV0', 'cookie-secret', 'api-key-secret', 'sk-live-very-secret', 'dG9rZW4tc2VjcmV0'])
      expect(text).not.toContain(secret);
    expect(detail.body).toMatchObject({
      id,
      iso: '2026-11-22T09:00:00.000Z',
      request: {
        method: 'POST',
        path: '/api/integration/openai/connect/key',
        query: { auth_token: '[REDACTED]' },
        headers: {
          authorization: '[REDACTED]',
          cookie: '[REDACTED]',
          'x-api-key': '[REDACTED]',
          'content-type': 'application/json',
        },
        body: { json: { key: '[REDACTED]', label: 'Personal' } },
      },
      response: { status: sent.status, headers: { 'x-sim-request-id': id } },
    });
  });

  it('keeps the answer as it was sent, body and headers', async () => {
    const sent = await request(app).get(`/api/session/${SES}/message?limit=2`).expect(200);
    const id = sent.headers['x-sim-request-id'] as string;
    const detail = await request(app).get(`/__sim/exchanges/${id}`).expect(200);
    expect(detail.body.request.query).toEqual({ limit: '2' });
    expect(detail.body.response).toMatchObject({
      status: 200,
      kind: 'json',
      headers: { 'content-type': 'application/json', 'x-sim-layer': 'scenario' },
      body: { json: sent.body },
    });
  });

  it('answers a Sim error with a way forward for an id it does not have', async () => {
    const missing = await request(app).get('/__sim/exchanges/req_999999').expect(404);
    expect(missing.body).toMatchObject({
      _tag: 'SimExchangeNotFoundError',
      message: 'No exchange req_999999 in this partition',
    });
    expect(missing.body.hint).toContain('x-sim-request-id');
    // Ids belong to a partition: another one does not know them.
    const mine = await request(app).get('/api/plugin').expect(200);
    const elsewhere = await request(app)
      .get(`/__sim/exchanges/${mine.headers['x-sim-request-id'] as string}`)
      .set('x-sim-partition', 'inspector-other');
    expect(elsewhere.status).toBe(404);
  });

  it('keeps a bounded number in the log, says when one was let go, and cuts long bodies', () => {
    const log = createEventLog(5000, { details: 2 });
    const exchange = (id: string, body = ''): Exchange => ({
      id,
      now: 0,
      method: 'POST',
      pathname: '/x',
      search: '',
      searchParams: new URLSearchParams(),
      headers: {},
      rawBody: Buffer.from(body),
    });
    /** What the pipeline does: one log entry, the exchange whole on it. */
    const append = (into: EventLog, id: string, answer: Answer, body = '') => {
      const x = exchange(id, body);
      return into.append<ExchangeEntry>({
        kind: 'exchange',
        id,
        time: 0,
        method: x.method,
        path: x.pathname,
        layer: 'fallback',
        status: answer.status,
        details: keepExchange(x, answer, {}, DEFAULT_REDACTION),
      });
    };
    // The secret comes first, inside the part that is kept: masking happens before the cut.
    const long = JSON.stringify({ key: 'sk-kept-part-secret', text: 'x'.repeat(70_000) });
    const first = append(log, 'req_000001', { kind: 'empty', status: 204 });
    append(log, 'req_000002', { kind: 'empty', status: 204 }, long);
    append(log, 'req_000003', { kind: 'drop', status: 0 });
    expect(log.detailed.size).toBe(2);
    // The oldest entry stays in the log, without the exchange whole.
    expect(log.entries()[0]).toBe(first);
    expect(first.details).toBeUndefined();
    expect(() => showExchange(log, 'req_000001')).toThrow('Exchange req_000001 is no longer kept');
    const cut = showExchange(log, 'req_000002').request.body;
    expect(cut).toMatchObject({ size: long.length, truncated: true });
    expect(cut?.text).toHaveLength(64 * 1024);
    expect(cut?.text?.startsWith('{"key":"[REDACTED]"')).toBe(true);
    expect(JSON.stringify(showExchange(log, 'req_000002'))).not.toContain('sk-kept-part-secret');
    expect(showExchange(log, 'req_000003').response).toEqual({ status: 0, kind: 'drop', headers: {} });

    // Large bodies also count against a byte budget: the oldest go first, the newest always stays.
    const small = createEventLog(5000, { details: 10, detailBytes: 100_000 });
    for (const n of [1, 2, 3]) append(small, `req_00000${n}`, { kind: 'empty', status: 204 }, long);
    expect(small.detailed.size).toBe(1);
    expect(showExchange(small, 'req_000003').request.body?.truncated).toBe(true);

    // A new world starts its request ids again: the old ones' details go with it.
    small.append({ kind: 'control', time: 0, action: 'reset' });
    expect(small.detailed.size).toBe(0);
    expect(() => showExchange(small, 'req_000003')).toThrow('No exchange req_000003 in this partition');
  });

  it('forgets them when the partition restarts, as its request ids start again', async () => {
    const other = await createApp({ scenario: 'default', log: () => {} });
    const id = (await request(other).get('/api/plugin')).headers['x-sim-request-id'] as string;
    await request(other).get(`/__sim/exchanges/${id}`).expect(200);
    await request(other).post('/__sim/reset').expect(200);
    await request(other).get(`/__sim/exchanges/${id}`).expect(404);
  });
});

describe('GET /__sim/live', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    const live = await createApp({ scenario: 'shell-timeout', log: () => {} });
    server = live.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** Reads `count` data frames from the stream, then hangs up. */
  const frames = (path: string, count: number, headers: Record<string, string> = {}, during?: () => Promise<unknown>) =>
    new Promise<{ res: IncomingMessage; frames: Array<Record<string, unknown>> }>((resolve, reject) => {
      const req = get(`${base}${path}`, { headers }, (res) => {
        const got: Array<Record<string, unknown>> = [];
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = block.split('\n').find((line) => line.startsWith('data: '));
            if (data) got.push(JSON.parse(data.slice(6)) as Record<string, unknown>);
            if (got.length === 1 && during) void during().catch(reject);
            if (got.length === count) {
              req.destroy();
              resolve({ res, frames: got });
              return;
            }
          }
        });
      });
      req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
      req.setTimeout(10_000, () => reject(new Error('no frame within 10 s')));
    });

  it('starts with a hello: the partition, the clock, the journal and the recent log', async () => {
    await fetch(`${base}/api/shell/sh_203a7e5c7001OpQrStUvWxYzAb`);
    await fetch(`${base}/__sim/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"by":"6s"}',
    });
    const {
      res,
      frames: [hello],
    } = await frames('/__sim/live', 1);
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(hello).toMatchObject({
      type: 'hello',
      partition: 'default',
      scenario: 'shell-timeout',
      iso: '2026-11-22T09:00:06.000Z',
      realTime: false,
      reloadProblem: null,
    });
    expect(hello?.journal).toEqual([
      expect.objectContaining({
        method: 'GET',
        path: '/api/shell/sh_203a7e5c7001OpQrStUvWxYzAb',
        status: 200,
        layer: 'scenario',
      }),
    ]);
    const entries = hello?.entries as Array<Record<string, unknown>>;
    expect(entries.every((e) => e.kind !== 'exchange')).toBe(true);
    expect(entries).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'event', type: 'shell.exited' }),
        expect.objectContaining({ kind: 'control', action: 'advance' }),
      ]),
    );
  });

  it('then sends each new log entry as it happens, in the partition the path names', async () => {
    const name = 'live-w2';
    const send = () =>
      fetch(`${base}/api/shell/sh_203a7e5c7001OpQrStUvWxYzAb/timeout`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', 'x-sim-partition': name },
        body: '{"timeout":1000}',
      });
    const { frames: got } = await frames(`/__partition/${name}/__sim/live`, 3, {}, send);
    expect(got[0]).toMatchObject({ type: 'hello', partition: name, journal: [] });
    expect(got[1]).toMatchObject({ type: 'entry', entry: { kind: 'event', type: 'shell.timeout.updated' } });
    expect(got[2]).toMatchObject({
      type: 'entry',
      entry: { kind: 'exchange', method: 'PATCH', changes: [expect.stringContaining('shell.timeout.updated')] },
    });
  });
});

describe('the journal tells apart requests the virtual clock gives one instant', () => {
  it('numbers each line (the log seq) and stamps its wall time, which no answer carries', async () => {
    const partition = 'journal-instants';
    const before = Date.now();
    const answers = [];
    for (let i = 0; i < 2; i++)
      answers.push(await request(app).get('/api/plugin').set('x-sim-partition', partition).expect(200));
    const after = Date.now();
    const { entries } = (await request(app).get(`/__partition/${partition}/__sim/journal`).expect(200)).body as {
      entries: Array<{ seq: number; time: number; wall: number; id: string }>;
    };
    expect(entries).toHaveLength(2);
    const [first, second] = entries as [(typeof entries)[0], (typeof entries)[0]];
    expect(second.time).toBe(first.time);
    expect(second.seq).toBeGreaterThan(first.seq);
    for (const entry of entries) {
      expect(entry.wall).toBeGreaterThanOrEqual(before);
      expect(entry.wall).toBeLessThanOrEqual(after);
    }
    // Wall time is the control plane's view only: the two answers are the same bytes, ids aside.
    const [a, b] = answers as [request.Response, request.Response];
    expect(b.text).toBe(a.text);
    expect(Object.keys(b.headers).filter((name) => /wall|time/.test(name))).toEqual([]);
  });
});

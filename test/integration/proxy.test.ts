/**
 * Proxy mode over real sockets: a local upstream server records what it receives; the simulator forwards
 * to it and checks its answers against the spec.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type SimApp } from '../../src/hosts/app.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let upstream: Server;
let seen: Seen[] = [];
let app: SimApp;

beforeAll(async () => {
  upstream = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      });
      if (req.url?.startsWith('/api/event')) {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.write('data: {"type":"server.connected"}\n\n');
        setTimeout(() => res.end('data: {"type":"bye"}\n\n'), 20);
        return;
      }
      if (req.url?.includes('/compact')) {
        res.writeHead(503, { 'content-type': 'application/json', connection: 'keep-alive', 'x-upstream': 'yes' });
        res.end(
          JSON.stringify({
            _tag: 'ServiceUnavailableError',
            message: 'Session compact is not available yet',
            service: 'session.compact',
          }),
        );
        return;
      }
      if (req.url?.includes('/agent')) {
        res.writeHead(204);
        res.end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: { id: 'ses_new' } }));
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  app = await createApp({ upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, log: () => {} });
});

afterAll(async () => {
  upstream.closeAllConnections();
  await new Promise((resolve) => upstream.close(resolve));
});

describe('proxy mode', () => {
  it('forwards method, path, query, body and end-to-end headers, dropping hop-by-hop ones', async () => {
    seen = [];
    const res = await request(app)
      .post('/api/session/ses_1/agent?x=1&x=2')
      .set('content-type', 'application/json')
      .set('authorization', 'Basic b3BlbmNvZGU6c2VjcmV0')
      .set('connection', 'keep-alive, x-private')
      .set('x-private', 'hop')
      .set('te', 'trailers')
      .send('{"agent":"plan"}');
    expect(res.status).toBe(204);
    expect(res.headers['x-sim-layer']).toBe('upstream');
    expect(seen[0]).toMatchObject({
      method: 'POST',
      url: '/api/session/ses_1/agent?x=1&x=2',
      body: '{"agent":"plan"}',
    });
    expect(seen[0]?.headers.authorization).toBe('Basic b3BlbmNvZGU6c2VjcmV0');
    expect(seen[0]?.headers['x-private']).toBeUndefined();
    expect(seen[0]?.headers.te).toBeUndefined();
  });

  it('passes the upstream answer on byte for byte and reports where it departs from the spec', async () => {
    const res = await request(app)
      .post('/api/session/ses_1/compact')
      .set('content-type', 'application/json')
      .send('{}');
    expect(res.status).toBe(503);
    expect(res.body._tag).toBe('ServiceUnavailableError');
    expect(res.headers['x-upstream']).toBe('yes');
    expect(res.headers.connection).not.toBe('keep-alive, x-private');
    expect(res.headers['x-sim-violations']).toBe('1');
    const journal = await request(app).get('/__sim/journal');
    expect(journal.body.entries.at(-1)).toMatchObject({
      operationId: 'v2.session.compact',
      layer: 'upstream',
      violations: [{ side: 'response', in: 'status', message: 'status 503 is not declared by v2.session.compact' }],
    });
    // The exchange details carry them as the journal line does, and coverage counts them by place.
    const id = res.headers['x-sim-request-id'] as string;
    const detail = await request(app).get(`/__sim/exchanges/${id}`).expect(200);
    expect(detail.body.violations).toEqual(journal.body.entries.at(-1).violations);
    const coverage = await request(app).get('/__sim/coverage');
    const compact = coverage.body.operations.find(
      (o: { operationId: string }) => o.operationId === 'v2.session.compact',
    );
    expect(compact.violations).toEqual([{ side: 'response', in: 'status', count: 1 }]);
    expect(coverage.body.summary.violatedOperations).toBeGreaterThanOrEqual(1);
    expect(coverage.body.summary.line).toMatch(/, spec violations in \d+ operations?$/);
  });

  it('forwards requests the spec does not know, and bad ones, noting both', async () => {
    seen = [];
    // The real server's older route, which the spec leaves out.
    const created = await request(app).post('/session').set('content-type', 'application/json').send('{}');
    expect(created.status).toBe(200);
    const bad = await request(app).post('/api/session/xyz/agent').set('content-type', 'application/json').send('{}');
    expect(bad.status).toBe(204);
    expect(seen.map((s) => s.url)).toEqual(['/session', '/api/session/xyz/agent']);
    const entries = (await request(app).get('/__sim/journal')).body.entries.slice(-2);
    expect(entries[0].violations).toEqual([
      { side: 'request', in: 'route', message: 'no operation of the spec matches' },
    ]);
    expect(entries[1].violations[0]).toMatchObject({ side: 'request', in: 'path', field: 'sessionID' });
    expect(entries[1].violations[0].message).toMatch(/^Path parameter "sessionID" must match the pattern \^ses/);
  });

  it('streams server-sent events through as they come', async () => {
    const res = await request(app)
      .get('/api/event')
      .buffer(true)
      .parse((r, done) => {
        let text = '';
        r.on('data', (c: Buffer) => (text += c.toString()));
        r.on('end', () => done(null, text));
      });
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(res.body).toBe('data: {"type":"server.connected"}\n\ndata: {"type":"bye"}\n\n');
  });
});

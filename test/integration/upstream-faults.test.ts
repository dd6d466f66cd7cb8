/**
 * Upstream faults, scripted with nock on a host that never resolves: each one answers a clear JSON
 * SimUpstreamError (502), never a hang, a crash or the upstream's garbage.
 */
import { createServer } from 'node:net';
import nock from 'nock';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';

const UPSTREAM = 'http://upstream.invalid';

beforeAll(() => {
  nock.disableNetConnect();
  nock.enableNetConnect('127.0.0.1');
});
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

async function proxied(timeout = 5000) {
  return createApp({ upstream: UPSTREAM, upstreamTimeout: timeout, log: () => {} });
}

describe('upstream faults', () => {
  it('a refused connection', async () => {
    // A port that was free a moment ago: nothing listens there.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const app = await createApp({ upstream: `http://127.0.0.1:${port}`, log: () => {} });
    const res = await request(app).get('/api/plugin');
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ _tag: 'SimUpstreamError', code: 'ECONNREFUSED' });
    expect(res.body.message).toContain('nothing is listening there');
  });

  it('a reset connection', async () => {
    nock(UPSTREAM).get('/api/plugin').replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    const res = await request(await proxied()).get('/api/plugin');
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ _tag: 'SimUpstreamError', code: 'ECONNRESET', message: expect.stringContaining('the connection was reset') });
  });

  it('an upstream that does not answer in time', async () => {
    nock(UPSTREAM).get('/api/plugin').delay(500).reply(200, { data: [] });
    const res = await request(await proxied(50)).get('/api/plugin');
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ _tag: 'SimUpstreamError', code: 'ETIMEDOUT', message: expect.stringContaining('no answer within 50 ms') });
  });

  it('malformed JSON', async () => {
    nock(UPSTREAM).get('/api/plugin').reply(200, '{"data": [', { 'content-type': 'application/json' });
    const res = await request(await proxied()).get('/api/plugin');
    expect(res.status).toBe(502);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toMatchObject({ _tag: 'SimUpstreamError', code: 'EBADJSON' });
  });

  it('a healthy answer passes through, checked against the spec', async () => {
    nock(UPSTREAM).get('/api/plugin').query({ 'location[directory]': '/srv/x' }).reply(200, { location: { directory: '/srv/x', project: { id: 'global', directory: '/srv/x' } }, data: [{ id: 'agent' }] });
    const res = await request(await proxied()).get('/api/plugin?location[directory]=/srv/x');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([{ id: 'agent' }]);
    expect(res.headers['x-sim-violations']).toBeUndefined();
  });
});

/**
 * Upstream faults, scripted with nock on a host that never resolves: each one answers a clear JSON
 * SimUpstreamError (502), never a hang, a crash or the upstream's garbage.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nock from 'nock';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { parseRecording } from '../../src/recordings/format.js';
import { freePort } from '../support/ports.js';

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
    const port = await freePort();
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

  it('leaves nothing half-written in a recording', async () => {
    const recording = join(mkdtempSync(join(tmpdir(), 'sim-fault-')), 'faults.yaml');
    nock(UPSTREAM).get('/api/plugin').replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    nock(UPSTREAM).get('/api/reference').reply(200, '{"data": [', { 'content-type': 'application/json' });
    const app = await createApp({ upstream: UPSTREAM, record: recording, log: () => {} });
    expect((await request(app).get('/api/plugin')).status).toBe(502);
    expect((await request(app).get('/api/reference')).status).toBe(502);
    const { header, interactions, tornTail } = parseRecording(readFileSync(recording, 'utf8'));
    expect(header?.format).toBe('session-agent-sim/recording@1');
    expect(interactions).toEqual([]);
    expect(tornTail).toBe(false);
  });

  it('a healthy answer passes through, checked against the spec', async () => {
    nock(UPSTREAM).get('/api/plugin').query({ 'location[directory]': '/srv/x' }).reply(200, { location: { directory: '/srv/x', project: { id: 'global', directory: '/srv/x' } }, data: [{ id: 'agent' }] });
    const res = await request(await proxied()).get('/api/plugin?location[directory]=/srv/x');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([{ id: 'agent' }]);
    expect(res.headers['x-sim-violations']).toBeUndefined();
  });
});

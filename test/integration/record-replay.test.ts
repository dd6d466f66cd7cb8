/**
 * Record through the simulator into a file, then replay offline from it: real sockets for the upstream,
 * supertest for the simulator.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { createApp } from '../../src/hosts/app.js';
import { parseRecording } from '../../src/recordings/format.js';

const SECRET = 'sk-dummy-do-not-leak-4242';
const SES = 'ses_dfc5ae513ffePKUBK7HkVp5zCB';
let upstream: Server;
let upstreamUrl: string;
let polls = 0;

beforeAll(async () => {
  upstream = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url?.startsWith('/api/integration/attempt/')) {
        polls++;
        res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': 'session=abc123' });
        res.end(
          JSON.stringify({
            location: { directory: '/srv', project: { id: 'global', directory: '/srv' } },
            data: { status: polls >= 3 ? 'complete' : 'pending', time: { created: 1, expires: 600001 } },
          }),
        );
      } else if (req.url?.startsWith('/api/event')) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: {"type":"server.connected"}\n\n');
        setTimeout(() => res.end('data: {"type":"later"}\n\n'), 30);
      } else if (req.url?.includes('/connect/key')) {
        res.writeHead(204);
        res.end();
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ data: { id: `ses_${req.url?.length ?? 0}` } }));
      }
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});

afterAll(async () => {
  upstream.closeAllConnections();
  await new Promise((resolve) => upstream.close(resolve));
});

function file(): string {
  return join(mkdtempSync(join(tmpdir(), 'sim-rec-')), 'flow.yaml');
}

describe('record then replay', () => {
  it('replays identical requests in recorded order, then keeps answering the last', async () => {
    const recording = file();
    polls = 0;
    const recorder = await createApp({ upstream: upstreamUrl, record: recording, log: () => {} });
    const statuses: string[] = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await request(recorder).get('/api/integration/attempt/con_1')).body.data.status);
    expect(statuses).toEqual(['pending', 'pending', 'complete']);

    const replayer = await createApp({ replay: recording, log: () => {} });
    const replayed: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await request(replayer).get('/api/integration/attempt/con_1');
      expect(res.headers['x-sim-layer']).toBe('replay');
      replayed.push(res.body.data.status);
    }
    expect(replayed).toEqual(['pending', 'pending', 'complete', 'complete']);

    const strict = await createApp({ replay: recording, replayExhausted: 'error', log: () => {} });
    for (let i = 0; i < 3; i++) await request(strict).get('/api/integration/attempt/con_1').expect(200);
    const fourth = await request(strict).get('/api/integration/attempt/con_1');
    expect(fourth.status).toBe(404);
    expect(fourth.body.message).toContain('its recorded answers are used up');
  });

  it('replays a poll sequence from the start in each partition, and forwards the path without the partition prefix', async () => {
    const recording = file();
    polls = 0;
    const recorder = await createApp({ upstream: upstreamUrl, record: recording, log: () => {} });
    // The prefix selects a partition; the upstream is asked for the path the client meant.
    for (let i = 0; i < 3; i++)
      await request(recorder).get('/__partition/rec/api/integration/attempt/con_1').expect(200);
    const recorded = parseRecording(readFileSync(recording, 'utf8')).interactions.map((i) => i.request.path);
    expect(recorded).toEqual(Array(3).fill('/api/integration/attempt/con_1'));

    const replayer = await createApp({ replay: recording, log: () => {} });
    const poll = async (partition: string) =>
      (await request(replayer).get('/api/integration/attempt/con_1').set('x-sim-partition', partition)).body.data
        .status as string;
    expect([await poll('a'), await poll('a'), await poll('b'), await poll('a'), await poll('b')]).toEqual([
      'pending',
      'pending',
      'pending',
      'complete',
      'pending',
    ]);
  });

  it('never writes a secret: key, authorization, cookies, auth_token', async () => {
    const recording = file();
    const recorder = await createApp({ upstream: upstreamUrl, record: recording, log: () => {} });
    await request(recorder)
      .post(`/api/integration/anthropic/connect/key?auth_token=${SECRET}`)
      .set('authorization', `Bearer ${SECRET}`)
      .set('cookie', `token=${SECRET}`)
      .send({ key: SECRET, label: 'Work' })
      .expect(204);
    await request(recorder).get('/api/integration/attempt/con_2').expect(200);
    const text = readFileSync(recording, 'utf8');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('abc123');
    const [, interaction] = parseAllDocuments(text).map((d) => d.toJS());
    expect(interaction.request).toMatchObject({
      query: { auth_token: '[REDACTED]' },
      headers: { authorization: '[REDACTED]', cookie: '[REDACTED]' },
      body: { key: '[REDACTED]', label: 'Work' },
    });

    // Placeholders are stable: the same request with another key still matches.
    const replayer = await createApp({ replay: recording, log: () => {} });
    await request(replayer)
      .post('/api/integration/anthropic/connect/key?auth_token=other')
      .send({ key: 'sk-another', label: 'Work' })
      .expect(204);
  });

  it('answers a miss with the closest recorded interaction and the field that differs', async () => {
    const recording = file();
    const recorder = await createApp({ upstream: upstreamUrl, record: recording, log: () => {} });
    await request(recorder).post(`/api/session/${SES}/agent`).send({ agent: 'plan' }).expect(200);
    const replayer = await createApp({ replay: recording, log: () => {} });
    const res = await request(replayer).post(`/api/session/${SES}/agent`).send({ agent: 'build' });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({
      _tag: 'SimRecordingNotFoundError',
      message:
        'No recorded interaction matches POST v2.session.switchAgent: body field agent differs: recorded "plan", sent "build"',
      closest: { seq: 1, method: 'POST', path: `/api/session/${SES}/agent` },
    });
    const never = await request(replayer).get('/api/plugin');
    expect(never.body.message).toContain('nothing was recorded for this operation');
  });

  it('records an event stream with its chunks and replays them', async () => {
    const recording = file();
    const recorder = await createApp({ upstream: upstreamUrl, record: recording, log: () => {} });
    const text = (r: request.Test) =>
      r.buffer(true).parse((res, done) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => done(null, body));
      });
    const live = await text(request(recorder).get('/api/event'));
    expect(live.body).toBe('data: {"type":"server.connected"}\n\ndata: {"type":"later"}\n\n');
    await new Promise((r) => setTimeout(r, 20)); // the recording is written when the stream ends
    const stored = parseRecording(readFileSync(recording, 'utf8')).interactions[0];
    expect(stored?.response.chunks?.map((c) => c.data)).toEqual([
      'data: {"type":"server.connected"}\n\n',
      'data: {"type":"later"}\n\n',
    ]);
    const replayer = await createApp({ replay: recording, log: () => {} });
    const replayed = await text(request(replayer).get('/api/event'));
    expect(replayed.headers['content-type']).toBe('text/event-stream');
    expect(replayed.body).toBe(live.body);
  });

  it('loses nothing when hundreds of requests arrive at once', async () => {
    const recording = file();
    const recorder = await createApp({ upstream: upstreamUrl, record: recording, log: () => {} });
    await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        request(recorder)
          .post(`/api/session/${SES}/agent`)
          .send({ agent: `a${i}` })
          .expect(200),
      ),
    );
    const { interactions, tornTail } = parseRecording(readFileSync(recording, 'utf8'));
    expect(tornTail).toBe(false);
    expect(interactions).toHaveLength(300);
    expect(new Set(interactions.map((i) => (i.request.body as { agent: string }).agent)).size).toBe(300);
    expect(interactions.map((i) => i.seq)).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    expect(parse(readFileSync(recording, 'utf8').split('\n---\n')[0] ?? '')).toMatchObject({
      format: 'session-agent-sim/recording@1',
    });
  });
});

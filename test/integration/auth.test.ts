/**
 * HTTP Basic auth as the real server does it with a password: the header or `auth_token`, 401 with the Basic
 * challenge for anything else on the API (unknown paths and the event stream included), the control plane
 * and CORS preflights open; in record mode the credentials go on to the upstream and never reach the file,
 * the journal or the log.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type SimApp } from '../../src/hosts/app.js';
import { resolveConfig } from '../../src/config/config.js';
import { SES } from '../support/requests.js';
import { SimConfigError } from '../../src/errors/sim-errors.js';

const PASSWORD = 'hunter2-do-not-leak';
const token = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const basic = (text: string) => `Basic ${token(text)}`;
const UNAUTHORIZED = { _tag: 'UnauthorizedError', message: 'Authentication required' };

let app: SimApp;
beforeAll(async () => {
  // A password alone, as OPENCODE_SERVER_PASSWORD: the user is opencode.
  app = await createApp({ auth: PASSWORD, log: () => {} });
});

describe('auth on the API', () => {
  it('answers with the Authorization: Basic header of opencode and the password', async () => {
    const res = await request(app)
      .get('/api/model/default')
      .set('authorization', basic(`opencode:${PASSWORD}`));
    expect(res.status).toBe(200);
    expect(res.headers['x-sim-layer']).not.toBe('auth');
  });

  it('answers with auth_token, the same base64 token in the query', async () => {
    await request(app)
      .get('/api/model/default')
      .query({ auth_token: token(`opencode:${PASSWORD}`) })
      .expect(200);
    // The query as browsers and URLSearchParams encode it, and with a `+` left unencoded (it reads as a space).
    const plus = 'a?b>c~~~'; // base64 of this holds + and /
    const withPlus = await createApp({ auth: `opencode:${plus}`, log: () => {} });
    expect(token(`opencode:${plus}`)).toMatch(/[+/]/);
    await request(withPlus)
      .get(`/api/model/default?auth_token=${encodeURIComponent(token(`opencode:${plus}`))}`)
      .expect(200);
    await request(withPlus)
      .get(`/api/model/default?auth_token=${token(`opencode:${plus}`)}`)
      .expect(200);
  });

  it('refuses without credentials: 401, JSON, the Basic challenge and the exact body of the real server', async () => {
    const res = await request(app).get('/api/model/default');
    expect(res.status).toBe(401);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['www-authenticate']).toBe('Basic realm="Secure Area"');
    expect(res.text).toBe(JSON.stringify(UNAUTHORIZED));
    expect(res.headers['x-sim-layer']).toBe('auth');
    expect(res.headers['x-sim-operation']).toBe('v2.model.default');
  });

  it.each([
    ['a wrong password', basic('opencode:wrong')],
    ['the password alone', basic(PASSWORD)],
    ['Bearer and the password', `Bearer ${PASSWORD}`],
    ['Bearer and the token', `Bearer ${token(`opencode:${PASSWORD}`)}`],
    ['a token that is not base64', `Basic ${token(`opencode:${PASSWORD}`)}!`],
  ])('refuses %s in the header', async (_what, authorization) => {
    const res = await request(app)
      .post(`/api/session/${SES}/agent`)
      .set('authorization', authorization)
      .send({ agent: 'plan' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
  });

  it('refuses the right password with the wrong user', async () => {
    const alice = await createApp({ auth: `alice:${PASSWORD}`, log: () => {} });
    await request(alice)
      .get('/api/plugin')
      .set('authorization', basic(`alice:${PASSWORD}`))
      .expect(200);
    const res = await request(alice)
      .get('/api/plugin')
      .set('authorization', basic(`opencode:${PASSWORD}`));
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Basic realm="Secure Area"');
  });

  it('refuses the raw password, or a wrong token, as auth_token', async () => {
    await request(app).get('/api/plugin').query({ auth_token: PASSWORD }).expect(401);
    await request(app)
      .get('/api/plugin')
      .query({ auth_token: token('opencode:wrong') })
      .expect(401);
  });

  it('refuses paths the spec does not know with 401, not 404', async () => {
    const res = await request(app).get('/api/nope');
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
    expect(res.headers['x-sim-operation']).toBeUndefined();
    // With credentials the same path is the simulator's 404.
    await request(app)
      .get('/api/nope')
      .set('authorization', basic(`opencode:${PASSWORD}`))
      .expect(404);
  });

  it('refuses the event stream without credentials', async () => {
    const res = await request(app).get('/api/event');
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
  });

  it('refuses a request addressed to a partition by its path prefix', async () => {
    await request(app).get('/__partition/worker-a/api/plugin').expect(401);
    await request(app)
      .get('/__partition/worker-a/api/plugin')
      .set('authorization', basic(`opencode:${PASSWORD}`))
      .expect(200);
  });

  it('answers CORS preflights 204 without credentials', async () => {
    const res = await request(app)
      .options('/api/model/default')
      .set('origin', 'http://localhost:5173')
      .set('access-control-request-method', 'GET')
      .set('access-control-request-headers', 'authorization');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-headers']).toBe('authorization');
    // A browser reading the 401 may read its challenge too.
    const refused = await request(app).get('/api/plugin').set('origin', 'http://localhost:5173');
    expect(refused.headers['access-control-expose-headers']).toContain('www-authenticate');
  });

  it('leaves the control plane open and journals each refusal as any other exchange', async () => {
    const journal = await createApp({ auth: PASSWORD, log: () => {} });
    await request(journal).get('/api/plugin').set('authorization', 'Bearer nope').expect(401);
    const res = await request(journal).get('/__sim/journal');
    expect(res.status).toBe(200);
    expect(res.body.entries).toEqual([
      expect.objectContaining({
        path: '/api/plugin',
        operationId: 'v2.plugin.list',
        layer: 'auth',
        status: 401,
        tag: 'UnauthorizedError',
      }),
    ]);
    await request(journal).get('/__sim/clock').expect(200);
    // A refusal still counts as the operation's declared UnauthorizedError.
    const coverage = await request(journal).get('/__sim/coverage').expect(200);
    expect(JSON.stringify(coverage.body)).toContain('UnauthorizedError');
  });

  it('is off unless asked for', async () => {
    const open = await createApp({ log: () => {} });
    await request(open).get('/api/plugin').expect(200);
  });

  it.each([[''], [':secret'], ['alice:'], [{ password: '' }], [{ user: 'a:b', password: 'x' }]])(
    'refuses the setting %j naming auth, never echoing a password',
    (auth) => {
      expect(() => resolveConfig({ auth })).toThrow(SimConfigError);
      expect(() => resolveConfig({ auth })).toThrow(/^auth /);
      expect(() => resolveConfig({ auth })).not.toThrow(/secret/);
    },
  );

  it('reads user:password at the first colon, and a password alone as user opencode', () => {
    expect(resolveConfig({ auth: 'alice:pa:ss' }).auth).toEqual({ user: 'alice', password: 'pa:ss' });
    expect(resolveConfig({ auth: 'secret' }).auth).toEqual({ user: 'opencode', password: 'secret' });
    expect(resolveConfig({ auth: { password: 'secret' } }).auth).toEqual({ user: 'opencode', password: 'secret' });
  });
});

describe('auth in record mode', () => {
  let upstream: Server;
  let upstreamUrl: string;
  const seen: IncomingHttpHeaders[] = [];
  const seenUrls: string[] = [];

  beforeAll(async () => {
    upstream = createServer((req, res) => {
      seen.push(req.headers);
      seenUrls.push(req.url ?? '');
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ location: { directory: '/srv', project: { id: 'global', directory: '/srv' } }, data: [] }),
        );
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    upstream.closeAllConnections();
    await new Promise((resolve) => upstream.close(resolve));
  });

  it('forwards the credentials as sent, and keeps them out of the recording, the journal and the log', async () => {
    const recording = join(mkdtempSync(join(tmpdir(), 'sim-auth-')), 'flow.yaml');
    const lines: string[] = [];
    const recorder = await createApp({
      upstream: upstreamUrl,
      record: recording,
      auth: `alice:${PASSWORD}`,
      log: (line) => lines.push(line),
    });
    const secret = token(`alice:${PASSWORD}`);

    await request(recorder).get('/api/plugin').set('authorization', `Basic ${secret}`).expect(200);
    await request(recorder).get('/api/reference').query({ auth_token: secret }).expect(200);
    // Refused here, so never forwarded and never recorded.
    await request(recorder)
      .get('/api/plugin')
      .set('authorization', basic(`alice:${PASSWORD}x`))
      .expect(401);

    // End to end: the upstream may have credentials of its own to check.
    expect(seen.map((h) => h.authorization)).toEqual([`Basic ${secret}`, undefined]);
    expect(seenUrls[1]).toContain(`auth_token=${encodeURIComponent(secret)}`);

    const text = readFileSync(recording, 'utf8');
    expect(text).toContain('/api/plugin');
    expect(text).toContain('[REDACTED]');
    const journal = JSON.stringify((await request(recorder).get('/__sim/journal').expect(200)).body);
    expect(journal).toContain('UnauthorizedError');
    const events = JSON.stringify((await request(recorder).get('/__sim/events').expect(200)).body);
    for (const where of [text, journal, events, lines.join('\n')]) {
      expect(where).not.toContain(secret);
      expect(where).not.toContain(PASSWORD);
      expect(where).not.toContain(encodeURIComponent(secret));
    }
  });
});

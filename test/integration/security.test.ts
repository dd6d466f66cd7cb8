/**
 * Security defaults: loopback unless told otherwise; beyond loopback the control plane asks for a token;
 * nothing that arrives over HTTP makes the simulator read a file of the sender's choosing; `fs/list` serves
 * the scenario's virtual tree, never the real file system.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type SimApp } from '../../src/hosts/app.js';
import { resolveConfig } from '../../src/config/config.js';
import { startSimulator } from '../../src/index.js';

const BIN = fileURLToPath(new URL('../../bin/session-agent-sim.js', import.meta.url));
const TOKEN = 'test-admin-token-0123456789';

describe('the control plane', () => {
  let guarded: SimApp;
  beforeAll(async () => {
    guarded = await createApp({ scenario: 'default', adminToken: TOKEN, log: () => {} });
  });

  it('is open on loopback by default, and asks for a token beyond it', () => {
    expect(resolveConfig({}).host).toBe('127.0.0.1');
    expect(resolveConfig({}).adminToken).toBeUndefined();
    for (const host of ['0.0.0.0', '::', '192.168.1.20'])
      expect(resolveConfig({ host }).adminToken).toMatch(/^[\w-]{32}$/);
    for (const host of ['localhost', '127.0.0.1', '::1', '127.1.2.3'])
      expect(resolveConfig({ host }).adminToken).toBeUndefined();
    // Two starts, two tokens: nothing a reader of the source could guess.
    expect(resolveConfig({ host: '0.0.0.0' }).adminToken).not.toBe(resolveConfig({ host: '0.0.0.0' }).adminToken);
  });

  it('refuses every control route without the token, in JSON that says how to send it', async () => {
    for (const [method, path] of [
      ['get', '/__sim/journal'],
      ['post', '/__sim/reset'],
      ['put', '/__sim/scenario'],
      ['get', '/__sim/'],
      ['get', '/__sim/live'],
      ['get', '/__partition/w1/__sim/state'],
    ] as const) {
      const res = await request(guarded)[method](path);
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body).toEqual({
        _tag: 'SimAdminTokenError',
        message: 'The control API needs the admin token',
        hint: expect.stringContaining('X-Sim-Admin-Token'),
      });
    }
    const wrong = await request(guarded).get('/__sim/journal').set('x-sim-admin-token', 'not-the-token-at-all');
    expect(wrong.status).toBe(401);
    expect(wrong.body.message).toBe('The admin token does not match');
    // The API itself is not behind the token.
    expect((await request(guarded).get('/api/model/default')).status).toBe(200);
  });

  it('takes the token as a header, a bearer, or once in the query for a browser, which then keeps a cookie', async () => {
    expect((await request(guarded).get('/__sim/clock').set('x-sim-admin-token', TOKEN)).status).toBe(200);
    expect((await request(guarded).get('/__sim/clock').set('authorization', `Bearer ${TOKEN}`)).status).toBe(200);
    const page = await request(guarded).get(`/__sim/?admin_token=${TOKEN}`);
    expect(page.status).toBe(200);
    const cookie = String(page.headers['set-cookie']);
    expect(cookie).toMatch(/^sim_admin_token=[^;]+; Path=\/; HttpOnly; SameSite=Strict$/);
    expect(
      (
        await request(guarded)
          .get('/__sim/journal')
          .set('cookie', cookie.split(';')[0] as string)
      ).status,
    ).toBe(200);
  });

  it('lets a handle given the token drive the simulator', async () => {
    const sim = await startSimulator({ scenario: 'default', adminToken: TOKEN });
    try {
      expect(await sim.clock.advance('1s')).toBeGreaterThan(0);
      expect((await fetch(`${sim.url}/__sim/clock`)).status).toBe(401);
    } finally {
      await sim.close();
    }
  });

  it('is generated and printed once when the CLI listens beyond loopback', async () => {
    const child = spawn(process.execPath, [BIN, 'mock', '--host', '0.0.0.0', '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let out = '';
      child.stdout.setEncoding('utf8');
      const [port, token] = await new Promise<[string, string]>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no token line in 15 s: ${out}`)), 15_000);
        child.stdout.on('data', (chunk: string) => {
          out += chunk;
          const match = /http:\/\/0\.0\.0\.0:(\d+)\/__sim needs admin token (\S+) \(generated/.exec(out);
          if (match?.[1] && match[2]) {
            clearTimeout(timer);
            resolve([match[1], match[2]]);
          }
        });
      });
      // Traffic stays on loopback all the same.
      const base = `http://127.0.0.1:${port}`;
      expect((await fetch(`${base}/__sim/clock`)).status).toBe(401);
      expect((await fetch(`${base}/__sim/clock`, { headers: { 'x-sim-admin-token': token } })).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });
});

describe('the control plane on loopback', () => {
  let app: SimApp;
  beforeAll(async () => {
    app = await createApp({ scenario: 'default', log: () => {} });
  });

  it('answers this machine: programs, and pages served from loopback', async () => {
    expect((await request(app).post('/__sim/reset')).status).toBe(200);
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1:3000', 'http://[::1]:8080']) {
      expect((await request(app).post('/__sim/reset').set('origin', origin)).status, origin).toBe(200);
    }
  });

  it('refuses a page of another site, which a browser would let post to it (CSRF), and a rebound DNS name', async () => {
    const before = (await request(app).get('/__sim/clock')).body.now as number;
    for (const [header, value] of [
      ['origin', 'https://evil.example'],
      ['origin', 'null'],
      ['host', 'evil.example:4010'],
      ['host', 'localhost.evil.example'],
    ] as const) {
      const res = await request(app)
        .post('/__sim/clock/advance')
        .set(header, value)
        .set('content-type', 'text/plain')
        .send('{"by": "1h"}');
      expect(res.status, `${header}: ${value}`).toBe(403);
      expect(res.body).toMatchObject({ _tag: 'SimForeignOriginError', hint: expect.stringContaining('127.0.0.1') });
    }
    // None of them moved the clock.
    expect((await request(app).get('/__sim/clock')).body.now).toBe(before);
    // The API itself answers any origin, as the real server does.
    expect((await request(app).get('/api/plugin').set('origin', 'https://evil.example')).status).toBe(200);
  });
});

describe('names that arrive over HTTP', () => {
  let app: SimApp;
  beforeAll(async () => {
    app = await createApp({ scenario: 'default', log: () => {} });
  });

  it('switch to a scenario of the folder by name, and to nothing else', async () => {
    expect((await request(app).put('/__sim/scenario').send({ name: 'forms-settling' })).status).toBe(200);
    const secret = join(mkdtempSync(join(tmpdir(), 'sim-traversal-')), 'secret.yaml');
    writeFileSync(secret, 'name: secret\nsessions: [{ id: ses_secret, title: "do not read me" }]\n');
    for (const name of [
      '../../../../etc/passwd',
      '/etc/passwd',
      secret,
      'scenarios/default.yaml',
      '../scenarios/default',
      'default.yaml',
      '..',
      'default\u0000',
      '%2e%2e%2fdefault',
    ]) {
      const res = await request(app).put('/__sim/scenario').send({ name });
      expect(res.status, name).toBe(404);
      expect(res.body._tag).toBe('SimScenarioNotFoundError');
      expect(res.body.hint).toContain('over HTTP a scenario is a name from the list');
      expect(JSON.stringify(res.body)).not.toContain('do not read me');
      expect(JSON.stringify(res.body)).not.toContain('root:');
    }
    expect((await request(app).get('/__sim/scenarios')).body.current).toBe('forms-settling');
  });

  it('take a scenario sent as YAML text, with problems placed in it', async () => {
    const ok = await request(app)
      .put('/__sim/scenario')
      .send({ yaml: 'name: inline\nsessions: [{ id: ses_inline }]\n', file: 'fixtures/inline.yaml' });
    expect(ok.status).toBe(200);
    expect(ok.body.scenario).toBe('inline');
    const bad = await request(app)
      .put('/__sim/scenario')
      .send({ yaml: 'name: inline\nsessions: 3\n', file: 'fixtures/inline.yaml' });
    expect(bad.status).toBe(400);
    expect(bad.body.problems[0]).toMatch(/^fixtures\/inline\.yaml:2:\d+/);
  });

  it('let a handle switch to a file it names: the handle reads it and sends the text', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sim-handle-')), 'mine.yaml');
    writeFileSync(file, 'name: mine\nsessions: [{ id: ses_mine, title: Mine }]\n');
    const sim = await startSimulator({ scenario: 'default' });
    try {
      await sim.useScenario(file);
      expect(((await sim.state()) as { scenario: string }).scenario).toBe('mine');
    } finally {
      await sim.close();
    }
  });

  it('never leave the inspector folder', async () => {
    for (const path of [
      '/__sim/inspector/..%2f..%2fpackage.json',
      '/__sim/inspector/%2e%2e%2fpackage.json',
      '/__sim/inspector/..%5c..%5cpackage.json',
      '/__sim/inspector/.env',
    ]) {
      const res = await request(app).get(path);
      expect(res.status, path).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.text).not.toContain('"dependencies"');
    }
  });
});

describe('fs/list', () => {
  let app: SimApp;
  beforeAll(async () => {
    // A real directory as the project: still only the scenario's tree is served.
    app = await createApp({
      scenario: 'default',
      projectDir: fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, ''),
      log: () => {},
    });
  });
  afterAll(() => undefined);

  it('serves the scenario tree, never the real file system', async () => {
    const root = await request(app).get('/api/fs/list');
    expect(root.status).toBe(200);
    const names = (root.body.data as Array<{ name: string }>).map((e) => e.name);
    expect(names.length).toBeGreaterThan(0);
    // The checkout this test runs in has these; the scenario's tree does not.
    for (const real of ['package-lock.json', 'node_modules', 'vitest.config.ts']) expect(names).not.toContain(real);
    for (const path of ['..', '../..', '/etc', '/', '../../../../etc', 'src/../../..', '%2e%2e', '/proc/self']) {
      const res = await request(app).get('/api/fs/list').query({ path });
      expect([200, 400], path).toContain(res.status);
      if (res.status === 400) expect(res.body._tag).toBe('InvalidRequestError');
      expect(res.text).not.toMatch(/"(passwd|hostname|environ|node_modules)"/);
    }
  });
});

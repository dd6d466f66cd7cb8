/**
 * A scenario's own project, instants before the start and shells' output file and metadata, through the whole
 * app: the partition serving a scenario with `project` answers as a simulator started in that project would
 * (locations, copies, default cwds, forms, events), and goes back to the simulator's project when switched
 * to a scenario without one. Every answer and event frame is checked against the spec.
 */
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp, type SimApp } from '../../src/hosts/app.js';
import { startServer, type RunningSimulator } from '../../src/hosts/server.js';
import type { Scenario } from '../../src/format/scenario-types.js';
import { eventProblems, specProblems } from '../support/spec-validator.js';
import { PROJECT_ID } from '../support/requests.js';

const APP_DIR = '/home/dev/acme-web';
const PROJECT = { directory: '/home/dev/acme-api', id: '407a151faf7088522a029c563e779174ca135d19' };
const SES = 'ses_dfc5ae513ffePKUBK7HkVp5zCB';
const LATER_SES = 'ses_dfc5a2222222LaterSession01';
const EARLY_SHELL = 'sh_203a7d1f3001QrStUvWxYz0123';
const LOGGED_SHELL = 'sh_203a7e0a4001Bc4DeFgHiJkLmN';
const PLAIN_SHELL = 'sh_203a7e5c7001OpQrStUvWxYzAb';
const ATTEMPT = 'con_203a64b00001CrBDw85dYNzrGb';
const FORM = 'frm_203a7d0000010LaterFormAbCd';
const at = (iso: string) => Date.parse(iso);

const SCENARIO = {
  name: 'acme-api',
  project: PROJECT,
  sessions: [
    { id: SES, title: 'API work' },
    { id: LATER_SES, appears: '5s' },
  ],
  forms: [
    {
      id: FORM,
      sessionID: SES,
      title: 'Confirm the deploy preview',
      mode: 'url',
      url: 'https://preview.acme.dev/confirm/8f2a',
    },
  ],
  shells: [
    { id: EARLY_SHELL, command: 'npm run dev', starts: '2026-11-22T08:58:00Z', timeout: 300_000 },
    { id: LOGGED_SHELL, command: 'npm test', file: '/home/dev/acme-api/.logs/test.log', metadata: { sessionID: SES } },
    { id: PLAIN_SHELL, command: 'npm run lint', starts: '10s' },
  ],
  integrations: [
    {
      id: 'openai',
      name: 'OpenAI',
      methods: [{ type: 'oauth', id: 'chatgpt-browser', label: 'ChatGPT (browser)' }],
      connections: [],
    },
  ],
  attempts: [{ id: ATTEMPT, integrationID: 'openai', created: '2026-11-22T08:55:00Z' }],
  files: ['src/server.ts', 'package.json'],
} satisfies Scenario;
const WITHOUT_PROJECT = { name: 'no-project', shells: [{ id: PLAIN_SHELL, command: 'npm run lint' }] };

let app: SimApp;
beforeEach(async () => {
  app = await createApp({ scenario: SCENARIO, projectDir: APP_DIR, projectId: PROJECT_ID, log: () => {} });
});

/** One API call, its answer held to the spec for the operation the simulator routed it to. */
async function call(
  method: 'get' | 'post' | 'patch',
  path: string,
  body?: object,
  partition?: string,
): Promise<request.Response> {
  let req = request(app)[method](path);
  if (partition) req = req.set('x-sim-partition', partition);
  const res = body === undefined ? await req : await req.send(body);
  const operation = res.headers['x-sim-operation'] as string;
  expect(operation, `${method} ${path}`).toBeDefined();
  expect(
    specProblems(operation, res.status, res.body, res.headers['content-type'] as string | undefined),
    `${method} ${path}`,
  ).toEqual([]);
  expect(res.headers['x-sim-violations']).toBeUndefined();
  return res;
}

const advance = (by: string) => request(app).post('/__sim/clock/advance').send({ by }).expect(200);

describe('a scenario with a project', () => {
  it('echoes its project in location-scoped answers, whichever layer answers', async () => {
    const home = { directory: PROJECT.directory, project: PROJECT };
    expect((await call('get', `/api/shell/${LOGGED_SHELL}`)).body.location).toEqual(home);
    // The scenario lists no plugins: the spec's example answers, about the scenario's project.
    const fallback = await call('get', '/api/plugin');
    expect(fallback.headers['x-sim-layer']).toBe('fallback');
    expect(fallback.body.location).toEqual(home);
    expect((await call('get', '/api/plugin?location[directory]=/home/dev/acme-api/src')).body.location).toEqual({
      directory: '/home/dev/acme-api/src',
      project: PROJECT,
    });
    expect((await call('get', `/api/plugin?location[directory]=${APP_DIR}`)).body.location).toEqual({
      directory: APP_DIR,
      project: { id: 'global', directory: APP_DIR },
    });
  });

  it('runs shells and PTYs in its directory, lists its files and its forms', async () => {
    expect((await call('get', `/api/shell/${LOGGED_SHELL}`)).body.data.cwd).toBe(PROJECT.directory);
    expect((await call('post', '/api/pty', {})).body.data.cwd).toBe(PROJECT.directory);
    expect((await call('get', '/api/fs/list')).body.data).toEqual([
      { path: 'src/', type: 'directory' },
      { path: 'package.json', type: 'file' },
    ]);
    expect((await call('get', '/api/fs/list?location[directory]=/home/dev/acme-api/src')).body.data).toEqual([
      { path: 'server.ts', type: 'file' },
    ]);
    expect((await call('get', `/api/fs/list?location[directory]=${APP_DIR}`)).body.data).toEqual([]);
    expect((await call('get', '/api/form/request')).body.data.map((f: { id: string }) => f.id)).toEqual([FORM]);
    expect((await call('get', `/api/form/request?location[directory]=${APP_DIR}`)).body.data).toEqual([]);
  });

  it('copies its project, and only its project', async () => {
    const copy = { strategy: 'git_worktree', directory: '/home/dev/copies', name: 'api-x' };
    expect((await call('post', `/experimental/project/${PROJECT.id}/copy`, copy)).body).toEqual({
      directory: '/home/dev/copies/api-x',
    });
    const refused = await call('post', `/experimental/project/${PROJECT_ID}/copy`, copy);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      name: 'ProjectCopyError',
      data: { message: `Project copy source not found: ${PROJECT.directory}` },
    });
  });

  it('serves its project in a new partition and after a reset; a switch to a scenario without one goes back to the simulator project', async () => {
    expect((await call('get', '/api/plugin', undefined, 'other')).body.location.project).toEqual(PROJECT);
    await request(app).post('/__sim/reset').expect(200);
    expect((await call('get', '/api/plugin')).body.location.project).toEqual(PROJECT);

    await request(app).put('/__sim/scenario').send({ scenario: WITHOUT_PROJECT }).expect(200);
    const appProject = { directory: APP_DIR, project: { id: PROJECT_ID, directory: APP_DIR } };
    expect((await call('get', `/api/shell/${PLAIN_SHELL}`)).body).toMatchObject({
      location: appProject,
      data: { cwd: APP_DIR },
    });
    expect((await call('get', '/api/plugin')).body.location).toEqual(appProject);
    const copy = { strategy: 'git_worktree', directory: '/home/dev/copies', name: 'web-x' };
    expect((await call('post', `/experimental/project/${PROJECT_ID}/copy`, copy)).body).toEqual({
      directory: '/home/dev/copies/web-x',
    });
    // The other partition keeps serving the scenario it had.
    expect((await call('get', '/api/plugin', undefined, 'other')).body.location.project).toEqual(PROJECT);

    await request(app).put('/__sim/scenario').send({ scenario: SCENARIO }).expect(200);
    expect((await call('get', '/api/plugin')).body.location.project).toEqual(PROJECT);
  });
});

describe('instants before the start', () => {
  it('show a shell started before the start as running since then, timed out five minutes after it', async () => {
    const started = at('2026-11-22T08:58:00Z');
    expect((await call('get', `/api/shell/${EARLY_SHELL}`)).body.data).toMatchObject({
      status: 'running',
      time: { started },
    });
    await advance('2m59s');
    expect((await call('get', `/api/shell/${EARLY_SHELL}`)).body.data.status).toBe('running');
    await advance('1s');
    expect((await call('get', `/api/shell/${EARLY_SHELL}`)).body.data).toMatchObject({
      status: 'timeout',
      time: { started, completed: at('2026-11-22T09:03:00Z') },
    });
  });

  it('show an attempt created before the start with that time, expiring ten minutes after it', async () => {
    const time = { created: at('2026-11-22T08:55:00Z'), expires: at('2026-11-22T09:05:00Z') };
    expect((await call('get', `/api/integration/attempt/${ATTEMPT}`)).body.data).toEqual({ status: 'pending', time });
    await advance('5m');
    expect((await call('get', `/api/integration/attempt/${ATTEMPT}`)).body.data).toEqual({ status: 'expired', time });
  });
});

describe('shell file and metadata', () => {
  it('answer as the scenario gives them, else the defaults', async () => {
    expect((await call('get', `/api/shell/${LOGGED_SHELL}`)).body.data).toMatchObject({
      file: '/home/dev/acme-api/.logs/test.log',
      metadata: { sessionID: SES },
    });
    expect((await call('get', `/api/shell/${EARLY_SHELL}`)).body.data).toMatchObject({
      file: `/tmp/session-agent/shell/${EARLY_SHELL}.log`,
      metadata: {},
    });
  });
});

describe('events of a scenario with a project', () => {
  let sim: RunningSimulator | undefined;
  let abort: AbortController | undefined;
  afterEach(async () => {
    abort?.abort();
    await sim?.close();
  });

  it('carry its directory as their location and its id in session records', async () => {
    // shell.created is the newer real server's (the client does not type it): on the stream by default.
    sim = await startServer({
      scenario: SCENARIO,
      port: 0,
      projectDir: APP_DIR,
      projectId: PROJECT_ID,
      log: () => {},
    });
    abort = new AbortController();
    const res = await fetch(`${sim.url}/api/event`, { signal: abort.signal });
    const frames: Array<{ type: string; location?: { directory: string }; data: Record<string, any> }> = []; // eslint-disable-line @typescript-eslint/no-explicit-any
    void (async () => {
      const decoder = new TextDecoder();
      let buffer = '';
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
            const data = buffer
              .slice(0, end)
              .split('\n')
              .find((line) => line.startsWith('data: '));
            if (data) frames.push(JSON.parse(data.slice(6)) as (typeof frames)[number]);
            buffer = buffer.slice(end + 2);
          }
        }
      } catch {
        // aborted at the end of the test
      }
    })();
    await until(() => frames.length > 0);
    await fetch(`${sim.url}/__sim/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ by: '10s' }),
    });
    await until(() => frames.some((f) => f.type === 'shell.created'));

    const created = frames.find((f) => f.type === 'session.created');
    expect(created).toMatchObject({
      location: { directory: PROJECT.directory },
      data: { sessionID: LATER_SES, info: { projectID: PROJECT.id, directory: PROJECT.directory } },
    });
    expect(frames.find((f) => f.type === 'shell.created')).toMatchObject({
      location: { directory: PROJECT.directory },
      data: { info: { id: PLAIN_SHELL, cwd: PROJECT.directory } },
    });
    for (const frame of frames) expect(eventProblems(frame), JSON.stringify(frame)).toEqual([]);
  });
});

async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the event stream');
    await new Promise((r) => setTimeout(r, 10));
  }
}

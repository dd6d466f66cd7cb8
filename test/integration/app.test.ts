import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp, type SimApp } from '../../src/hosts/app.js';
import { SES, SH } from '../support/requests.js';

let app: SimApp;
beforeAll(async () => {
  app = await createApp({ log: () => {} });
});

describe('location envelope', () => {
  it('names the configured project directory when no location is asked for', async () => {
    const res = await request(app).get('/api/plugin');
    expect(res.body.location).toEqual({
      directory: '/home/dev/acme-web',
      project: { id: expect.stringMatching(/^[0-9a-f]{40}$/), directory: '/home/dev/acme-web' },
    });
  });

  it('echoes the requested directory and workspace, inside the same project', async () => {
    const res = await request(app)
      .get('/api/fs/list')
      .query('location[directory]=/home/dev/acme-web/packages/ui&location[workspace]=wrk_203a1');
    expect(res.status).toBe(200);
    expect(res.body.location.directory).toBe('/home/dev/acme-web/packages/ui');
    expect(res.body.location.workspaceID).toBe('wrk_203a1');
    expect(res.body.location.project.directory).toBe('/home/dev/acme-web');
  });

  it('reports a directory outside the project as its own "global" project', async () => {
    const res = await request(app).get('/api/reference').query('location[directory]=/srv/other');
    expect(res.body.location).toEqual({ directory: '/srv/other', project: { id: 'global', directory: '/srv/other' } });
  });

  it('leaves session-scoped answers without a location', async () => {
    const res = await request(app).get(`/api/session/${SES}/message`);
    expect(res.status).toBe(200);
    expect(res.body.location).toBeUndefined();
  });

  it('answers InvalidRequestError naming location[workspace] when it is not a wrk id', async () => {
    const res = await request(app).get('/api/plugin').query('location[workspace]=nope');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ _tag: 'InvalidRequestError', kind: 'Query', field: 'location[workspace]' });
  });
});

describe('Prefer controls', () => {
  it('serves a named example with Prefer: example=<name>', async () => {
    const names = app.sim.spec.byId.get('v2.shell.get')?.responses.get(200)?.exampleNames ?? [];
    expect(names.length).toBeGreaterThan(1);
    const second = names[1] as string;
    const first = await request(app).get(`/api/shell/${SH}`);
    const named = await request(app).get(`/api/shell/${SH}`).set('Prefer', `example=${second}`);
    expect(named.status).toBe(200);
    expect(named.body).not.toEqual(first.body);
  });

  it('fills a forced error with the ids of the request', async () => {
    const res = await request(app).get('/api/session/ses_mine123/message').set('Prefer', 'code=404');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      _tag: 'SessionNotFoundError',
      sessionID: 'ses_mine123',
      message: 'Session not found: ses_mine123',
    });
  });

  it('refuses an undeclared status with a hint listing the declared ones', async () => {
    const res = await request(app).get('/api/plugin').set('Prefer', 'code=418');
    expect(res.status).toBe(400);
    expect(res.body._tag).toBe('SimPreferenceError');
    expect(res.body.hint).toContain('200, 400, 401');
  });

  it('refuses an unknown example name with the names there are', async () => {
    const res = await request(app).get('/api/plugin').set('Prefer', 'example=nope');
    expect(res.body._tag).toBe('SimPreferenceError');
    expect(res.body.hint).toMatch(/^Examples for status 200: /);
  });

  it('suggests the example meant by a misspelt name', async () => {
    const res = await request(app).get('/api/shell/sh_203a7d1f3001QrStUvWxYz0123').set('Prefer', 'example=timout');
    expect(res.body).toMatchObject({
      _tag: 'SimPreferenceError',
      hint: 'Did you mean "timeout"? Examples for status 200: running, exited, timeout',
    });
  });

  it('points a misspelt control path at the route meant, and says what a clock step looks like', async () => {
    const journal = await request(app).get('/__sim/journl');
    expect(journal.status).toBe(404);
    expect(journal.body).toMatchObject({
      _tag: 'SimRouteNotFoundError',
      hint: 'Closest operations: GET /__sim/journal, DELETE /__sim/journal',
    });
    const advance = await request(app).post('/__sim/clock/advance').send({ by: '10 sec' });
    expect(advance.body).toEqual({
      _tag: 'SimControlRequestError',
      message: '"10 sec" is not an amount of time to advance by',
      hint: 'Send {"by": "30s"} (250ms, 30s, 5m, 1h, 1m30s) or {"ms": 5000}, not negative',
    });
    const scenario = await request(app).put('/__sim/scenario').send({ name: 'forms-setling' });
    expect(scenario.body).toMatchObject({
      _tag: 'SimScenarioNotFoundError',
      message: 'No scenario "forms-setling". Did you mean "forms-settling"?',
    });
  });
});

describe('dynamic answers', () => {
  const path = `/api/session/${SES}/message?limit=3`;

  it('are identical for the same seed and request, in any order', async () => {
    const a = await createApp({ dynamic: true, seed: 'alpha', log: () => {} });
    const b = await createApp({ dynamic: true, seed: 'alpha', log: () => {} });
    const first = await request(a).get(path);
    await request(b).get('/api/plugin'); // a different request first must not shift the sequence
    const second = await request(b).get(path);
    expect(first.status).toBe(200);
    expect(second.text).toBe(first.text);
    expect((await request(a).get(path)).text).toBe(first.text);
  });

  it('differ for another seed', async () => {
    const a = await createApp({ dynamic: true, seed: 'alpha', log: () => {} });
    const c = await createApp({ dynamic: true, seed: 'gamma', log: () => {} });
    expect((await request(c).get(path)).text).not.toBe((await request(a).get(path)).text);
  });

  it('are generated rather than the example', async () => {
    const dynamic = await createApp({ dynamic: true, log: () => {} });
    expect((await request(dynamic).get(path)).text).not.toBe((await request(app).get(path)).text);
  });
});

describe('bad input', () => {
  it('names the offending body field, its kind and what is wrong', async () => {
    const res = await request(app)
      .post(`/api/session/${SES}/model`)
      .send({ model: { id: 5, providerID: 'anthropic' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      _tag: 'InvalidRequestError',
      kind: 'Payload',
      field: 'model.id',
      message: 'Body field "model.id" must be string',
    });
  });

  it('names a wrong path id the way the real server does', async () => {
    const res = await request(app).post('/api/session/xyz/agent').send({ agent: 'plan' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ _tag: 'InvalidRequestError', kind: 'Params', field: 'sessionID' });
    expect(res.body.message).toContain('"xyz"');
  });

  it('explains a bad limit in words on the message listing', async () => {
    const res = await request(app).get(`/api/session/${SES}/message?limit=1000`);
    expect(res.body).toEqual({
      _tag: 'InvalidCursorError',
      message: 'Query parameter "limit" must be a whole number from 1 to 200',
    });
  });

  it('refuses a body over the limit with a declared error, not a dropped connection', async () => {
    const small = await createApp({ bodyLimit: 64, log: () => {} });
    const res = await request(small)
      .post(`/api/session/${SES}/agent`)
      .send({ agent: 'x'.repeat(200) });
    expect(res.status).toBe(400);
    expect(res.body._tag).toBe('InvalidRequestError');
    expect(res.body.message).toContain('larger than');
  });

  it('accepts unknown body fields, as the real server does', async () => {
    const res = await request(app).post(`/api/session/${SES}/agent`).send({ agent: 'plan', colour: 'blue' });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
  });
});

describe('routes outside the interface', () => {
  it('answers an unknown path with JSON naming the closest operations, even to a browser', async () => {
    const res = await request(app).get(`/api/sesion/${SES}/message`).set('Accept', 'text/html');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body._tag).toBe('SimRouteNotFoundError');
    expect(res.body.closest[0]).toEqual({
      operationId: 'v2.session.messages',
      method: 'GET',
      path: '/api/session/{sessionID}/message',
    });
  });

  it('answers a wrong method with 405, Allow and the operations there are', async () => {
    const res = await request(app).delete('/api/pty');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, POST');
    expect(res.body).toMatchObject({
      _tag: 'SimMethodNotAllowedError',
      allowed: [{ operationId: 'v2.pty.list' }, { operationId: 'v2.pty.create' }],
    });
  });

  it('answers CORS preflights like the real server', async () => {
    const res = await request(app)
      .options('/api/pty')
      .set('Origin', 'http://localhost:5173')
      .set('Access-Control-Request-Method', 'POST');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(res.headers['access-control-max-age']).toBe('86400');
    expect(res.headers.vary).toBe('Origin');
  });
});

describe('control plane', () => {
  it('lists the operations and journals who answered', async () => {
    const fresh = await createApp({ log: () => {} });
    await request(fresh).get('/api/plugin');
    await request(fresh).get('/api/nope');
    const ops = await request(fresh).get('/__sim/operations');
    expect(ops.body.operations).toHaveLength(91); // the interface's 23 and the event stream
    const journal = await request(fresh).get('/__sim/journal');
    expect(
      journal.body.entries.map((e: { operationId?: string; layer: string; status: number }) => [
        e.operationId,
        e.layer,
        e.status,
      ]),
    ).toEqual([
      ['v2.plugin.list', 'fallback', 200],
      [undefined, 'simulator', 404],
    ]);
  });
});

describe('records fetched by id', () => {
  it('carry the id that was asked for', async () => {
    const res = await request(app).get('/api/shell/sh_203a7d1f3001Zz9Yy8Xx7Ww6Vv');
    expect(res.body.data.id).toBe('sh_203a7d1f3001Zz9Yy8Xx7Ww6Vv');
  });

  it('name the staged message', async () => {
    const res = await request(app).post('/api/session/ses_abc/revert/stage').send({ messageID: 'msg_mine' });
    expect(res.body.data.messageID).toBe('msg_mine');
  });
});

describe('HEAD', () => {
  it('answers like GET without a body', async () => {
    const fresh = await createApp({ log: () => {} }); // nothing cached from an earlier GET
    const res = await request(fresh).head('/api/plugin');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(Number(res.headers['content-length'])).toBeGreaterThan(0);
    expect(res.text ?? '').toBe('');
  });
});

describe('odd paths and browsers', () => {
  it('reads a doubled slash as a path, not a host', async () => {
    const res = await request(app).get('//api/plugin');
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('No operation of the interface matches GET //api/plugin');
  });

  it('lets browser code read the simulator headers', async () => {
    const res = await request(app).get('/api/plugin').set('Origin', 'http://localhost:5173');
    expect(res.headers['access-control-expose-headers']).toContain('x-sim-layer');
  });
});

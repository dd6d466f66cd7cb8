import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/hosts/app.js';

const SES = 'ses_dfc5ae513ffePKUBK7HkVp5zCB';
const stage = { messageID: 'msg_203a52106001tZWYWeFGLbY095' };

describe('control API', () => {
  it('advances the virtual clock by ms or by a duration, and refuses nonsense', async () => {
    const app = await createApp({ scenario: 'busy-session', log: () => {} });
    const before = (await request(app).get('/__sim/clock')).body.now as number;
    expect((await request(app).post('/__sim/clock/advance').send({ ms: 1500 })).body.now).toBe(before + 1500);
    expect((await request(app).post('/__sim/clock/advance').send({ by: '1m' })).body.now).toBe(before + 61_500);
    const bad = await request(app).post('/__sim/clock/advance').send({ ms: -5 });
    expect(bad.status).toBe(400);
    expect(bad.body._tag).toBe('SimControlRequestError');
    const garbage = await request(app)
      .post('/__sim/clock/advance')
      .set('content-type', 'application/json')
      .send('{oops');
    expect(garbage.body._tag).toBe('SimControlRequestError');
  });

  it('resets the world and the clock to the scenario start', async () => {
    const app = await createApp({ scenario: 'busy-session', log: () => {} });
    const start = (await request(app).get('/__sim/clock')).body.now as number;
    await request(app).post('/__sim/clock/advance').send({ by: '30s' });
    await request(app).post(`/api/session/${SES}/agent`).send({ agent: 'plan' }).expect(204);
    expect((await request(app).post(`/api/session/${SES}/revert/stage`).send(stage)).status).toBe(200);
    const reset = await request(app).post('/__sim/reset');
    expect(reset.body).toMatchObject({ scenario: 'busy-session', now: start });
    expect((await request(app).post(`/api/session/${SES}/revert/stage`).send(stage)).status).toBe(409);
    expect((await request(app).get('/__sim/state')).body.sessions[0]).toMatchObject({
      id: SES,
      state: 'busy',
      messages: 2,
    });
  });

  it('lists and switches scenarios, naming the ones there are on a miss', async () => {
    const app = await createApp({ scenario: 'busy-session', log: () => {} });
    const list = await request(app).get('/__sim/scenarios');
    expect(list.body.current).toBe('busy-session');
    expect(list.body.available).toEqual(expect.arrayContaining(['busy-session', 'forms-settling', 'message-paging']));
    const switched = await request(app).put('/__sim/scenario').send({ name: 'forms-settling' });
    expect(switched.body.scenario).toBe('forms-settling');
    expect((await request(app).get('/api/form/request')).body.data.length).toBeGreaterThan(0);
    const missing = await request(app).put('/__sim/scenario').send({ name: 'nope' });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({
      _tag: 'SimScenarioNotFoundError',
      available: expect.arrayContaining(['forms-settling']),
    });
  });

  it('lets operations no scenario models fall through to the examples', async () => {
    const app = await createApp({ scenario: 'busy-session', log: () => {} });
    const res = await request(app).get('/api/plugin');
    expect(res.status).toBe(200);
    expect(res.headers['x-sim-layer']).toBe('fallback');
    expect((await request(app).get(`/api/session/${SES}/message`)).headers['x-sim-layer']).toBe('scenario');
  });

  it('refuses to start on a scenario that does not exist', async () => {
    await expect(createApp({ scenario: 'does-not-exist', log: () => {} })).rejects.toThrow(
      /No scenario "does-not-exist"/,
    );
  });
});

describe('scenario layers', () => {
  it('step aside for an explicit Prefer control', async () => {
    const app = await createApp({ scenario: 'default', log: () => {} });
    const forced = await request(app).get(`/api/session/${SES}/message`).set('Prefer', 'code=404');
    expect(forced.status).toBe(404);
    expect(forced.headers['x-sim-layer']).toBe('fallback');
    const normal = await request(app).get(`/api/session/${SES}/message?limit=1`);
    expect(normal.headers['x-sim-layer']).toBe('scenario');
  });

  it('own the declared errors they decide on', async () => {
    const app = await createApp({ scenario: 'busy-session', log: () => {} });
    const busy = await request(app).post(`/api/session/${SES}/revert/stage`).send(stage);
    expect(busy.status).toBe(409);
    expect(busy.headers['x-sim-layer']).toBe('scenario');
    expect(busy.headers['x-sim-operation']).toBe('v2.session.revert.stage');
  });
});

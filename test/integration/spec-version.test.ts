/**
 * Serving another version of the interface (`spec`): the operations whose shapes still fit keep the world's
 * simulation, a moved route answers on its new path, a changed shape falls back, and `/__sim/spec` says which.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/hosts/app.js';
import { startSimulator } from '../../src/hosts/start-simulator.js';
import type { SimulatorHandle } from '../../src/handle/simulator-handle.js';
import { REAL_SPEC, writeNewerInterface } from '../support/newer-interface.js';

const newer = writeNewerInterface();

describe('startSimulator({ spec }) with a newer interface', () => {
  let sim: SimulatorHandle;
  beforeAll(async () => {
    sim = await startSimulator({ spec: newer.file, scenario: 'default' });
  }, 60_000);
  afterAll(() => sim?.close());

  const api = (path: string, init?: RequestInit) => fetch(`${sim.url}${path}`, init);
  const post = (path: string, body: unknown) =>
    api(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('keeps the stateful simulation of the operations that did not change', async () => {
    const created = await post('/api/session', { id: 'ses_newer1', agent: 'plan' });
    expect(created.status).toBe(200);
    expect(created.headers.get('x-sim-layer')).toBe('scenario');
    const got = await api('/api/session/ses_newer1');
    expect(got.headers.get('x-sim-layer')).toBe('scenario');
    expect(((await got.json()) as { data: { id: string; agent: string } }).data).toMatchObject({
      id: 'ses_newer1',
      agent: 'plan',
    });
  });

  it('keeps it for a changed operation that still fits (an optional query the world ignores)', async () => {
    const listed = await api('/api/session?tag=x');
    expect(listed.status).toBe(200);
    expect(listed.headers.get('x-sim-layer')).toBe('scenario');
  });

  it('answers the moved attempt route on its new path, from the world, and not on the old one', async () => {
    const started = await post('/api/integration/openai/connect/oauth', { methodID: 'chatgpt-browser', inputs: {} });
    expect(started.status).toBe(200);
    const { data } = (await started.json()) as { data: { attemptID: string } };
    const polled = await api(`/api/integration/openai/attempt/${data.attemptID}`);
    expect(polled.status).toBe(200);
    expect(polled.headers.get('x-sim-layer')).toBe('scenario');
    expect(polled.headers.get('x-sim-operation')).toBe('v2.integration.attempt.status');
    expect(((await polled.json()) as { data: { status: string } }).data.status).toBe('pending');
    // The DELETE stayed where it was; a GET there is no longer an operation.
    const old = await api(`/api/integration/attempt/${data.attemptID}`);
    expect(old.status).toBe(405);
  });

  it('answers a changed shape that no longer fits, and a new operation, from the fallback', async () => {
    const { data } = (await (await api('/api/pty')).json()) as { data: Array<{ id: string }> };
    const id = data[0]?.id as string;
    const pty = await api(`/api/pty/${id}`);
    expect(pty.status).toBe(200);
    expect(pty.headers.get('x-sim-layer')).toBe('fallback');
    expect(pty.headers.get('x-sim-violations')).toBeNull();
    expect(typeof ((await pty.json()) as { data: { revision: unknown } }).data.revision).toBe('number');

    const share = await api('/api/session/ses_demo/share');
    expect(share.headers.get('x-sim-layer')).toBe('fallback');
    expect(await share.json()).toEqual({ data: { url: 'https://share.example.com/s/ses_demo' } });
    expect((await api('/api/skill')).status).toBe(404);
  });

  it('says what changed and what the world still answers in GET /__sim/spec', async () => {
    const version = (await (await api('/__sim/spec')).json()) as Record<string, unknown>;
    expect(version.source).toBe(newer.file);
    expect(version.summary).toBe('91 → 91 operations: 1 added, 1 removed, 1 moved, 2 changed');
    expect(version.fellBack).toEqual(['v2.pty.get']);
    expect(version.simulated).toContain('v2.integration.attempt.status');
    expect(version.simulated).not.toContain('v2.pty.get');
    expect(version.moved).toEqual([
      expect.objectContaining({ operationId: 'v2.integration.attempt.status', simulated: true }),
    ]);
  });
});

describe('createApp({ spec })', () => {
  it('takes the parsed document as well as its path, and specPath as the older name', async () => {
    const app = await createApp({ spec: newer.document, scenario: 'default' });
    expect(app.sim.specVersion?.source).toBe('object');
    expect(app.sim.specVersion?.fellBack).toEqual(['v2.pty.get']);
    const byPath = await createApp({ specPath: newer.file });
    expect(byPath.sim.specVersion?.source).toBe(newer.file);
    expect(byPath.sim.specVersion?.fellBack).toEqual(['v2.pty.get']);
    const share = await request(app).get('/api/session/ses_demo/share').expect(200);
    expect(share.headers['x-sim-layer']).toBe('fallback');
  });

  it('serves its own spec without a version report', async () => {
    const app = await createApp();
    expect(app.sim.specVersion).toBeUndefined();
    const res = await request(app).get('/__sim/spec').expect(200);
    expect(res.body).toMatchObject({ source: 'built-in', summary: "the simulator's own spec: 91 operations" });
  });

  it("loads the real server's /doc as it is", async () => {
    const app = await createApp({ spec: REAL_SPEC, scenario: 'default' });
    expect(app.sim.spec.operations).toHaveLength(83);
    const version = app.sim.specVersion;
    expect(version?.removed.map((o) => o.operationId)).toContain('v2.session.synthetic');
    // The world keeps what still fits: sessions are created and found again.
    expect(version?.simulated).toEqual(expect.arrayContaining(['v2.session.create', 'v2.session.get']));
    const created = await request(app).post('/api/session').send({}).expect(200);
    expect(created.headers['x-sim-layer']).toBe('scenario');
    const id = (created.body as { data: { id: string } }).data.id;
    await request(app).get(`/api/session/${id}`).expect(200);
    // An operation that declares no 400 still refuses bad input, with the real server's error.
    const refused = await request(app).post('/experimental/console/switch').send({ nope: 1 });
    expect(refused.status).toBe(400);
    expect(refused.body._tag).toBe('InvalidRequestError');
  }, 60_000);

  it('refuses a spec it cannot read with a sentence naming it', async () => {
    await expect(createApp({ spec: '/nonexistent/newer.json' })).rejects.toThrow(
      'spec /nonexistent/newer.json cannot be served: no such file',
    );
    await expect(createApp({ spec: { openapi: '3.1.0' } })).rejects.toThrow(
      /the spec object cannot be served: .*no paths/,
    );
    await expect(createApp({ spec: newer.file, specPath: REAL_SPEC })).rejects.toThrow('give spec or specPath');
  });
});

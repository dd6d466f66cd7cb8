/**
 * The proxy in front of the real server (opencode-ai's `opencode serve`, an older version than the spec):
 * everything passes through, and where the real server departs from the spec the journal says so.
 */
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp, type SimApp } from '../../src/hosts/app.js';
import { LeanPool, PIPELINE_FROM } from '../../src/http/lean-client.js';
import type { Violation } from '../../src/openapi/violation.js';
import { noRealServer, skippedWhen } from '../support/environment.js';
import { sharedRealServer, type RealServer } from '../support/real-server.js';

interface Entry {
  operationId?: string;
  status: number;
  violations?: Violation[];
}

describe('proxy in front of the real server', skippedWhen(noRealServer()), () => {
  let real: RealServer;
  let app: SimApp;

  beforeAll(async () => {
    real = await sharedRealServer();
    app = await createApp({ upstream: real.url, log: () => {} });
  }, 60_000);

  it('passes a session flow through and reports the real server drift', async () => {
    const created = await request(app).post('/api/session').set('content-type', 'application/json').send('{}');
    expect(created.status).toBe(200);
    const sessionID = created.body.data.id as string;
    expect(sessionID).toMatch(/^ses_/);

    await request(app).post(`/api/session/${sessionID}/agent`).send({ agent: 'plan' }).expect(204);
    await request(app)
      .post(`/api/session/${sessionID}/model`)
      .send({ model: { id: 'gpt-4o', providerID: 'openai' } })
      .expect(204);
    const page = await request(app).get(`/api/session/${sessionID}/message?limit=1`);
    expect(page.status).toBe(200);
    expect(page.body.data[0]).toMatchObject({ type: 'model-switched' });
    const compact = await request(app)
      .post(`/api/session/${sessionID}/compact`)
      .set('content-type', 'application/json')
      .send('{}');
    const permission = await request(app)
      .post(`/api/session/${sessionID}/permission`)
      .send({ action: 'bash', resources: ['ls'] });
    const fsList = await request(app).get(`/api/fs/list?location[directory]=${encodeURIComponent(real.directory)}`);
    expect(fsList.status).toBe(200);
    expect(fsList.body.location.directory).toBe(real.directory);

    const entries = (await request(app).get('/__sim/journal')).body.entries as Entry[];
    const byOperation = (id: string) => entries.find((e) => e.operationId === id);
    // Known drift of this older server: compact is stubbed (503).
    expect(compact.status).toBe(503);
    expect(byOperation('v2.session.compact')?.violations).toEqual([
      { side: 'response', in: 'status', message: 'status 503 is not declared by v2.session.compact' },
    ]);
    // The plan agent's rules allow commands: settled at once, as the spec has it.
    expect(permission.body.data.effect).toBe('allow');
    expect(byOperation('v2.session.permission.create')?.violations).toBeUndefined();
    expect(byOperation('v2.session.switchAgent')?.violations).toBeUndefined();
    // Session creation is the real server's own operation: it answers as its document says.
    expect(entries[0]?.operationId).toBe('v2.session.create');
    expect(entries[0]?.violations).toBeUndefined();
  }, 60_000);

  it('answers GETs pipelined under load as it answers them one at a time', async () => {
    const created: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${real.url}/api/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      created.push(((await res.json()) as { data: { id: string } }).data.id);
    }
    const paths = Array.from({ length: PIPELINE_FROM * 2 }, (_, i) =>
      i % 4 === 3 ? '/api/reference' : `/api/session/${created[i % 4]}`,
    );
    const alone = new Map<string, string>();
    for (const path of new Set(paths)) alone.set(path, await (await fetch(`${real.url}${path}`)).text());
    const { hostname, port, host } = new URL(real.url);
    const pool = new LeanPool(hostname, Number(port), host, 10_000);
    try {
      // Asked for in one turn: the lean client puts them on connections a depth at a time.
      const answers = await Promise.all(paths.map((path) => pool.request({ method: 'GET', path, headers: {} })));
      expect(answers.map((answer) => answer.status)).toEqual(paths.map(() => 200));
      expect(answers.map((answer) => ('body' in answer ? answer.body.toString('utf8') : 'a stream'))).toEqual(
        paths.map((path) => alone.get(path)),
      );
    } finally {
      pool.destroy();
    }
  }, 60_000);
});

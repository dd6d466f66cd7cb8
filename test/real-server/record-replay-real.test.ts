/**
 * Records a real flow through the simulator in front of the real server, and replays the same flow offline
 * (a simulator with the recording and no upstream): identical statuses and bodies, and the dummy secret
 * nowhere on disk.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, expect, it } from 'vitest';
import { createApp, type SimApp } from '../../src/hosts/app.js';
import { noRealServer, skippedWhen } from '../support/environment.js';
import { sharedRealServer } from '../support/real-server.js';

const SECRET = 'sk-dummy-real-flow-9817';

interface Step {
  status: number;
  body: unknown;
}

/** The flow of the issue: session, agent and model, message paging, a PTY, integrations, a key, a label, fs, revert. */
async function flow(app: SimApp, directory: string): Promise<Step[]> {
  const steps: Step[] = [];
  const call = async (r: request.Test) => {
    const res = await r;
    steps.push({ status: res.status, body: res.status === 204 ? undefined : res.body });
    return res;
  };
  const created = await call(request(app).post('/api/session').set('content-type', 'application/json').send('{}'));
  const sessionID = created.body.data.id as string;
  await call(request(app).post(`/api/session/${sessionID}/agent`).send({ agent: 'plan' }));
  await call(
    request(app)
      .post(`/api/session/${sessionID}/model`)
      .send({ model: { id: 'gpt-4o', providerID: 'openai' } }),
  );
  const first = await call(request(app).get(`/api/session/${sessionID}/message?limit=1`));
  await call(request(app).get(`/api/session/${sessionID}/message?cursor=${first.body.cursor.next as string}&limit=1`));
  const pty = await call(
    request(app)
      .post('/api/pty')
      .send({ command: '/bin/sh', args: ['-c', 'echo hi'], title: 'probe' }),
  );
  await call(request(app).get(`/api/pty/${pty.body.data.id as string}`));
  await call(request(app).get('/api/integration'));
  await call(request(app).post('/api/integration/anthropic/connect/key').send({ key: SECRET, label: 'Mine' }));
  const anthropic = await call(request(app).get('/api/integration/anthropic'));
  const credential = (anthropic.body.data.connections as Array<{ id: string }>)[0]?.id ?? 'cred_none';
  await call(request(app).patch(`/api/credential/${credential}`).send({ label: 'Renamed' }));
  await call(request(app).get(`/api/fs/list?location[directory]=${encodeURIComponent(directory)}`));
  await call(request(app).post(`/api/session/${sessionID}/revert/stage`).send({ messageID: 'msg_doesnotexist' }));
  return steps;
}

const dir = mkdtempSync(join(tmpdir(), 'sim-real-rec-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it(
  'records a real flow and replays it offline, identically, without the secret',
  { ...skippedWhen(noRealServer()), timeout: 90_000 },
  async () => {
    const recording = join(dir, 'real-flow.yaml');
    const real = await sharedRealServer();
    const recorder = await createApp({ upstream: real.url, record: recording, log: () => {} });
    const recorded = await flow(recorder, real.directory);
    expect(recorded.map((s) => s.status)).toEqual([200, 204, 204, 200, 200, 200, 200, 200, 204, 200, 204, 200, 404]);

    const replayer = await createApp({ replay: recording, log: () => {} });
    const replayed = await flow(replayer, real.directory);
    expect(replayed).toEqual(recorded);

    for (const name of readdirSync(dir)) expect(readFileSync(join(dir, name), 'utf8')).not.toContain(SECRET);
  },
);

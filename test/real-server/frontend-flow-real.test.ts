/**
 * A frontend's first minutes, through the official client, against the real server: recorded through the
 * simulator in front of it, replayed offline identically, and compared with the mock's answers to the same
 * calls (the same statuses, each answer valid against the real server's own document).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOpencodeClient } from '@opencode-ai/sdk/v2/client';
import { afterAll, expect, it } from 'vitest';
import { startSimulator } from '../../src/index.js';
import { noRealServer, skippedWhen } from '../support/environment.js';
import { sharedRealServer } from '../support/real-server.js';
import { realDocProblems } from '../support/real-doc.js';

interface Step {
  operation: string;
  status: number;
  body: unknown;
}

/** What an app calls as it starts and a person opens a session: everything the real server answers without a model. */
async function flow(baseUrl: string, directory: string): Promise<Step[]> {
  const client = createOpencodeClient({ baseUrl, directory });
  const steps: Step[] = [];
  const call = async <T extends { response: Response; data?: unknown; error?: unknown }>(
    operation: string,
    made: Promise<T>,
  ): Promise<T> => {
    const result = await made;
    steps.push({ operation, status: result.response.status, body: result.data ?? result.error });
    return result;
  };
  await call('v2.health.get', client.v2.health.get());
  await call('v2.location.get', client.v2.location.get());
  await call('v2.agent.list', client.v2.agent.list());
  await call('v2.command.list', client.v2.command.list());
  await call('v2.skill.list', client.v2.skill.list());
  await call('v2.reference.list', client.v2.reference.list());
  await call('v2.permission.request.list', client.v2.permission.request.list());
  await call('v2.question.request.list', client.v2.question.request.list());
  await call('v2.permission.saved.list', client.v2.permission.saved.list());
  await call('v2.pty.list', client.v2.pty.list());
  await call('v2.session.active', client.v2.session.active());
  const created = await call('v2.session.create', client.v2.session.create({ location: { directory } }));
  const sessionID = (created.data as { data: { id: string } }).data.id;
  await call('v2.session.get', client.v2.session.get({ sessionID }));
  await call('v2.session.list', client.v2.session.list({ limit: 5 }));
  await call('v2.session.switchAgent', client.v2.session.switchAgent({ sessionID, agent: 'plan' }));
  await call('v2.session.context', client.v2.session.context({ sessionID }));
  await call('v2.session.history', client.v2.session.history({ sessionID }));
  await call('v2.session.messages', client.v2.session.messages({ sessionID }));
  // The agent's rules decide: plan (the session's agent now) allows commands and denies edits; build asks
  // before reading a .env file, which leaves the one request listed next.
  const ask = client.v2.session.permission.create.bind(client.v2.session.permission);
  await call('v2.session.permission.create', ask({ sessionID, action: 'bash', resources: ['ls'] }));
  await call('v2.session.permission.create', ask({ sessionID, action: 'edit', resources: ['a.txt'] }));
  await call('v2.session.permission.create', ask({ sessionID, action: 'read', resources: ['.env'], agent: 'build' }));
  await call('v2.session.permission.list', client.v2.session.permission.list({ sessionID }));
  await call('v2.session.question.list', client.v2.session.question.list({ sessionID }));
  await call('v2.session.interrupt', client.v2.session.interrupt({ sessionID }));
  await call('experimental.session.list', client.experimental.session.list({ limit: 5 }));
  return steps;
}

/** Volatile values (ids, times, the throwaway directory) do not make two answers different. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.length ? [shape(value[0])] : [];
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, shape((value as Record<string, unknown>)[k])]),
    );
  return typeof value;
}

const dir = mkdtempSync(join(tmpdir(), 'sim-real-flow-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it(
  'records a frontend flow from the real server, replays it offline, and the mock answers it alike',
  { ...skippedWhen(noRealServer()), timeout: 120_000 },
  async () => {
    const recording = join(dir, 'frontend-flow.yaml');
    const real = await sharedRealServer();
    let recorded: Step[];
    const recorder = await startSimulator({ upstream: real.url, record: recording, log: () => {} });
    try {
      recorded = await flow(recorder.url, real.directory);
    } finally {
      await recorder.close();
    }
    for (const step of recorded) expect(step.status, step.operation).toBeLessThan(300);

    const replayer = await startSimulator({ replay: recording, log: () => {} });
    try {
      expect(await flow(replayer.url, real.directory)).toEqual(recorded);
    } finally {
      await replayer.close();
    }

    const mock = await startSimulator({ scenario: 'default', log: () => {} });
    try {
      const mocked = await flow(mock.url, real.directory);
      expect(mocked.map((s) => [s.operation, s.status])).toEqual(recorded.map((s) => [s.operation, s.status]));
      for (const step of mocked)
        if (step.status !== 204)
          expect(realDocProblems(step.operation, step.status, step.body), step.operation).toEqual([]);
      // The real server's lists are empty where the mock's world is not; where both have a record, the mock's
      // has every field the real one has.
      const same = ['v2.health.get', 'v2.session.create', 'v2.session.get', 'v2.session.active'];
      // The same rules decide the same effects, and leave the same number of requests waiting.
      const effects = (steps: Step[]) =>
        steps
          .filter((s) => s.operation === 'v2.session.permission.create')
          .map((s) => (s.body as { data: { effect: string } }).data.effect);
      expect(effects(mocked)).toEqual(['allow', 'deny', 'ask']);
      expect(effects(mocked)).toEqual(effects(recorded));
      const waiting = (steps: Step[]) =>
        (steps.find((s) => s.operation === 'v2.session.permission.list')!.body as { data: unknown[] }).data.length;
      expect(waiting(mocked)).toBe(waiting(recorded));
      for (const id of same)
        expect(shape(mocked.find((s) => s.operation === id)!.body), id).toMatchObject(
          shape(recorded.find((s) => s.operation === id)!.body) as object,
        );
    } finally {
      await mock.close();
    }
  },
);

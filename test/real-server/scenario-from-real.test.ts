/**
 * The round trip against the real server: a flow recorded in front of it (with its event stream) becomes a
 * scenario that validates, and that, served by the simulator, answers the recorded in-spec requests with the
 * recorded statuses and `_tag`s, and with the recorded bodies where they came from initial state;
 * scenario-diff finds no departure, and finds the ones a deliberate edit makes.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, expect, it } from 'vitest';
import { createApp } from '../../src/hosts/app.js';
import { scenarioDiff } from '../../src/derive/scenario-diff.js';
import { scenarioFrom } from '../../src/derive/scenario-from.js';
import { readTimeline } from '../../src/derive/timeline.js';
import { parseRecording } from '../../src/recordings/format.js';
import { loadScenarioFile } from '../../src/scenarios/load-scenario.js';
import { loadSpec } from '../../src/openapi/openapi.js';
import { noRealServer, skippedWhen } from '../support/environment.js';
import { sharedRealServer } from '../support/real-server.js';
import { holdEventStream, streamRecorded } from '../support/recorded-stream.js';

const SECRET = 'sk-dummy-scenario-from-7731';
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Records the flow through a recorder listening on a real port, its event stream open the whole time. */
async function recordRealFlow(recording: string): Promise<{ directory: string }> {
  const real = await sharedRealServer();
  const recorder = await createApp({ upstream: real.url, record: recording, log: () => {} });
  const server = createServer(recorder).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const subscription = await holdEventStream(base);
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return text.startsWith('{')
      ? (JSON.parse(text) as { data: Record<string, unknown>; cursor?: { next: string } })
      : undefined;
  };
  const session = (await call('POST', '/api/session', {}))?.data.id as string;
  await call('GET', '/api/integration');
  // The list, not the plugin.added events: the shared server announced those when it started, perhaps to
  // another file.
  await call('GET', '/api/plugin');
  await call('POST', `/api/session/${session}/agent`, { agent: 'plan' });
  await call('POST', `/api/session/${session}/model`, { model: { id: 'gpt-4o', providerID: 'openai' } });
  const page = await call('GET', `/api/session/${session}/message?limit=1`);
  await call('GET', `/api/session/${session}/message?cursor=${page?.cursor?.next as string}&limit=1`);
  await call('POST', '/api/pty', { command: '/bin/sh', args: ['-c', 'echo hi'], title: 'probe' });
  await call('POST', '/api/integration/anthropic/connect/key', { key: SECRET, label: 'Mine' });
  await call('GET', '/api/integration');
  await call('GET', '/api/reference');
  await call('GET', `/api/fs/list?location[directory]=${encodeURIComponent(real.directory)}`);
  await call('POST', `/api/session/${session}/compact`, {});
  await call('POST', `/api/session/${session}/revert/stage`, { messageID: 'msg_doesnotexist' });
  await call('POST', `/api/session/${session}/question/que_nope/reply`, { answers: [['a']] });
  await call('GET', '/api/session/ses_doesnotexist/message');
  await pause(1500); // the PTY's command exits meanwhile
  await subscription.stop();
  await streamRecorded(recording);
  await new Promise((resolve) => server.close(resolve));
  return { directory: real.directory };
}

const dir = mkdtempSync(join(tmpdir(), 'sim-from-real-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it(
  'a real recording becomes a scenario that answers as the real server did',
  { ...skippedWhen(noRealServer()), timeout: 120_000 },
  async () => {
    const recordingFile = join(dir, 'real-flow.yaml');
    const { directory } = await recordRealFlow(recordingFile);
    const spec = await loadSpec();
    const recording = parseRecording(readFileSync(recordingFile, 'utf8'));
    const timeline = readTimeline(recording, spec);
    const generated = await scenarioFrom(recording, spec, { name: 'real-flow-scenario', source: 'real-flow.yaml' });
    const scenarioFile = join(dir, 'real-flow-scenario.yaml');
    writeFileSync(scenarioFile, generated.yaml);

    // The world: the session the POST created, the project, the real integrations and plugins. The one rule
    // answers that POST as recorded: no kind answers session creation yet.
    const scenario = loadScenarioFile(scenarioFile, spec);
    expect(scenario.rules.map((r) => r.operation)).toEqual(['v2.session.create']);
    expect(scenario.sessions).toHaveLength(1);
    expect(scenario.sessions[0]?.appears).toBeGreaterThan(scenario.start);
    expect(generated.scenario.project).toMatchObject({ directory });
    expect(scenario.integrations.length).toBeGreaterThan(50);
    expect(scenario.plugins).toContain('agent');
    expect(generated.yaml).toMatch(
      /# {3}#\d+ POST \/api\/session\/ses_\w+\/compact 503: status 503 is not declared by v2.session.compact/,
    );
    expect(generated.yaml).toMatch(/# from #1 POST \/api\/session, #\d+ POST \/api\/session\/ses_\w+\/agent/);
    for (const file of [recordingFile, scenarioFile]) expect(readFileSync(file, 'utf8')).not.toContain(SECRET);

    // Every in-spec interaction the spec can hold a scenario to answers as recorded.
    const report = await scenarioDiff(scenarioFile, timeline);
    expect(report.verdicts.filter((v) => v.kind === 'departs')).toEqual([]);
    expect(report.verdicts.filter((v) => v.kind === 'same').map((v) => v.operationId)).toEqual(
      expect.arrayContaining([
        'v2.integration.list',
        'v2.session.switchAgent',
        'v2.session.messages',
        'v2.pty.create',
        'v2.integration.connect.key',
        'v2.session.revert.stage',
        'v2.session.question.reply',
      ]),
    );
    expect(report.events[0]?.missing).not.toHaveProperty('session.created');
    expect(report.events[0]?.missing).not.toHaveProperty('session.next.agent.switched');
    expect(report.events[0]?.missing).not.toHaveProperty('pty.exited');

    // Served by mock: bodies read from initial state are the recorded ones, byte for byte.
    const app = await createApp({ scenario: scenarioFile, log: () => {} });
    const first = (operationId: string) => timeline.steps.find((s) => s.operation?.operationId === operationId)!;
    for (const operationId of ['v2.integration.list', 'v2.reference.list', 'v2.fs.list']) {
      const step = first(operationId);
      const res = await request(app).get(step.interaction.request.path).query(step.query);
      expect(res.status).toBe(step.status);
      expect(res.body).toEqual(step.answer);
    }
    const unknown = timeline.steps.find((s) => s.path === '/api/session/ses_doesnotexist/message')!;
    expect((await request(app).get(unknown.path)).body).toEqual(unknown.answer);

    // A deliberate edit is caught, at the interaction and the field.
    const integrations = scenario.integrations;
    const renamed = readFileSync(scenarioFile, 'utf8')
      .replace(`name: ${String(integrations[0]?.name)}\n`, 'name: Renamed\n')
      .replace('name: real-flow-scenario', 'name: real-flow-edited');
    const editedFile = join(dir, 'real-flow-edited.yaml');
    writeFileSync(editedFile, renamed);
    const edited = await scenarioDiff(editedFile, timeline);
    expect(edited.verdicts.filter((v) => v.kind === 'departs')).toEqual([
      expect.objectContaining({
        operationId: 'v2.integration.list',
        departure: { field: 'data[0].name', recorded: integrations[0]?.name, scenario: 'Renamed' },
      }),
      expect.objectContaining({
        operationId: 'v2.integration.list',
        departure: { field: 'data[0].name', recorded: integrations[0]?.name, scenario: 'Renamed' },
      }),
    ]);
  },
);

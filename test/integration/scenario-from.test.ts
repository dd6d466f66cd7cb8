/**
 * Recordings become scenarios, for what the real server you can run here lacks: a recording made in front of a
 * nock-scripted upstream (an attempt polled to completion, a shell that times out, a busy session, a form that
 * appears and is answered, an agent turn on the event stream, a 503) → scenario-from → validate → the scenario
 * served → scenario-diff: zero departures, and the expected ones after deliberate edits.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import nock from 'nock';
import request from 'supertest';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/hosts/app.js';
import { scenarioDiff } from '../../src/derive/scenario-diff.js';
import { scenarioFrom, type Generated } from '../../src/derive/scenario-from.js';
import { readTimeline, type Timeline } from '../../src/derive/timeline.js';
import { parseRecording } from '../../src/recordings/format.js';
import { useNock } from '../support/nock.js';
import { holdEventStream, streamRecorded } from '../support/recorded-stream.js';
import { loadScenarioFile } from '../../src/scenarios/load-scenario.js';
import { loadSpec, type SpecIndex } from '../../src/openapi/openapi.js';

const UPSTREAM = 'http://upstream.invalid';
const DIR = '/srv/demo';
const PROJECT = { id: 'a'.repeat(40), directory: DIR };
const LOCATION = { directory: DIR, project: PROJECT };
const SESSION = 'ses_dfc5ae513ffePKUBK7HkVp5zCB';
const ATTEMPT = 'con_203a64b00001CrBDw85dYNzrGb';
const SHELL = 'sh_203a7e5c7001OpQrStUvWxYzAb';
const FORM = 'frm_203a7c0e2001Ab3dEf4GhIjKlM';
const SECRET = 'sk-never-on-disk-5521';
const MODEL = parse(readFileSync(new URL('../../scenarios/default.yaml', import.meta.url), 'utf8')).model as Record<
  string,
  unknown
>;
const OPENAI = {
  id: 'openai',
  name: 'OpenAI',
  methods: [{ type: 'oauth', id: 'chatgpt-browser', label: 'ChatGPT (browser)' }, { type: 'key' }],
  connections: [] as unknown[],
};
const MESSAGES = [
  {
    id: 'msg_203a52106001tZWYWeFGLbY095',
    time: { created: 1795350000000 },
    type: 'user',
    text: 'Add an avatar to the profile page',
  },
  { id: 'msg_203a52106002tZWYWeFGLbY096', time: { created: 1795350005000 }, type: 'agent-switched', agent: 'build' },
];
const cursor = (id: string, direction: string) =>
  Buffer.from(JSON.stringify({ id, order: 'desc', direction })).toString('base64url');

let spec: SpecIndex;
let dir: string;
let recordingFile: string;
let timeline: Timeline;
let generated: Generated;
let scenarioFile: string;

/** The upstream's answers, scripted in the order the flow asks; times are taken as the flow runs. */
function scriptUpstream(events: PassThrough): void {
  const attempt = (status: string) => ({
    location: LOCATION,
    data: { status, time: { created: created.attempt, expires: created.attempt + 600_000 } },
  });
  const created = { attempt: Date.now() - 20_000, shell: Date.now() - 60_000 };
  const shell = (extra: Record<string, unknown>) => ({
    location: LOCATION,
    data: {
      id: SHELL,
      status: 'running',
      command: 'npm run e2e',
      cwd: DIR,
      shell: '/bin/bash',
      file: `/tmp/shell/${SHELL}.log`,
      metadata: {},
      time: { started: created.shell },
      pid: 4242,
      ...extra,
    },
  });
  const form = {
    id: FORM,
    sessionID: SESSION,
    title: 'Pick a framework',
    mode: 'form',
    fields: [{ key: 'framework', type: 'string', required: true }],
  };
  nock(UPSTREAM)
    .get('/api/event')
    .reply(200, () => events, { 'content-type': 'text/event-stream' })
    .get('/api/integration')
    .reply(200, { location: LOCATION, data: [OPENAI] })
    .post('/api/integration/openai/connect/oauth')
    .reply(200, {
      location: LOCATION,
      data: {
        attemptID: ATTEMPT,
        url: 'https://auth.example/x',
        instructions: 'Open the page',
        mode: 'auto',
        time: { created: created.attempt, expires: created.attempt + 600_000 },
      },
    })
    .get(`/api/integration/attempt/${ATTEMPT}`)
    .reply(200, () => attempt('pending'))
    .get(`/api/integration/attempt/${ATTEMPT}`)
    .reply(200, () => attempt('pending'))
    .get(`/api/integration/attempt/${ATTEMPT}`)
    .reply(200, () => attempt('complete'))
    .get('/api/integration')
    .reply(200, {
      location: LOCATION,
      data: [
        {
          ...OPENAI,
          connections: [{ type: 'credential', id: 'cred_203a64c10001ChatGptProAbCd', label: 'ChatGPT Pro' }],
        },
      ],
    })
    .post('/api/integration/openai/connect/key')
    .reply(204)
    .get(`/api/shell/${SHELL}`)
    .reply(200, () => shell({}))
    .get(`/api/shell/${SHELL}`)
    .reply(200, () => shell({ status: 'timeout', time: { started: created.shell, completed: Date.now() - 3 } }))
    .get(`/api/session/${SESSION}/message`)
    .query({ limit: '2' })
    .reply(200, {
      data: [...MESSAGES].reverse(),
      cursor: { previous: cursor(MESSAGES[1]!.id, 'previous'), next: cursor(MESSAGES[0]!.id, 'next') },
    })
    .post(`/api/session/${SESSION}/revert/stage`)
    .times(2)
    .reply(409, { _tag: 'SessionBusyError', sessionID: SESSION, message: `Session is busy: ${SESSION}` })
    .post(`/api/session/${SESSION}/revert/stage`)
    .reply(200, {
      data: { messageID: MESSAGES[0]!.id, snapshot: 'fd63f238e060de2f14f5d2720fb966e1832c7e18', files: [] },
    })
    .get('/api/form/request')
    .reply(200, { location: LOCATION, data: [] })
    .get('/api/form/request')
    .reply(200, { location: LOCATION, data: [form] })
    .post(`/api/session/${SESSION}/form/${FORM}/reply`)
    .reply(204)
    .post(`/api/session/${SESSION}/form/${FORM}/reply`)
    .reply(409, { _tag: 'FormAlreadySettledError', id: FORM, message: `Form already settled: ${FORM}` })
    .get('/api/form/request')
    .reply(200, { location: LOCATION, data: [] })
    .get('/api/model/default')
    .reply(503, {
      _tag: 'ServiceUnavailableError',
      message: 'Model catalog initialization timed out',
      service: 'model.catalog',
    })
    .get('/api/model/default')
    .reply(200, { location: LOCATION, data: MODEL })
    .post(`/api/session/${SESSION}/synthetic`)
    .reply(204)
    .get('/api/health')
    .reply(200, { healthy: true, version: '1.18.33' });
}

/** One frame as the real server writes it. */
function frame(type: string, data: Record<string, unknown>): string {
  return `data: ${JSON.stringify({ id: `evt_${type}`, type, location: { directory: DIR }, data })}\n\n`;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

useNock();

beforeAll(async () => {
  nock.disableNetConnect();
  nock.enableNetConnect('127.0.0.1');
  spec = await loadSpec();
  dir = mkdtempSync(join(tmpdir(), 'sim-from-'));
  recordingFile = join(dir, 'flow.yaml');
  const events = new PassThrough();
  scriptUpstream(events);
  const recorder = await createApp({ upstream: UPSTREAM, record: recordingFile, log: () => {} });
  // The event stream needs a real socket: its answer is recorded when the client lets go of it.
  const server: Server = createServer(recorder).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // nock answers a stream once it has a first chunk, as a real server sends server.connected at once.
  events.write(frame('server.connected', {}));
  const subscription = await holdEventStream(base);
  const app = request(recorder);
  await app.get('/api/integration').expect(200);
  await app.post('/api/integration/openai/connect/oauth').send({ methodID: 'chatgpt-browser', inputs: {} }).expect(200);
  for (let i = 0; i < 3; i++) await app.get(`/api/integration/attempt/${ATTEMPT}`).expect(200);
  await app.get('/api/integration').expect(200);
  await app.post('/api/integration/openai/connect/key').send({ key: SECRET, label: 'Mine' }).expect(204);
  await app.get(`/api/shell/${SHELL}`).expect(200);
  await pause(20);
  await app.get(`/api/shell/${SHELL}`).expect(200);
  await app.get(`/api/session/${SESSION}/message?limit=2`).expect(200);
  for (const status of [409, 409, 200])
    await app.post(`/api/session/${SESSION}/revert/stage`).send({ messageID: MESSAGES[0]!.id }).expect(status);
  await app.get('/api/form/request').expect(200);
  await pause(20);
  await app.get('/api/form/request').expect(200);
  await app
    .post(`/api/session/${SESSION}/form/${FORM}/reply`)
    .send({ answer: { framework: 'react' } })
    .expect(204);
  await app
    .post(`/api/session/${SESSION}/form/${FORM}/reply`)
    .send({ answer: { framework: 'react' } })
    .expect(409);
  await app.get('/api/form/request').expect(200);
  await app.get('/api/model/default').expect(503);
  await app.get('/api/model/default').expect(200);
  await app.post(`/api/session/${SESSION}/synthetic`).send({ text: 'Run the tests' }).expect(204);
  // The agent's turn, as the real server streams it.
  const step = { sessionID: SESSION, assistantMessageID: 'msg_203a52106009tZWYWeFGLbY099', timestamp: Date.now() };
  events.write(frame('session.next.reasoning.ended', { ...step, reasoningID: 'rsn_1', text: 'Run the suite first.' }));
  events.write(
    frame('session.next.tool.called', {
      ...step,
      callID: 'call_1',
      tool: 'bash',
      input: { command: 'npm test' },
      provider: { executed: false },
    }),
  );
  await pause(30);
  events.write(
    frame('session.next.tool.success', {
      ...step,
      callID: 'call_1',
      structured: {},
      content: [{ type: 'text', text: '42 passed' }],
      provider: { executed: false },
    }),
  );
  events.write(frame('session.next.text.ended', { ...step, textID: 'txt_1', text: 'All 42 tests pass.' }));
  await app.get('/api/health').expect(200);
  await pause(30);
  await subscription.stop();
  await pause(50);
  events.end();
  await new Promise((resolve) => server.close(resolve));
  await streamRecorded(recordingFile);

  timeline = readTimeline(parseRecording(readFileSync(recordingFile, 'utf8')), spec);
  generated = await scenarioFrom(parseRecording(readFileSync(recordingFile, 'utf8')), spec, {
    name: 'flow-scenario',
    source: 'flow.yaml',
  });
  scenarioFile = join(dir, 'flow-scenario.yaml');
  writeFileSync(scenarioFile, generated.yaml);
}, 60_000);

afterAll(() => {
  nock.cleanAll();
  nock.enableNetConnect();
});

const section = (name: string) => generated.scenario[name] as Array<Record<string, unknown>>;

describe('scenario-from on a nock-made recording', () => {
  it('reads lifecycles from what changed, not rules', () => {
    expect(section('attempts')).toEqual([
      expect.objectContaining({
        id: ATTEMPT,
        integrationID: 'openai',
        settles: {
          as: 'complete',
          poll: 3,
          credential: { id: 'cred_203a64c10001ChatGptProAbCd', label: 'ChatGPT Pro' },
        },
      }),
    ]);
    const shell = section('shells')[0]!;
    expect(shell).toMatchObject({ id: SHELL, command: 'npm run e2e', file: `/tmp/shell/${SHELL}.log`, pid: 4242 });
    expect(shell.starts).toMatch(/^\d{4}-\d\d-\d\dT/); // it was already running when the recording began
    expect(shell.timeout).toBeGreaterThan(59_000);
    const session = section('sessions').find((s) => s.id === SESSION)!;
    expect(session.messages).toEqual(MESSAGES);
    expect(session.busy).toEqual([{ from: '0s', until: expect.stringMatching(/ms$|s$/) }]);
    expect(session.revert).toEqual({ snapshot: 'fd63f238e060de2f14f5d2720fb966e1832c7e18', files: [] });
    const form = section('forms')[0]!;
    expect(form).toMatchObject({ id: FORM, sessionID: SESSION, title: 'Pick a framework' });
    expect(form.appears).toMatch(/s$/);
    expect(form.cancelled).toBeUndefined(); // gone from the listing because it was answered
    expect(generated.scenario.project).toEqual(PROJECT);
    expect(generated.scenario.model).toEqual(MODEL);
    expect(section('turns')).toEqual([
      {
        session: SESSION,
        steps: [
          { reasoning: 'Run the suite first.' },
          { tool: 'bash', input: { command: 'npm test' }, result: '42 passed', takes: expect.any(Number) },
          { text: 'All 42 tests pass.' },
        ],
      },
    ]);
    // Beyond the world: the 503, and the OAuth connection no kind answers yet; each a rule answering once.
    expect(section('rules')).toEqual([
      {
        when: {
          operation: 'v2.integration.connect.oauth',
          params: { integrationID: 'openai' },
          after: expect.any(String),
        },
        then: { status: 200, body: expect.objectContaining({ data: expect.objectContaining({ attemptID: ATTEMPT }) }) },
        times: 1,
      },
      {
        when: { operation: 'v2.model.default', after: expect.any(String) },
        then: { error: expect.objectContaining({ _tag: 'ServiceUnavailableError' }) },
        times: 1,
      },
    ]);
  });

  it('says where each part came from, lists what is outside the spec, and keeps secrets out', () => {
    expect(generated.yaml).toMatch(
      /# from #\d+ POST \/api\/integration\/openai\/connect\/oauth, #\d+ GET \/api\/integration\/attempt\/con_203a64b00001CrBDw85dYNzrGb/,
    );
    expect(generated.yaml).toContain('# polled: pending, pending, complete');
    // The recorded health answer carries a field the real server's document does not declare.
    expect(generated.yaml).toMatch(/# {3}#\d+ GET \/api\/health 200: version is not an allowed field/);
    expect(generated.yaml).toContain('Against its recording (session-agent-sim scenario-diff): ');
    for (const file of [recordingFile, scenarioFile]) expect(readFileSync(file, 'utf8')).not.toContain(SECRET);
  });

  it('validates, and answers the recorded requests as recorded: scenario-diff finds no departure', async () => {
    expect(() => loadScenarioFile(scenarioFile, spec)).not.toThrow();
    const report = await scenarioDiff(scenarioFile, timeline);
    expect(report.verdicts.filter((v) => v.kind === 'departs')).toEqual([]);
    expect(report.verdicts.filter((v) => v.kind === 'same').length).toBeGreaterThanOrEqual(20);
    // A scripted turn plays at the scenario's pace, not the recorded one: by the stream's recorded end only
    // turn events may still be to come.
    expect(Object.keys(report.events[0]?.missing ?? {}).filter((type) => !type.startsWith('session.next.'))).toEqual(
      [],
    );
  });

  it('served with mock, gives the recorded bodies for what came from initial state', async () => {
    const app = await createApp({ scenario: scenarioFile, log: () => {} });
    const recorded = (path: string) => timeline.steps.find((s) => s.path === path && s.answer !== undefined)!.answer;
    expect((await request(app).get('/api/integration')).body).toEqual(recorded('/api/integration'));
    expect((await request(app).get(`/api/session/${SESSION}/message?limit=2`)).body).toEqual(
      recorded(`/api/session/${SESSION}/message`),
    );
  });

  it('catches deliberate edits: each departure names the interaction and the field', async () => {
    const edited = readFileSync(scenarioFile, 'utf8')
      .replace('poll: 3', 'poll: 2')
      .replace('title: Pick a framework', 'title: Pick a library');
    const editedFile = join(dir, 'flow-edited.yaml');
    writeFileSync(editedFile, edited.replace('name: flow-scenario', 'name: flow-edited'));
    const report = await scenarioDiff(editedFile, timeline);
    const departures = report.verdicts.filter((v) => v.kind === 'departs');
    expect(departures).toEqual([
      expect.objectContaining({
        request: expect.stringContaining(`GET /api/integration/attempt/${ATTEMPT}`),
        departure: { field: 'data.status', recorded: 'pending', scenario: 'complete' },
      }),
      expect.objectContaining({
        request: expect.stringContaining('GET /api/form/request'),
        departure: { field: 'data[0].title', recorded: 'Pick a framework', scenario: 'Pick a library' },
      }),
    ]);
  });

  it('works from the command line: scenario-from writes the file, scenario-diff exits 0, then 1 after an edit', () => {
    const bin = new URL('../../bin/session-agent-sim.js', import.meta.url).pathname;
    const out = join(dir, 'from-cli.yaml');
    const from = spawnSync(process.execPath, [bin, 'scenario-from', recordingFile, '--out', out], { encoding: 'utf8' });
    expect(from.status, from.stderr).toBe(0);
    expect(from.stderr).toMatch(
      /from-cli from \d+ interactions; against the recording \d+ compared, 0 depart; 2 rules, 1 interaction outside the spec/,
    );
    const same = spawnSync(process.execPath, [bin, 'scenario-diff', out, recordingFile], { encoding: 'utf8' });
    expect(same.status, same.stdout + same.stderr).toBe(0);
    expect(same.stdout).toMatch(/0 depart/);
    writeFileSync(
      out,
      readFileSync(out, 'utf8')
        .replace(/busy: \[[^\]]*\]\n/, '')
        .replace(/\n {4}busy:\n(?: {6}- .*\n)+/, '\n'),
    );
    const departs = spawnSync(process.execPath, [bin, 'scenario-diff', out, recordingFile], { encoding: 'utf8' });
    expect(departs.status).toBe(1);
    expect(departs.stdout).toMatch(
      /DEPARTS {2}#\d+ POST \/api\/session\/ses_dfc5ae513ffePKUBK7HkVp5zCB\/revert\/stage {2}status: recorded 409, scenario 200/,
    );
  }, 60_000);
});

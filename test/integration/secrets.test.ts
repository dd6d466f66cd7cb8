/**
 * No secret (keys, Basic credentials, tokens, cookies, configured headers and body fields) in logs, the journal,
 * the partition log, the inspector or recordings: secrets are planted in traffic driven through every mode
 * (mock, mock with auth, record against a loopback upstream, replay from that recording, and one CLI run in
 * record mode with auth), the recording is exported as HAR and turned into a scenario, coverage is written, and
 * then every byte of all of it (files, control and inspector answers, the live stream, log lines, the CLI's
 * stdout and stderr) is searched for each secret, URL-encoded and base64-encoded too.
 *
 * The last describe holds one focused test per leak found, each with its minimal reproduction.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageVersion } from '../../src/cli/version.js';
import type { SimOptions } from '../../src/config/config.js';
import type { Scenario } from '../../src/format/scenario-types.js';
import { scenarioFrom } from '../../src/derive/scenario-from.js';
import { startServer, type RunningSimulator } from '../../src/hosts/server.js';
import { parseRecording } from '../../src/recordings/format.js';
import { toHar } from '../../src/recordings/har.js';
import { loadSpec } from '../../src/openapi/openapi.js';
import {
  openEventStream,
  readEventStream,
  send,
  startUpstream,
  type Outgoing,
  type Reply,
  type Upstream,
} from '../support/loopback.js';
import { filesUnder, findLeaks, needles, type Secret, type Source } from '../support/secret-scan.js';

const BIN = fileURLToPath(new URL('../../bin/session-agent-sim.js', import.meta.url));
const SES = 'ses_dfc5ae513ffePKUBK7HkVp5zCB';
const FRM = 'frm_203a7c0e2001Ab3dEf4GhIjKlM';
const USER = 'alice';

// Unique per run, so nothing else can hold them; `+`, `/` and `=` make the URL-encoded forms differ.
const run = Math.random().toString(36).slice(2, 10);
const S = {
  bearer: `s1-bearer-${run}-Tk9x`,
  password: `s2-pass+word/${run}=Pw`,
  cookie: `s3-cookie-${run}-Ck7q`,
  authToken: `s4-tok+en/${run}==Qx`,
  key: `sk-s5-provider-key-${run}`,
  header: `s6-session-header-${run}`,
  pointer: `s7-metadata-token-${run}`,
  formPointer: `s8-form-answer-token-${run}`,
  upstreamCookie: `s9-upstream-cookie-${run}`,
};
const SECRETS: Secret[] = [
  { name: 's1 authorization: Bearer', value: S.bearer },
  { name: 's2 Basic password', value: S.password },
  { name: 's3 cookie', value: S.cookie },
  { name: 's4 auth_token query', value: S.authToken },
  { name: 's5 connect/key key', value: S.key },
  { name: 's6 header redacted by option', value: S.header },
  { name: 's7 body field redacted by pointer /metadata/apiToken', value: S.pointer },
  { name: 's8 body field redacted by pointer /answer/apiToken', value: S.formPointer },
  { name: 's9 upstream set-cookie', value: S.upstreamCookie },
];
const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;
const authToken = (user: string, password: string) =>
  encodeURIComponent(Buffer.from(`${user}:${password}`, 'utf8').toString('base64'));

const REDACT = { headers: ['X-Session-Token'], pointers: ['/metadata/apiToken', '/answer/apiToken'] };

/** A session, a form with a token field, an integration connected by key. */
const SCENARIO = {
  name: 'secrets',
  sessions: [{ id: SES, messages: [{ type: 'user', text: 'Connect the provider' }] }],
  forms: [
    {
      id: FRM,
      sessionID: SES,
      title: 'Provider token',
      mode: 'form',
      fields: [{ key: 'apiToken', type: 'string', title: 'Token', required: true }],
    },
  ],
  integrations: [{ id: 'openai', name: 'OpenAI', methods: [{ type: 'key' }], connections: [] }],
} satisfies Scenario;

/** The planted traffic: every secret in the place a client would put it. `prefix`: a partition's path prefix. */
function traffic(prefix = ''): Outgoing[] {
  const secretHeaders = {
    authorization: `Bearer ${S.bearer}`,
    cookie: `session=${S.cookie}; theme=dark`,
    'x-session-token': S.header,
  };
  return [
    {
      method: 'POST',
      path: `${prefix}/api/integration/openai/connect/key?auth_token=${encodeURIComponent(S.authToken)}`,
      headers: secretHeaders,
      body: { key: S.key, label: 'Work' },
    },
    {
      method: 'POST',
      path: `${prefix}/api/session/${SES}/permission`,
      headers: { authorization: basic(USER, S.password), cookie: `session=${S.cookie}` },
      body: { action: 'bash', resources: ['npm test'], metadata: { apiToken: S.pointer, note: 'kept' } },
    },
    {
      method: 'POST',
      path: `${prefix}/api/session/${SES}/form/${FRM}/reply`,
      headers: { authorization: `Bearer ${S.bearer}`, 'x-session-token': S.header },
      body: { answer: { apiToken: S.formPointer } },
    },
    {
      method: 'GET',
      path: `${prefix}/api/plugin?auth_token=${encodeURIComponent(S.authToken)}`,
      headers: { cookie: `session=${S.cookie}`, 'x-session-token': S.header },
    },
    // Bad input: refused in mock mode (the refusal is journaled and kept for the inspector all the same).
    {
      method: 'POST',
      path: `${prefix}/api/integration/openai/connect/key`,
      headers: secretHeaders,
      body: { key: S.key, label: 42 },
    },
    // Outside the spec: the simulator's 404 in mock mode, passed through in record mode.
    { method: 'GET', path: `${prefix}/api/nope?auth_token=${encodeURIComponent(S.authToken)}`, headers: secretHeaders },
  ];
}

/** Everything gathered: what the simulator wrote, answered on its control plane and inspector, and logged. */
const sources: Source[] = [];
const statuses: Record<string, number[]> = {};
const upstreamSaw: string[] = [];
/** Exchanges the inspector could not show: an empty search of those would prove nothing. */
const unavailable: string[] = [];
let dir: string;
let upstream: Upstream;

/** A request sent: its status, and where to find the exchange the simulator kept of it. */
interface Sent {
  partition?: string;
  id: string;
  status: number;
}

const sentOf = (reply: Reply, partition?: string): Sent => ({
  partition,
  id: reply.headers['x-sim-request-id'] as string,
  status: reply.status,
});

/** Reads an event stream for 300 ms (an open stream is journaled once it ends). */
async function readStream(sim: RunningSimulator, path: string, headers: Record<string, string> = {}): Promise<Sent> {
  const stream = openEventStream(sim.url, path, headers);
  await stream.ready;
  await new Promise((resolve) => setTimeout(resolve, 300));
  await stream.stop();
  const { status, headers: answered } = await stream.head;
  return { id: answered['x-sim-request-id'] as string, status };
}

/** Sends each request in order, then reads the API's event stream, noting the ids to fetch the exchanges of. */
async function drive(sim: RunningSimulator, requests: Outgoing[], agent: Agent): Promise<Sent[]> {
  const sent: Sent[] = [];
  for (const outgoing of requests)
    sent.push(sentOf(await send(sim.url, outgoing, { agent }), /^\/__partition\/([^/]+)/.exec(outgoing.path)?.[1]));
  // With credentials in the query as a browser EventSource sends them (and in headers as other clients do).
  sent.push(
    await readStream(sim, `/api/event?auth_token=${encodeURIComponent(S.authToken)}`, {
      authorization: `Bearer ${S.bearer}`,
      cookie: `session=${S.cookie}`,
    }),
  );
  return sent;
}

/** The control plane and inspector answers of each partition named, and the exchange behind every request id. */
async function collect(sim: RunningSimulator, label: string, sent: Sent[], agent: Agent): Promise<void> {
  const partitions = new Set(['', ...sent.map((s) => s.partition ?? '')]);
  for (const partition of partitions) {
    const headers: Record<string, string> = partition ? { 'x-sim-partition': partition } : {};
    // Everything the inspector's page reads, and the rest of the control plane's GETs.
    for (const path of [
      '/__sim/journal',
      '/__sim/events',
      '/__sim/state',
      '/__sim/coverage',
      '/__sim/coverage?all',
      '/__sim/rules',
      '/__sim/partitions',
      '/__sim/scenarios',
      '/__sim/clock',
    ]) {
      sources.push({
        where: `${label} GET ${path}${partition ? ` (partition ${partition})` : ''}`,
        text: (await send(sim.url, { path, headers }, { agent })).text,
      });
    }
  }
  for (const { partition, id } of sent) {
    const headers: Record<string, string> = partition ? { 'x-sim-partition': partition } : {};
    const where = `${label} GET /__sim/exchanges/${id}${partition ? ` (partition ${partition})` : ''}`;
    const detail = await send(sim.url, { path: `/__sim/exchanges/${id}`, headers }, { agent });
    if (detail.status !== 200) unavailable.push(`${where}: ${detail.status} ${detail.text}`);
    sources.push({ where, text: detail.text });
  }
}

/**
 * One in-process simulator: its live stream read while the traffic runs, then everything collected; its log
 * lines kept; closed (writing coverage where asked).
 */
async function exercise(
  label: string,
  options: SimOptions,
  requests: Outgoing[],
  extra?: (sim: RunningSimulator, agent: Agent) => Promise<Sent[]>,
): Promise<void> {
  const lines: string[] = [];
  const sim = await startServer({ port: 0, ...options, log: (line) => lines.push(line) });
  const agent = new Agent({ keepAlive: true });
  try {
    // The inspector's live stream of the default partition and of the one the prefix names, for all the traffic.
    const live = openEventStream(sim.url, '/__sim/live');
    const partitionLive = openEventStream(sim.url, '/__partition/sec-p/__sim/live');
    await Promise.all([live.ready, partitionLive.ready]);
    const sent = await drive(sim, requests, agent);
    sent.push(...((await extra?.(sim, agent)) ?? []));
    statuses[label] = sent.map((s) => s.status);
    await new Promise((resolve) => setTimeout(resolve, 300));
    sources.push(
      { where: `${label} GET /__sim/live`, text: await live.stop() },
      { where: `${label} GET /__partition/sec-p/__sim/live`, text: await partitionLive.stop() },
    );
    // A fresh subscriber's hello frame carries the journal and the recent log.
    sources.push({
      where: `${label} GET /__sim/live (hello after the traffic)`,
      text: await readEventStream(sim.url, '/__sim/live', 200),
    });
    await collect(sim, label, sent, agent);
  } finally {
    agent.destroy();
    await sim.close();
  }
  sources.push({ where: `${label} log lines`, text: lines.join('\n') });
}

/** `session-agent-sim record` with auth on, driven over its port, stopped with SIGTERM: its stdout and stderr. */
async function cliRecord(
  recording: string,
  coverage: string,
): Promise<{ stdout: string; stderr: string; statuses: number[] }> {
  const args = [
    BIN,
    'record',
    '--upstream',
    upstream.url,
    '--recording',
    recording,
    '--port',
    '0',
    '--auth',
    `${USER}:${S.password}`,
  ];
  args.push(
    '--redact-header',
    'x-session-token',
    '--redact-pointer',
    '/metadata/apiToken',
    '--redact-pointer',
    '/answer/apiToken',
    '--coverage',
    coverage,
  );
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no start-up line within 15 s: ${stdout} ${stderr}`)), 15_000);
      const look = () => {
        const match = /(http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      };
      child.stdout.on('data', look);
      void exited.then(() => reject(new Error(`exited before listening: ${stdout} ${stderr}`)));
    });
    const credentials = {
      authorization: basic(USER, S.password),
      cookie: `session=${S.cookie}`,
      'x-session-token': S.header,
    };
    const requests: Outgoing[] = [
      {
        method: 'POST',
        path: `/api/integration/openai/connect/key?auth_token=${encodeURIComponent(S.authToken)}`,
        headers: credentials,
        body: { key: S.key, label: 'Work' },
      },
      {
        method: 'POST',
        path: `/api/session/${SES}/permission`,
        headers: credentials,
        body: { action: 'bash', resources: ['ls'], metadata: { apiToken: S.pointer } },
      },
      { method: 'GET', path: `/api/plugin?auth_token=${authToken(USER, S.password)}` },
      // Refused: a wrong password that holds the right one, the Bearer token, the password as auth_token.
      { method: 'GET', path: '/api/plugin', headers: { authorization: basic(USER, `${S.password}-wrong`) } },
      { method: 'GET', path: '/api/plugin', headers: { authorization: `Bearer ${S.bearer}` } },
      { method: 'GET', path: `/api/plugin?auth_token=${encodeURIComponent(S.password)}` },
    ];
    const replies: number[] = [];
    for (const outgoing of requests) replies.push((await send(url, outgoing)).status);
    child.kill('SIGTERM');
    await exited;
    return { stdout, stderr, statuses: replies };
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sim-secrets-'));
  upstream = await startUpstream((req, body, res) => {
    upstreamSaw.push(`${req.method} ${req.url} ${JSON.stringify(req.headers)} ${body}`);
    const echo = { 'set-cookie': `upstream_session=${S.upstreamCookie}; HttpOnly`, 'x-session-token': S.header };
    const path = (req.url ?? '').split('?')[0] ?? '';
    if (path === '/api/event') {
      res.writeHead(200, { 'content-type': 'text/event-stream', ...echo });
      res.write('data: {"type":"server.connected","data":{}}\n\n');
      return; // held open until the client goes
    }
    if (path.endsWith('/connect/key')) {
      // A body holding the key: the real server answers 204, a broken one might echo what it was sent.
      res.writeHead(200, { 'content-type': 'application/json', ...echo });
      res.end(JSON.stringify({ key: S.key, label: 'Work' }));
    } else if (path.endsWith('/permission')) {
      res.writeHead(200, { 'content-type': 'application/json', ...echo });
      res.end(JSON.stringify({ data: { id: 'per_203a58f870013Wia5K5pJuTBrA', effect: 'allow' } }));
    } else if (path.endsWith('/reply')) {
      res.writeHead(204, echo);
      res.end();
    } else if (path === '/api/plugin') {
      res.writeHead(200, { 'content-type': 'application/json', ...echo });
      res.end(
        JSON.stringify({
          location: { directory: '/srv', project: { id: 'global', directory: '/srv' } },
          data: [{ id: 'agent' }],
        }),
      );
    } else {
      res.writeHead(404, { 'content-type': 'application/json', ...echo });
      res.end('{"error":"not found"}');
    }
  });

  // The CLI starts in a process of its own (a few seconds): it runs while the in-process simulators do.
  const cliRun = cliRecord(join(dir, 'cli', 'cli.yaml'), join(dir, 'cli', 'coverage.json'));
  cliRun.catch(() => undefined);
  const recording = join(dir, 'recordings', 'flow.yaml');
  await exercise('mock', { scenario: SCENARIO, redact: REDACT, coverage: join(dir, 'coverage-mock.json') }, [
    ...traffic(),
    ...traffic('/__partition/sec-p'),
  ]);
  await exercise(
    'mock --auth',
    { scenario: SCENARIO, auth: `${USER}:${S.password}`, redact: REDACT },
    [
      { path: '/api/plugin', headers: { authorization: basic(USER, S.password) } },
      { path: `/api/reference?auth_token=${authToken(USER, S.password)}` },
      { path: '/api/plugin', headers: { authorization: basic(USER, `${S.password}-wrong`) } },
      { path: '/api/plugin', headers: { authorization: `Bearer ${S.bearer}` } },
      { path: `/api/plugin?auth_token=${encodeURIComponent(S.password)}` },
      {
        method: 'POST',
        path: `/api/integration/openai/connect/key?auth_token=${encodeURIComponent(S.authToken)}`,
        headers: { authorization: basic(USER, S.password) },
        body: { key: S.key },
      },
    ],
    async (sim) => [
      // The event stream with the right credentials in the query, as a browser EventSource sends them.
      await readStream(sim, `/api/event?auth_token=${authToken(USER, S.password)}`),
    ],
  );
  await exercise(
    'record',
    { upstream: upstream.url, record: recording, redact: REDACT, coverage: join(dir, 'coverage-record.json') },
    traffic(),
  );
  // Replay answers the same requests from the recording (matched after redaction, as recorded), and misses one.
  await exercise('replay', { replay: recording, redact: REDACT }, traffic(), async (sim, agent) => [
    sentOf(
      await send(
        sim.url,
        {
          method: 'POST',
          path: `/api/integration/openai/connect/key?auth_token=${encodeURIComponent(S.authToken)}`,
          headers: { authorization: `Bearer ${S.bearer}` },
          body: { key: S.key, label: 'Other' },
        },
        { agent },
      ),
    ),
  ]);

  // What is made from the recording: a HAR and a scenario, written beside it.
  const parsed = parseRecording(readFileSync(recording, 'utf8'));
  writeFileSync(join(dir, 'flow.har'), JSON.stringify(toHar(parsed, packageVersion()), null, 2));
  const generated = await scenarioFrom(parsed, await loadSpec(), { name: 'flow', source: recording });
  writeFileSync(join(dir, 'flow.scenario.yaml'), generated.yaml);

  const cli = await cliRun;
  statuses.cli = cli.statuses;
  sources.push({ where: 'CLI record stdout', text: cli.stdout }, { where: 'CLI record stderr', text: cli.stderr });
  sources.push(...filesUnder(dir));
}, 30_000);

afterAll(async () => {
  await upstream?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('planted secrets', () => {
  it('were really sent: each mode answered as it should, and the upstream got every secret', () => {
    // Requests in order, then the event stream (refused in mock --auth: s4 is no credential), then the extras.
    expect(statuses.mock).toEqual([204, 200, 204, 200, 400, 404, 204, 200, 204, 200, 400, 404, 200]);
    expect(statuses['mock --auth']).toEqual([200, 200, 401, 401, 401, 204, 401, 200]);
    expect(statuses.record).toEqual([200, 200, 204, 200, 200, 404, 200]);
    expect(statuses.replay).toEqual([200, 200, 204, 200, 200, 404, 200, 404]);
    expect(statuses.cli).toEqual([200, 200, 200, 401, 401, 401]);
    const seen = upstreamSaw.join('\n');
    for (const value of [
      S.bearer,
      S.cookie,
      encodeURIComponent(S.authToken),
      S.key,
      S.header,
      S.pointer,
      S.formPointer,
      Buffer.from(`${USER}:${S.password}`).toString('base64'),
    ])
      expect(seen).toContain(value);
  });

  it('the search finds a secret in each form it looks for (so an empty result means something)', () => {
    const secret: Secret = { name: 'canary', value: `canary+/=${run}-0123456789` };
    const hidden: Source[] = [
      { where: 'raw', text: `x ${secret.value} y` },
      { where: 'url', text: `?auth_token=${encodeURIComponent(secret.value)}&x=1` },
      ...[0, 1, 2].map((k) => ({
        where: `base64 at offset ${k}`,
        text: Buffer.from(`${'u:'.slice(0, k)}${secret.value}!tail`).toString('base64'),
      })),
      { where: 'basic', text: basic('opencode', secret.value) },
      { where: 'base64url', text: Buffer.from(`{"k":"${secret.value}"}`).toString('base64url') },
      { where: 'base64, URL-encoded', text: `?auth_token=${authToken('bob', secret.value)}` },
    ];
    for (const source of hidden) expect(findLeaks([secret], [source]), source.where).not.toEqual([]);
    expect(findLeaks([secret], [{ where: 'clean', text: 'nothing [REDACTED] here' }])).toEqual([]);
    // As written, URL-encoded, and base64 at each of its three alignments (URL-safe and URL-encoded when they differ).
    expect(needles(secret).map((n) => n.form)).toEqual(
      expect.arrayContaining([
        'as written',
        'URL-encoded',
        'base64 (offset 0)',
        'base64 (offset 1)',
        'base64 (offset 2)',
      ]),
    );
  });

  it('every source was gathered and holds something', () => {
    const where = sources.map((s) => s.where);
    for (const expected of [
      'file recordings/flow.yaml',
      'file flow.har',
      'file flow.scenario.yaml',
      'file coverage-mock.json',
      'file coverage-record.json',
      'file cli/cli.yaml',
      'file cli/coverage.json',
      'CLI record stdout',
      'mock GET /__sim/live',
      'record GET /__sim/journal',
      'replay log lines',
    ]) {
      expect(where).toContain(expected);
    }
    expect(sources.filter((s) => s.where.includes('/__sim/exchanges/')).length).toBe(13 + 8 + 7 + 8);
    expect(unavailable).toEqual([]);
    // The redactions themselves show where the secrets were.
    expect(sources.find((s) => s.where === 'file recordings/flow.yaml')?.text).toContain('[REDACTED]');
    expect(sources.find((s) => s.where === 'file cli/cli.yaml')?.text).toContain('[REDACTED]');
    expect(sources.find((s) => s.where === 'CLI record stderr')?.text).toMatch(/coverage: /);
    expect(sources.find((s) => s.where === 'mock GET /__sim/live')?.text).toContain('"type":"hello"');
  });

  it('appear in no file written: recordings, HAR, scenario, coverage', () => {
    const leaks = findLeaks(
      SECRETS,
      sources.filter((s) => s.where.startsWith('file ')),
    );
    expect(leaks, `\n${leaks.join('\n')}`).toEqual([]);
  });

  it('appear in no log line and no CLI output', () => {
    const leaks = findLeaks(
      SECRETS,
      sources.filter((s) => s.where.endsWith('log lines') || s.where.startsWith('CLI ')),
    );
    expect(leaks, `\n${leaks.join('\n')}`).toEqual([]);
  });

  it('appear nowhere in the journal, the exchanges kept for the inspector, state, coverage or rules', () => {
    const leaks = findLeaks(
      SECRETS,
      sources.filter((s) =>
        / GET \/__sim\/(journal|exchanges|state|coverage|rules|partitions|scenarios|clock)/.test(s.where),
      ),
    );
    expect(leaks, `\n${leaks.join('\n')}`).toEqual([]);
  });

  it('appear nowhere in the partition log: GET /__sim/events and the live stream', () => {
    const leaks = findLeaks(
      SECRETS,
      sources.filter((s) => / GET (\/__partition\/[^/]+)?\/__sim\/(events|live)/.test(s.where)),
    );
    expect(leaks, `\n${leaks.join('\n')}`).toEqual([]);
  });

  it('appear nowhere at all (every source together)', () => {
    const leaks = findLeaks(SECRETS, sources);
    expect(leaks, `\n${leaks.join('\n')}`).toEqual([]);
  });
});

/**
 * One test per leak the sweep (or a look at the code) found, each its minimal reproduction. They fail until
 * the simulator is fixed; each says what it expects instead.
 */
describe('leaks found by this file, each fixed and held here', () => {
  const secret = (what: string) => `${what}-${Math.random().toString(36).slice(2, 10)}`;

  it('a body field redacted by pointer is masked where the world and its events carry it (GET /__sim/events, /__sim/state, /__sim/live)', async () => {
    const token = secret('ptr-secret');
    const sim = await startServer({
      port: 0,
      scenario: SCENARIO,
      redact: { pointers: ['/metadata/apiToken', '/answer/apiToken'] },
      log: () => {},
    });
    try {
      const permission = await send(sim.url, {
        method: 'POST',
        path: `/api/session/${SES}/permission`,
        body: { action: 'bash', resources: ['ls'], metadata: { apiToken: token } },
      });
      expect(permission.status).toBe(200);
      expect(
        (
          await send(sim.url, {
            method: 'POST',
            path: `/api/session/${SES}/form/${FRM}/reply`,
            body: { answer: { apiToken: token } },
          })
        ).status,
      ).toBe(204);
      // The exchange kept for the inspector is masked, as documented...
      expect(
        (await send(sim.url, { path: `/__sim/exchanges/${permission.headers['x-sim-request-id'] as string}` })).text,
      ).not.toContain(token);
      // ...but the domain events (permission.v2.asked metadata, form.replied answer) and the form state are not.
      const places = {
        events: (await send(sim.url, { path: '/__sim/events' })).text,
        state: (await send(sim.url, { path: '/__sim/state' })).text,
        live: await readEventStream(sim.url, '/__sim/live', 200),
      };
      expect(
        Object.entries(places)
          .filter(([, text]) => text.includes(token))
          .map(([where]) => where),
      ).toEqual([]);
    } finally {
      await sim.close();
    }
  });

  it('an upstream failure names the path, never its query, so auth_token is not kept in the exchange the inspector shows', async () => {
    const token = secret('tok-secret');
    const hangUp = await startUpstream((_req, _body, res) => res.destroy());
    const sim = await startServer({ port: 0, upstream: hangUp.url, log: () => {} });
    try {
      const reply = await send(sim.url, { path: `/api/plugin?auth_token=${token}` });
      expect(reply.status).toBe(502);
      // The client sent it, so its own answer may say it; what the simulator keeps must not.
      const detail = await send(sim.url, { path: `/__sim/exchanges/${reply.headers['x-sim-request-id'] as string}` });
      expect(detail.json).toMatchObject({
        request: { query: { auth_token: '[REDACTED]' } },
        response: { status: 502 },
      });
      expect(detail.text).not.toContain(token);
    } finally {
      await sim.close();
      await hangUp.close();
    }
  });

  it('credentials in the upstream URL reach neither the recording, its HAR nor an error message', async () => {
    const password = secret('upstream-pass');
    const ok = await startUpstream((_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ location: { directory: '/srv', project: { id: 'global', directory: '/srv' } }, data: [] }),
      );
    });
    const recording = join(mkdtempSync(join(tmpdir(), 'sim-userinfo-')), 'flow.yaml');
    // Node sends the URL's user and password to the upstream as Basic credentials: a way to reach a protected server.
    const upstreamUrl = ok.url.replace('http://', `http://alice:${password}@`);
    const sim = await startServer({ port: 0, upstream: upstreamUrl, record: recording, log: () => {} });
    try {
      expect((await send(sim.url, { path: '/api/plugin' })).status).toBe(200);
      await ok.close();
      const failed = await send(sim.url, { path: '/api/reference' });
      expect(failed.status).toBe(502);
      const places = {
        recording: readFileSync(recording, 'utf8'),
        har: JSON.stringify(toHar(parseRecording(readFileSync(recording, 'utf8')), packageVersion())),
        'exchange detail of the 502': (
          await send(sim.url, { path: `/__sim/exchanges/${failed.headers['x-sim-request-id'] as string}` })
        ).text,
      };
      expect(
        Object.entries(places)
          .filter(([, text]) => text.includes(password))
          .map(([where]) => where),
      ).toEqual([]);
    } finally {
      await sim.close();
    }
  });

  it('a connect/key body that is not JSON has its key masked in the recording and the inspector', async () => {
    const key = secret('sk-form-key');
    const upstreamOk = await startUpstream((_req, _body, res) => {
      res.writeHead(204);
      res.end();
    });
    const recording = join(mkdtempSync(join(tmpdir(), 'sim-nonjson-')), 'flow.yaml');
    const sim = await startServer({ port: 0, upstream: upstreamOk.url, record: recording, log: () => {} });
    try {
      // `curl -d key=…` sends a form-encoded body; a truncated JSON body does not parse either.
      const form = await send(sim.url, {
        method: 'POST',
        path: '/api/integration/openai/connect/key',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `key=${key}&label=Work`,
      });
      const torn = await send(sim.url, {
        method: 'POST',
        path: '/api/integration/openai/connect/key',
        body: `{"key":"${key}","label":`,
      });
      const places = {
        recording: readFileSync(recording, 'utf8'),
        'exchange detail (form-encoded)': (
          await send(sim.url, { path: `/__sim/exchanges/${form.headers['x-sim-request-id'] as string}` })
        ).text,
        'exchange detail (torn JSON)': (
          await send(sim.url, { path: `/__sim/exchanges/${torn.headers['x-sim-request-id'] as string}` })
        ).text,
      };
      expect(
        Object.entries(places)
          .filter(([, text]) => text.includes(key))
          .map(([where]) => where),
      ).toEqual([]);
    } finally {
      await sim.close();
      await upstreamOk.close();
    }
  });
});

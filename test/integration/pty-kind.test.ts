/**
 * PTYs answered by the world, through the official client and over real sockets: list, get, update, remove
 * and connect tokens with the events they publish, and the terminal's WebSocket (replay, cursor frame, what
 * typing prints, `exit` ending the PTY), in its own partition only, behind credentials or a ticket when auth
 * is on. Answers are checked against the spec and, where the real server's document declares them, against it.
 */
import { createOpencodeClient } from '@opencode-ai/sdk/v2/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/index.js';
import type { SimulatorHandle } from '../../src/handle/simulator-handle.js';
import { subscribeWithClient } from '../support/client-subscription.js';
import { noGlobalWebSocket, skippedWhen } from '../support/environment.js';
import { realDocProblemsAt as realProblems } from '../support/real-doc.js';
import { eventProblems, specProblems } from '../support/spec-validator.js';
import { isRefusal, openSocket, until, type Refusal, type TestSocket } from '../support/ws-client.js';

const SHELL = 'pty_203a5ad4f0011C7Y4ftsC84JMU';
const DEV = 'pty_203a6bebb0015e6euclduDVDR0';
const SCENARIO = {
  name: 'pty-kind',
  ptys: [
    {
      id: SHELL,
      title: 'zsh',
      command: '/bin/zsh',
      prompt: '\\W % ',
      banner: 'Last login: Mon Nov 23 09:12:44 on ttys001\n',
      transcript: [{ input: 'git status', output: 'On branch main\nnothing to commit, working tree clean' }],
      replies: [{ input: 'npm test', output: 'Tests: 12 passed, 12 total' }],
    },
    { id: DEV, title: 'dev server', command: 'npm', args: ['run', 'dev'], transcript: '  VITE ready in 312 ms\n' },
  ],
};
const REPLAY =
  'Last login: Mon Nov 23 09:12:44 on ttys001\r\nacme-web % git status\r\nOn branch main\r\nnothing to commit, working tree clean\r\nacme-web % ';

type Frame = { type: string; data: Record<string, unknown>; location?: { directory: string } };

let sim: SimulatorHandle;
// Starting loads the spec and Prism: on a busy machine that takes longer than a hook's default 10 s.
beforeAll(async () => {
  sim = await startSimulator({ scenario: SCENARIO });
}, 60_000);
afterAll(() => sim.close());

const wsUrl = (path: string) => `${sim.url.replace(/^http/, 'ws')}${path}`;

async function socket(path: string, headers: Record<string, string> = {}): Promise<TestSocket> {
  const opened = await openSocket(wsUrl(path), headers);
  if (isRefusal(opened)) throw new Error(`refused ${opened.status}: ${opened.body}`);
  return opened;
}

async function refusal(path: string, headers: Record<string, string> = {}): Promise<Refusal> {
  const opened = await openSocket(wsUrl(path), headers);
  if (!isRefusal(opened)) throw new Error('opened where a refusal was expected');
  return opened;
}

/** Subscribes with the official client; frames are kept as they come. */
/** Subscribes with the official client; frames are kept as they come. */
const ptyFrames = (frames: Frame[]) => frames.filter((f) => f.type.startsWith('pty.'));

describe('the PTY operations through the official client', () => {
  it('lists, gets, updates and removes, each change on the event stream as the real server publishes it', async () => {
    await sim.reset();
    const client = createOpencodeClient({ baseUrl: sim.url });
    const events = await subscribeWithClient<Frame>(sim.url);
    const listed = await client.v2.pty.list();
    expect(listed.response.headers.get('x-sim-layer')).toBe('scenario');
    expect(listed.data?.data.map((p) => [p.id, p.title, p.status])).toEqual([
      [SHELL, 'zsh', 'running'],
      [DEV, 'dev server', 'running'],
    ]);
    expect(specProblems('v2.pty.list', 200, listed.data, 'application/json')).toEqual([]);
    expect(realProblems('/api/pty', 'get', 200, listed.data)).toEqual([]);

    const created = await client.v2.pty.create({ title: 'scratch' });
    const id = created.data!.data.id;
    const updated = await client.v2.pty.update({ ptyID: id, title: 'renamed', size: { rows: 30, cols: 100 } });
    expect(updated.data?.data).toMatchObject({ id, title: 'renamed', command: '/bin/bash', status: 'running' });
    expect(realProblems('/api/pty/{ptyID}', 'put', 200, updated.data)).toEqual([]);
    const got = await client.v2.pty.get({ ptyID: id });
    expect(got.data?.data).toEqual(updated.data?.data);
    expect(realProblems('/api/pty/{ptyID}', 'get', 200, got.data)).toEqual([]);

    const removed = await client.v2.pty.remove({ ptyID: id });
    expect(removed.response.status).toBe(204);
    const gone = await client.v2.pty.get({ ptyID: id });
    expect(gone.response.status).toBe(404);
    expect(gone.error).toEqual({ _tag: 'PtyNotFoundError', ptyID: id, message: `PTY session not found: ${id}` });
    expect(realProblems('/api/pty/{ptyID}', 'get', 404, gone.error)).toEqual([]);
    expect((await client.v2.pty.list()).data?.data.map((p) => p.id)).toEqual([SHELL, DEV]);

    await until(() => ptyFrames(events.frames).length === 3, 'pty.created, pty.updated, pty.deleted');
    events.stop();
    const published = ptyFrames(events.frames);
    expect(published.map((f) => f.type)).toEqual(['pty.created', 'pty.updated', 'pty.deleted']);
    expect(published[1]?.data).toEqual({ info: updated.data?.data });
    expect(published[2]?.data).toEqual({ id });
    for (const frame of published) expect(eventProblems(frame)).toEqual([]);
  });

  it('issues a single-use ticket only to a request with x-opencode-ticket: 1', async () => {
    const client = createOpencodeClient({ baseUrl: sim.url });
    const refused = await client.v2.pty.connectToken({ ptyID: SHELL });
    expect(refused.response.status).toBe(403);
    expect(refused.error).toEqual({ _tag: 'ForbiddenError', message: 'Invalid PTY connect token request' });
    const headers = { 'x-opencode-ticket': '1' };
    const unknown = await client.v2.pty.connectToken({ ptyID: 'pty_nope' }, { headers });
    expect(unknown.response.status).toBe(404);
    const token = await client.v2.pty.connectToken({ ptyID: SHELL }, { headers });
    expect(token.data?.data).toEqual({ ticket: expect.stringMatching(/^[0-9a-f-]{36}$/), expires_in: 60 });
    expect(specProblems('v2.pty.connectToken', 200, token.data, 'application/json')).toEqual([]);
    expect(realProblems('/api/pty/{ptyID}/connect-token', 'post', 200, token.data)).toEqual([]);
  });
});

describe("the PTY's WebSocket", () => {
  it('replays, sends the cursor frame, echoes what is typed, and exit ends the PTY with pty.exited', async () => {
    await sim.reset();
    const events = await subscribeWithClient<Frame>(sim.url);
    const ws = await socket(`/api/pty/${SHELL}/connect`);
    await until(() => ws.frames.length >= 2, 'replay and cursor frames');
    expect(ws.frames).toEqual([
      { type: 'text', data: REPLAY },
      { type: 'binary', data: Buffer.from(`\x00{"cursor":${REPLAY.length}}`, 'latin1') },
    ]);
    ws.send('echo hi\r');
    await until(() => ws.text().endsWith('hi\r\nacme-web % '), 'echo hi answered');
    ws.send('npm test\r');
    await until(() => ws.text().endsWith('12 total\r\nacme-web % '), 'the scripted reply');
    ws.send('exit\r');
    expect(await ws.closed).toEqual({ code: 1000, reason: '' });
    expect(ws.text().slice(REPLAY.length)).toBe(
      'echo hi\r\nhi\r\nacme-web % npm test\r\nTests: 12 passed, 12 total\r\nacme-web % exit\r\nlogout\r\n',
    );
    await until(() => ptyFrames(events.frames).length === 1, 'pty.exited');
    events.stop();
    expect(ptyFrames(events.frames)).toEqual([
      expect.objectContaining({ type: 'pty.exited', data: { id: SHELL, exitCode: 0 } }),
    ]);
    expect(eventProblems(ptyFrames(events.frames)[0])).toEqual([]);
    const client = createOpencodeClient({ baseUrl: sim.url });
    expect((await client.v2.pty.get({ ptyID: SHELL })).data?.data).toMatchObject({ status: 'exited', exitCode: 0 });
    // An exited PTY still upgrades, and closes at once, as the real server does.
    const late = await socket(`/api/pty/${SHELL}/connect`);
    expect(await late.closed).toEqual({ code: 4404, reason: 'session exited' });
    expect(late.frames).toEqual([]);
  });

  it('replays from the cursor; every connection reads what any of them types', async () => {
    await sim.reset();
    const first = await socket(`/api/pty/${SHELL}/connect?cursor=10`);
    const second = await socket(`/api/pty/${SHELL}/connect?cursor=-1`);
    await until(() => first.frames.length === 2 && second.frames.length === 1, 'replays');
    expect(first.frames[0]?.data).toBe(REPLAY.slice(10));
    expect(second.frames).toEqual([{ type: 'binary', data: Buffer.from(`\x00{"cursor":${REPLAY.length}}`) }]);
    second.send('pwd\r');
    await until(() => first.text().endsWith('acme-web % pwd\r\n/home/dev/acme-web\r\nacme-web % '), 'pwd on the first');
    expect(second.text()).toBe('pwd\r\n/home/dev/acme-web\r\nacme-web % ');
    first.close();
    second.close();
    await Promise.all([first.closed, second.closed]);
    // The world counts connections while they are open (the partition's bound), and lets them go as they close.
    let connections: number | undefined = 2;
    for (let i = 0; i < 200 && connections !== undefined; i++) {
      const state = (await sim.state()) as { ptys: Array<{ id: string; connections?: number }> };
      connections = state.ptys.find((p) => p.id === SHELL)?.connections;
      if (connections !== undefined) await new Promise((r) => setTimeout(r, 10));
    }
    expect(connections).toBeUndefined();
  });

  it('journals the upgrade as one exchange answered 101, and refuses what is no handshake', async () => {
    await sim.reset();
    const ws = await socket(`/api/pty/${DEV}/connect`);
    await until(() => ws.frames.length === 2, 'replay');
    expect(ws.headers['x-sim-operation']).toBe('v2.pty.connect');
    const opened = ws.headers['x-sim-request-id'] as string;
    // A program that is no shell only has what is typed echoed.
    ws.send('rs\r');
    await until(() => ws.frames.length === 3, 'the echo');
    expect(ws.frames[2]).toEqual({ type: 'text', data: 'rs\r\n' });
    ws.close();
    await ws.closed;
    // What happened on the socket is in the log, each event caused by the connection the exchange opened.
    type Logged = { kind: string; type?: string; action?: string; cause?: unknown };
    let logged: Logged[] = [];
    for (let i = 0; i < 200 && !logged.some((e) => e.type === 'pty.disconnected'); i++) {
      const all = (await sim.events()) as Logged[];
      // The log runs on across resets: only what followed the last one counts here.
      logged = all.slice(all.map((e) => e.action).lastIndexOf('reset') + 1);
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(logged.filter((e) => e.type?.startsWith('pty.')).map((e) => [e.type, e.cause])).toEqual([
      ['pty.connected', { socket: opened }],
      ['pty.output', { socket: opened }],
      ['pty.disconnected', { socket: opened }],
    ]);
    const plain = await fetch(`${sim.url}/api/pty/${DEV}/connect`);
    expect(plain.status).toBe(400);
    const body = await plain.json();
    expect(body).toMatchObject({ _tag: 'InvalidRequestError' });
    expect(specProblems('v2.pty.connect', 400, body, 'application/json')).toEqual([]);
    const unknown = await refusal('/api/pty/pty_nope/connect');
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body)).toEqual({
      _tag: 'PtyNotFoundError',
      ptyID: 'pty_nope',
      message: 'PTY session not found: pty_nope',
    });
    const journal = await sim.journal();
    const connects = journal.filter((e) => e.operationId === 'v2.pty.connect').map((e) => [e.id, e.status]);
    expect(connects).toEqual([
      [opened, 101],
      [expect.any(String), 400],
      [expect.any(String), 404],
    ]);
  });

  it("reaches a partition's PTY only through that partition", async () => {
    const partition = sim.partition('pty-a');
    await partition.reset();
    const headers = { 'x-sim-partition': 'pty-a' };
    const created = await createOpencodeClient({ baseUrl: sim.url, headers }).v2.pty.create({ title: 'mine' });
    const id = created.data!.data.id;
    const ws = await socket(`/__partition/pty-a/api/pty/${id}/connect`);
    await until(() => ws.frames.length === 2, 'replay');
    expect(ws.frames[0]).toEqual({ type: 'text', data: '$ ' });
    ws.send('echo in a partition\r');
    await until(() => ws.text().endsWith('in a partition\r\n$ '), 'echo');
    expect((await socket(`/api/pty/${id}/connect`, headers)).frames).toBeDefined();
    expect((await refusal(`/api/pty/${id}/connect`)).status).toBe(404);
    expect((await refusal(`/__partition/pty-b/api/pty/${id}/connect`)).status).toBe(404);
    ws.close();
    await ws.closed;
  });

  it('works with the global WebSocket where the runtime has one', skippedWhen(noGlobalWebSocket()), async () => {
    const Native = globalThis.WebSocket;
    await sim.reset();
    const ws = new Native(wsUrl(`/api/pty/${SHELL}/connect`));
    ws.binaryType = 'arraybuffer';
    const frames: Array<string | ArrayBuffer> = [];
    ws.onmessage = (m) => frames.push(m.data as string | ArrayBuffer);
    const closed = new Promise<number>((resolve) => (ws.onclose = (e) => resolve(e.code)));
    await new Promise((resolve) => (ws.onopen = resolve));
    await until(() => frames.length === 2, 'replay');
    ws.send('echo native\r');
    await until(() => frames.some((f) => f === 'echo native\r\nnative\r\nacme-web % '), 'echo');
    ws.send('exit\r');
    expect(await closed).toBe(1000);
  });
});

describe('with --auth', () => {
  let secured: SimulatorHandle;
  beforeAll(async () => {
    secured = await startSimulator({ scenario: SCENARIO, auth: 'secret' });
  }, 60_000);
  afterAll(() => secured.close());

  it('opens with the credentials or a ticket, once', async () => {
    const url = (path: string) => `${secured.url.replace(/^http/, 'ws')}${path}`;
    const bare = await openSocket(url(`/api/pty/${SHELL}/connect`));
    expect(isRefusal(bare) && bare.status).toBe(401);
    const token = Buffer.from('opencode:secret').toString('base64');
    const withToken = await openSocket(url(`/api/pty/${SHELL}/connect?auth_token=${encodeURIComponent(token)}`));
    expect(isRefusal(withToken)).toBe(false);
    const client = createOpencodeClient({ baseUrl: secured.url, headers: { authorization: `Basic ${token}` } });
    const issued = await client.v2.pty.connectToken({ ptyID: SHELL }, { headers: { 'x-opencode-ticket': '1' } });
    const ticket = issued.data!.data.ticket;
    const opened = await openSocket(url(`/api/pty/${SHELL}/connect?ticket=${ticket}`));
    expect(isRefusal(opened)).toBe(false);
    const again = await openSocket(url(`/api/pty/${SHELL}/connect?ticket=${ticket}`));
    expect(isRefusal(again) && again.status).toBe(403);
    expect(isRefusal(again) && JSON.parse(again.body)).toMatchObject({ _tag: 'ForbiddenError' });
    const bogus = await openSocket(url(`/api/pty/${SHELL}/connect?ticket=nope`));
    expect(isRefusal(bogus) && bogus.status).toBe(403);
    for (const ws of [withToken, opened]) if (!isRefusal(ws)) ws.close();
  });
});

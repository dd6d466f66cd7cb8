/**
 * The event stream over real sockets, read by the official client (`@opencode-ai/sdk`): what a scenario's
 * story makes happen arrives in order, once, at its virtual instant, in its own partition only, each frame
 * valid against the spec's event schemas.
 */
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer } from '../../src/hosts/server.js';
import { connectSimulator, type SimulatorHandle } from '../../src/index.js';
import type { Simulator as SimulatorCore } from '../../src/hosts/app.js';
import { subscribeWithClient } from '../support/client-subscription.js';
import { eventProblems } from '../support/spec-validator.js';
import { until } from '../support/until.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- frames are read field by field, as the client would
type FrameData = Record<string, any>;
type Frame = {
  id: string;
  type: string;
  data: FrameData;
  durable?: { aggregateID: string; seq: number; version: number };
  metadata?: Record<string, unknown>;
};

const SES = 'ses_dfc5ae513ffePKUBK7HkVp5zCB';
const running: Array<{ close(): Promise<void> | void }> = [];
afterEach(async () => {
  for (const item of running.splice(0).reverse()) await item.close();
});

type Simulator = SimulatorHandle & { app: SimulatorCore };

async function start(scenario: string, keep = true): Promise<Simulator> {
  // With the simulator's own types (shell.timeout.updated, integration.attempt.settled), whose stories some of
  // these tell; without them the stream carries only what a real server announces (client-event-types.test.ts).
  const server = await startServer({ scenario, port: 0, simEvents: true, log: () => {} });
  const sim = Object.assign(connectSimulator(server.url, { close: () => server.close() }), { app: server.app });
  if (keep) running.push(sim);
  return sim;
}

/** Subscribes with the official client and keeps every frame it yields. */
async function subscribe(baseUrl: string): Promise<{ frames: Frame[]; types(): string[] }> {
  const { frames, stop } = await subscribeWithClient<Frame>(baseUrl);
  running.push({ close: stop });
  return { frames, types: () => frames.map((f) => f.type) };
}

async function call(
  url: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

describe('GET /api/event read by the official client', () => {
  it('delivers a forms story in order, each frame valid against the spec', async () => {
    const sim = await start('forms-settling');
    const sub = await subscribe(sim.url);
    const elsewhere = await subscribe(`${sim.url}/__partition/other`);
    expect(sub.frames[0]).toMatchObject({ type: 'server.connected', data: {} });

    expect((await call(sim.url, 'POST', `/api/session/${SES}/agent`, { agent: 'plan' })).status).toBe(204);
    await sim.clock.advance('15s'); // the url form appears at 10 s
    const reply = await call(sim.url, 'POST', `/api/session/${SES}/form/frm_203a7c0e2001Ab3dEf4GhIjKlM/reply`, {
      answer: { framework: 'react', tests: false },
    });
    expect(reply.status).toBe(204);
    await sim.clock.advance('1m'); // the reviewer form is cancelled at 1 min
    await until(() => sub.types().includes('form.cancelled'), 'form.cancelled');

    expect(sub.types()).toEqual([
      'server.connected',
      'session.next.agent.switched',
      'form.created',
      'form.replied',
      'form.cancelled',
    ]);
    // The other partition's clock did not move and nobody spoke to it.
    expect(elsewhere.types()).toEqual(['server.connected']);
    for (const frame of sub.frames) expect(eventProblems(frame), JSON.stringify(frame)).toEqual([]);
    const [, switched, created, replied, cancelled] = sub.frames as [Frame, Frame, Frame, Frame, Frame];
    expect(switched.data).toMatchObject({ sessionID: SES, agent: 'plan' });
    expect(switched.durable).toEqual({ aggregateID: SES, seq: expect.any(Number), version: 1 });
    expect(created.data.form).toMatchObject({ id: 'frm_203a7d0000010LaterFormAbCd', mode: 'url' });
    expect(replied.data).toEqual({
      id: 'frm_203a7c0e2001Ab3dEf4GhIjKlM',
      sessionID: SES,
      answer: { framework: 'react', tests: false },
    });
    expect(cancelled.data).toEqual({
      id: 'frm_203a7e0000010CancelledAbCd',
      sessionID: 'ses_dfc5a1111111OtherSession01',
    });
    // Ids ascend like the real server's, and the log says when each happened.
    const ids = sub.frames.slice(1).map((f) => f.id);
    expect([...ids].sort()).toEqual(ids);
    const logged = (await (await call(sim.url, 'GET', '/__sim/events')).json()) as {
      entries: Array<{ kind: string; id?: string; time: number }>;
    };
    const at = (id: string) => logged.entries.find((e) => e.id === id)?.time;
    // The switch happened at the scenario's start, before the clock moved.
    const origin = at(switched.id) ?? Number.NaN;
    expect(at(created.id)).toBe(origin + 10_000);
    expect(at(cancelled.id)).toBe(origin + 60_000);
  });

  it('emits a shell timeout once, at its deadline, in its own partition only', async () => {
    const sim = await start('shell-timeout');
    const mine = await subscribe(`${sim.url}/__partition/w2`);
    const other = await subscribe(sim.url);
    const w2 = sim.partition('w2');
    const before = (await w2.state()) as { now: number; shells: Array<{ id: string; deadline: number | null }> };
    const timed = before.shells.find((s) => s.deadline !== null);
    expect(timed).toBeDefined();

    await w2.clock.advance('2m');
    await w2.clock.advance('2m');
    await until(() => mine.frames.filter((f) => f.type === 'shell.exited').length === 2, 'both shells to end');
    const timeouts = mine.frames.filter((f) => f.type === 'shell.exited' && f.data.status === 'timeout');
    expect(timeouts).toHaveLength(1);
    expect(timeouts[0]?.data).toEqual({ id: timed?.id, status: 'timeout' });
    const events = (await (
      await call(sim.url, 'GET', '/__sim/events', undefined, { 'x-sim-partition': 'w2' })
    ).json()) as { entries: Array<{ id?: string; time: number }> };
    expect(events.entries.find((e) => e.id === timeouts[0]?.id)?.time).toBe(timed?.deadline);
    // The default partition's subscriber saw its own connection and nothing of w2's.
    await new Promise((r) => setTimeout(r, 50));
    expect(other.types()).toEqual(['server.connected']);
  });

  it('announces a session created later, unknown before, numbered from 0', async () => {
    const sim = await start('default');
    const sub = await subscribe(sim.url);
    const id = 'ses_dfc5aa0f1ffeOpenedLaterAbC';
    const before = await call(sim.url, 'GET', `/api/session/${id}/message`);
    expect(before.status).toBe(404);
    expect(((await before.json()) as { _tag: string })._tag).toBe('SessionNotFoundError');
    await sim.clock.advance('45s');
    await until(() => sub.types().includes('session.created'), 'session.created');
    const created = sub.frames.find((f) => f.type === 'session.created');
    expect(created?.durable).toEqual({ aggregateID: id, seq: 0, version: 1 });
    expect(created?.data).toMatchObject({
      sessionID: id,
      info: { id, title: 'Review the checkout flow', directory: '/home/dev/acme-web' },
    });
    expect((await call(sim.url, 'GET', `/api/session/${id}/message`)).status).toBe(200);
    expect((await call(sim.url, 'POST', `/api/session/${id}/agent`, { agent: 'plan' })).status).toBe(204);
    await until(() => sub.types().includes('session.next.agent.switched'), 'the switch');
    expect(sub.frames.find((f) => f.type === 'session.next.agent.switched')?.durable?.seq).toBe(1);
    for (const frame of sub.frames) expect(eventProblems(frame), JSON.stringify(frame)).toEqual([]);
  });

  it('announces a command that starts later, which does not exist before', async () => {
    const sim = await start('default');
    const sub = await subscribe(sim.url);
    const id = 'sh_203a7f0b2001BuildLaterAbCd';
    expect((await call(sim.url, 'GET', `/api/shell/${id}`)).status).toBe(404);
    await sim.clock.advance('29s');
    expect((await call(sim.url, 'GET', `/api/shell/${id}`)).status).toBe(404);
    await sim.clock.advance('1s');
    await until(() => sub.types().includes('shell.created'), 'shell.created');
    const created = sub.frames.find((f) => f.type === 'shell.created');
    expect(created?.data.info).toMatchObject({
      id,
      status: 'running',
      command: 'npm run build',
      cwd: '/home/dev/acme-web',
    });
    const shell = (await (await call(sim.url, 'GET', `/api/shell/${id}`)).json()) as {
      data: { status: string; time: { started: number } };
    };
    expect(shell.data.status).toBe('running');
    await sim.clock.advance('12s');
    await until(() => sub.frames.some((f) => f.type === 'shell.exited' && f.data.id === id), 'its exit');
    expect(sub.frames.find((f) => f.type === 'shell.exited' && f.data.id === id)?.data).toEqual({
      id,
      status: 'exited',
      exit: 0,
    });
    for (const frame of sub.frames) expect(eventProblems(frame)).toEqual([]);
  });

  it('announces an OAuth attempt polled to completion once', async () => {
    const sim = await start('oauth-pending-then-complete');
    const sub = await subscribe(sim.url);
    const elsewhere = await subscribe(`${sim.url}/__partition/other`);
    for (let i = 0; i < 4; i++) {
      const res = await call(sim.url, 'GET', '/api/integration/attempt/con_203a64b00001CrBDw85dYNzrGb');
      expect(((await res.json()) as { data: { status: string } }).data.status).toBe(i < 2 ? 'pending' : 'complete');
    }
    await until(() => sub.types().includes('integration.updated'), 'integration.updated');
    await new Promise((r) => setTimeout(r, 50));
    expect(sub.types()).toEqual([
      'server.connected',
      'integration.attempt.settled',
      'integration.connection.updated',
      'integration.updated',
      // The model catalogue reloads after an integration changes: openai's models are listed now.
      'catalog.updated',
    ]);
    expect(sub.frames[1]?.data).toEqual({
      attemptID: 'con_203a64b00001CrBDw85dYNzrGb',
      integrationID: 'openai',
      status: 'complete',
    });
    expect(sub.frames[2]?.data).toEqual({ integrationID: 'openai' });
    expect(elsewhere.types()).toEqual(['server.connected']);
    for (const frame of sub.frames) expect(eventProblems(frame)).toEqual([]);
  });

  it('streams a scripted agent turn as the clock moves, in the order the log has it, and pages its messages the same on a second run', async () => {
    const run = async () => {
      const sim = await start('default');
      const sub = await subscribe(sim.url);
      const synthetic = await call(sim.url, 'POST', `/api/session/${SES}/synthetic`, {
        text: 'Use the design-system Avatar',
      });
      expect(synthetic.status).toBe(204);
      await until(() => sub.types().includes('session.next.prompt.admitted'), 'the prompt admitted');
      // Busy while it plays: revert staging is refused.
      const newest = (
        (await (await call(sim.url, 'GET', `/api/session/${SES}/message?limit=1`)).json()) as {
          data: Array<{ id: string }>;
        }
      ).data[0]?.id;
      expect((await call(sim.url, 'POST', `/api/session/${SES}/revert/stage`, { messageID: newest })).status).toBe(409);
      const seen: number[] = [];
      // Over by the real server's signals: a step that ends with no more tool calls.
      const over = () => sub.frames.some((f) => f.type === 'session.next.step.ended' && f.data.finish === 'stop');
      for (let i = 0; i < 30 && !over(); i++) {
        await sim.clock.advance('1s');
        await new Promise((r) => setTimeout(r, 5));
        seen.push(sub.frames.length);
      }
      await until(over, 'the turn to end');
      const page = await (await call(sim.url, 'GET', `/api/session/${SES}/message?limit=20`)).text();
      const log = (await (await call(sim.url, 'GET', '/__sim/events')).json()) as {
        entries: Array<{ kind: string; id?: string; type?: string }>;
      };
      return { frames: sub.frames, seen, page, log };
    };
    const first = await run();
    const types = first.frames.map((f) => f.type);
    // No status around the turn, as on the real server.
    expect(types.slice(0, 4)).toEqual([
      'server.connected',
      'session.next.synthetic',
      'session.next.prompt.admitted',
      'session.next.step.started',
    ]);
    expect(types.at(-1)).toBe('session.next.step.ended');
    expect(types).not.toContain('session.status');
    for (const kind of [
      'session.next.reasoning.delta',
      'session.next.tool.called',
      'session.next.tool.success',
      'session.next.text.delta',
    ])
      expect(types).toContain(kind);
    // The turn arrived over many clock steps, not all at once.
    expect(new Set(first.seen).size).toBeGreaterThan(3);
    // Frames in the order of the partition's log (the internal turn plan left out).
    const published = first.frames
      .filter((f) => f.type !== 'server.connected' && f.type !== 'session.updated')
      .map((f) => f.id);
    const logged = first.log.entries
      .filter((e) => e.kind === 'event' && published.includes(e.id ?? ''))
      .map((e) => e.id);
    expect(published).toEqual(logged);
    for (const frame of first.frames) expect(eventProblems(frame), JSON.stringify(frame)).toEqual([]);
    const steps = first.frames.filter((f) => f.durable?.aggregateID === SES).map((f) => f.durable?.seq ?? -1);
    expect(steps).toEqual(steps.map((_, i) => (steps[0] ?? 0) + i));
    // Same scenario, same seed: the same frames and the same messages.
    const second = await run();
    expect(JSON.stringify(second.frames)).toBe(JSON.stringify(first.frames));
    expect(second.page).toBe(first.page);
    expect(JSON.parse(first.page).data[0]).toMatchObject({ type: 'assistant' });
  });

  it('announces a PTY created, and its command ending a second later; an interactive shell keeps running', async () => {
    const sim = await start('default');
    const sub = await subscribe(sim.url);
    const made = await call(sim.url, 'POST', '/api/pty', { command: 'npm', args: ['test'] });
    const shell = await call(sim.url, 'POST', '/api/pty', { command: '/bin/zsh' });
    const id = ((await made.json()) as { data: { id: string } }).data.id;
    expect(shell.status).toBe(200);
    await sim.clock.advance('999ms');
    await until(() => sub.frames.length === 3, 'two pty.created');
    expect(sub.types()).toEqual(['server.connected', 'pty.created', 'pty.created']);
    await sim.clock.advance('1m');
    await until(() => sub.types().includes('pty.exited'), 'pty.exited');
    expect(sub.frames.filter((f) => f.type === 'pty.exited')).toEqual([
      expect.objectContaining({ data: { id, exitCode: 0 } }),
    ]);
    for (const frame of sub.frames) expect(eventProblems(frame)).toEqual([]);
    const state = (await sim.state()) as { ptys: Array<{ id: string; state: string }> };
    expect(state.ptys.filter((p) => p.state === 'exited').map((p) => p.id)).toEqual([id]);
  });

  it('numbers a session aggregate per session, continuing its history, and says when the world is reset', async () => {
    const sim = await start('forms-settling');
    const sub = await subscribe(sim.url);
    await call(sim.url, 'POST', `/api/session/${SES}/agent`, { agent: 'plan' });
    await call(sim.url, 'POST', `/api/session/${SES}/model`, { model: { id: 'gpt-5', providerID: 'openai' } });
    await call(sim.url, 'POST', '/api/session/ses_dfc5a1111111OtherSession01/agent', { agent: 'build' });
    await sim.reset();
    await call(sim.url, 'POST', `/api/session/${SES}/agent`, { agent: 'plan' });
    await until(() => sub.frames.length === 6, 'six frames');
    const seqs = sub.frames.map((f) => (f.durable ? `${f.durable.aggregateID.slice(-4)}:${f.durable.seq}` : f.type));
    // forms-settling's sessions have no messages: session.created was 0, so the first live event is 1.
    const mine = SES.slice(-4);
    expect(seqs).toEqual(['server.connected', `${mine}:1`, `${mine}:2`, 'on01:1', 'global.disposed', `${mine}:1`]);
    expect(sub.frames[4]?.metadata).toEqual({ reason: 'reset', detail: 'forms-settling' });
    for (const frame of sub.frames) expect(eventProblems(frame)).toEqual([]);
  });
});

describe('GET /api/event on the wire', () => {
  /** Reads raw bytes of the stream; the socket can be paused to play a slow consumer. */
  function open(url: string): Promise<{ res: http.IncomingMessage; text(): string; close(): void }> {
    return new Promise((resolve, reject) => {
      const req = http.get(`${url}/api/event`, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('error', () => {});
        const handle = {
          res,
          text: () => text,
          close: () => {
            req.destroy();
          },
        };
        running.push(handle);
        resolve(handle);
      });
      req.on('error', reject);
    });
  }

  it('answers with the real server headers, then a heartbeat every 15 s of virtual time', async () => {
    const sim = await start('default');
    const stream = await open(sim.url);
    expect(stream.res.statusCode).toBe(200);
    expect(stream.res.headers).toMatchObject({
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
      'x-content-type-options': 'nosniff',
      'x-accel-buffering': 'no',
    });
    await until(() => stream.text().includes(': heartbeat'), 'the first heartbeat');
    await sim.clock.advance('44s');
    await until(() => stream.text().split(': heartbeat').length - 1 === 3, 'two more heartbeats');
    await sim.clock.advance('1s');
    await until(() => stream.text().split(': heartbeat').length - 1 === 4, 'the 45 s heartbeat');
    expect(stream.text()).toMatch(
      /^data: \{"id":"evt_[0-9a-f]{12}[0-9A-Za-z]{14}","type":"server.connected","data":\{\}\}\n\n: heartbeat\n\n/,
    );
  });

  it('drops a subscriber that stops reading, and keeps serving the others', async () => {
    const sim = await start('default');
    const partition = sim.app.sim.partitions.default;
    const slow = await open(sim.url);
    // Through an interceptor's mock socket (nock, msw) every byte is taken at once: nothing would be slow.
    expect(slow.res.socket?.constructor.name, 'an HTTP interceptor an earlier file left on').toBe('Socket');
    slow.res.pause();
    const brisk = await subscribe(sim.url);
    expect(partition.events.subscribers).toBe(2);
    // Enough events to fill the socket buffers on both ends and then the frames the simulator will hold; the loop
    // ends at the drop. Loopback's buffers grow to tens of megabytes (Linux's tcp_rmem allows 32 MiB), hence
    // large frames and room for 160 MiB of them.
    const padding = 'x'.repeat(16_000);
    let i = 0;
    for (; i < 10_000 && partition.events.dropped === 0; i++) {
      partition.engine.commit([{ type: 'form.cancelled', data: { id: `frm_${padding}`, sessionID: SES } }], {
        request: 'test',
      });
      if (i % 10 === 0) await new Promise((r) => setImmediate(r));
    }
    // Past the frames it may be behind, a subscriber gets a second to catch up before it is dropped; the loop
    // can end within that second when the kernel's socket buffers took more of the events.
    await until(() => partition.events.dropped > 0, 'the slow subscriber to be dropped').catch((error: Error) => {
      const state = `${i} events sent, ${partition.events.subscribers} subscribers, ${slow.text().length} characters read`;
      throw new Error(`${error.message} (${state})`);
    });
    expect(partition.events.dropped).toBe(1);
    expect(partition.events.subscribers).toBe(1);
    await until(() => brisk.frames.length > 100, 'the brisk subscriber to keep receiving');
  });

  it('keeps a subscriber that reads, however many events one clock advance releases at once', async () => {
    const sim = await start('default');
    const partition = sim.app.sim.partitions.default;
    const stream = await subscribe(sim.url);
    // Twenty scripted turns, all played by one advance: several hundred events in one synchronous step.
    for (let i = 0; i < 20; i++)
      expect(
        (await call(sim.url, 'POST', `/api/session/${SES}/synthetic`, { text: `go ${i}`, resume: true })).status,
      ).toBe(204);
    const before = stream.frames.length;
    await sim.clock.advance('10m');
    // More than the 256 frames a subscriber may be behind, all queued before it could read one.
    await until(() => stream.frames.length - before > 600, 'the turns to stream in');
    // Past the second a consumer gets to catch up: still there.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(partition.events.dropped).toBe(0);
    expect(partition.events.subscribers).toBe(1);
  });

  it('answers a Prefer control for a declared error from the spec, and still subscribes for Prefer: code=200', async () => {
    const sim = await start('default');
    const refused = await call(sim.url, 'GET', '/api/event', undefined, { prefer: 'code=401' });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ _tag: 'UnauthorizedError', message: 'Authentication required' });
    const controller = new AbortController();
    const streamed = await fetch(`${sim.url}/api/event`, {
      headers: { prefer: 'code=200' },
      signal: controller.signal,
    });
    expect(streamed.headers.get('content-type')).toBe('text/event-stream');
    controller.abort();
  });

  it('closes open subscriptions when the simulator closes', async () => {
    const sim = await start('default', false);
    const stream = await open(sim.url);
    const ended = new Promise((resolve) => stream.res.once('close', resolve));
    const started = Date.now();
    await sim.close();
    await ended;
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

/**
 * The PTY protocol the mock follows, held to the real server side by side: the same flow (connect, type, a
 * ticket used twice, update, exit, remove) run against the real server through the simulator in proxy mode
 * (its WebSocket tunnelled) and against the mock, each expected to behave the same way. What the terminals
 * print differs (a real shell against the simulated one); the protocol around it must not.
 */
import { createOpencodeClient } from '@opencode-ai/sdk/v2/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningSimulator } from '../../src/hosts/server.js';
import { noRealServer, skippedWhen } from '../support/environment.js';
import { sharedRealServer, type RealServer } from '../support/real-server.js';
import { isRefusal, openSocket, until, type TestSocket } from '../support/ws-client.js';

type Frame = { type: string; data: Record<string, unknown> };

function subscribe(baseUrl: string): { frames: Frame[]; stop(): void } {
  const controller = new AbortController();
  const frames: Frame[] = [];
  void (async () => {
    try {
      const { stream } = await createOpencodeClient({ baseUrl }).v2.event.subscribe({
        signal: controller.signal,
        sseMaxRetryAttempts: 0,
      });
      for await (const event of stream) frames.push(event as unknown as Frame);
    } catch {
      // aborted
    }
  })();
  return { frames, stop: () => controller.abort() };
}

async function socket(base: string, path: string): Promise<TestSocket> {
  const opened = await openSocket(`${base.replace(/^http/, 'ws')}${path}`);
  if (isRefusal(opened)) throw new Error(`refused ${opened.status}`);
  return opened;
}

/** What one run of the flow showed, free of what a real shell and the simulated one print differently. */
async function flow(base: string): Promise<Record<string, unknown>> {
  const client = createOpencodeClient({ baseUrl: base });
  const events = subscribe(base);
  await until(() => events.frames.length > 0, 'server.connected', 15_000);
  const id = (await client.v2.pty.create({ command: '/bin/sh', title: 'flow' })).data!.data.id;
  const ws = await socket(base, `/api/pty/${id}/connect`);
  await until(() => ws.frames.some((f) => f.type === 'binary'), 'the cursor frame', 15_000);
  const cursorAt = ws.frames.findIndex((f) => f.type === 'binary');
  const before = ws.text();
  // The output replayed ahead of the cursor frame, which its cursor counts: the shell's prompt may come just
  // after it, before this test looks.
  const replayed = ws.frames
    .slice(0, cursorAt)
    .map((f) => (f.type === 'text' ? (f.data as string) : ''))
    .join('');
  const cursor = ws.frames[cursorAt]?.data as Buffer;
  ws.send('echo hi\r');
  await until(() => ws.text().slice(before.length).includes('hi\r\n'), 'echo hi', 15_000);

  const plain = await fetch(`${base}/api/pty/${id}/connect`);
  const unknown = await openSocket(`${base.replace(/^http/, 'ws')}/api/pty/pty_nope/connect`);
  const refusedToken = await client.v2.pty.connectToken({ ptyID: id });
  const token = await client.v2.pty.connectToken({ ptyID: id }, { headers: { 'x-opencode-ticket': '1' } });
  const ticket = token.data!.data.ticket;
  const first = await openSocket(`${base.replace(/^http/, 'ws')}/api/pty/${id}/connect?ticket=${ticket}`);
  const second = await openSocket(`${base.replace(/^http/, 'ws')}/api/pty/${id}/connect?ticket=${ticket}`);
  if (!isRefusal(first)) first.close();
  const updated = await client.v2.pty.update({ ptyID: id, title: 'renamed' });

  ws.send('exit\r');
  const closed = await ws.closed;
  await until(() => events.frames.some((f) => f.type === 'pty.exited'), 'pty.exited', 15_000);
  const exited = (await client.v2.pty.get({ ptyID: id })).data?.data;
  const late = await socket(base, `/api/pty/${id}/connect`);
  const lateClose = await late.closed;

  const other = (await client.v2.pty.create({ command: '/bin/sh' })).data!.data.id;
  const removed = await client.v2.pty.remove({ ptyID: other });
  await until(() => events.frames.some((f) => f.type === 'pty.deleted'), 'pty.deleted', 15_000);
  events.stop();
  return {
    cursorFrameLast: cursorAt === ws.frames.length - 1 || ws.frames[cursorAt + 1]?.type === 'text',
    cursor: [cursor[0], JSON.parse(cursor.subarray(1).toString('utf8'))],
    cursorCounts: replayed.length,
    plainStatus: plain.status,
    unknownStatus: isRefusal(unknown) && unknown.status,
    refusedToken: [refusedToken.response.status, refusedToken.error],
    token: [
      token.data?.data.expires_in,
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(ticket),
    ],
    ticketOnce: [isRefusal(first), isRefusal(second) && second.status],
    updated: updated.response.status,
    exit: [closed.code, exited?.status, exited?.exitCode],
    lateClose,
    removed: removed.response.status,
    events: events.frames
      .filter((f) => f.type.startsWith('pty.') && (f.data.id ?? (f.data.info as { id?: string })?.id) !== undefined)
      .map((f) => [f.type, (f.data.id ?? (f.data.info as { id: string }).id) === id ? 'flow' : 'other']),
  };
}

describe('PTYs: the mock against the real server', skippedWhen(noRealServer()), () => {
  let real: RealServer;
  let proxy: RunningSimulator;
  let mock: RunningSimulator;

  beforeAll(async () => {
    real = await sharedRealServer();
    proxy = await startServer({ port: 0, upstream: real.url, log: () => {} });
    mock = await startServer({ port: 0, scenario: { name: 'ptys' }, log: () => {} });
  }, 90_000);

  afterAll(async () => {
    await proxy?.close();
    await mock?.close();
  });

  it('runs the same flow the same way', async () => {
    const seen = await flow(proxy.url);
    expect(seen).toMatchObject({
      cursorFrameLast: true,
      cursor: [0, { cursor: seen.cursorCounts }],
      plainStatus: 400,
      unknownStatus: 404,
      refusedToken: [403, { _tag: 'ForbiddenError', message: 'Invalid PTY connect token request' }],
      token: [60, true],
      ticketOnce: [false, 403],
      updated: 200,
      exit: [1000, 'exited', 0],
      lateClose: { code: 4404, reason: 'session exited' },
      removed: 204,
      events: [
        ['pty.created', 'flow'],
        ['pty.updated', 'flow'],
        ['pty.exited', 'flow'],
        ['pty.created', 'other'],
        ['pty.deleted', 'other'],
      ],
    });
    const simulated = await flow(mock.url);
    expect({ ...simulated, cursorCounts: 0, cursor: [0, {}] }).toEqual({ ...seen, cursorCounts: 0, cursor: [0, {}] });
    expect(simulated.cursor).toEqual([0, { cursor: simulated.cursorCounts }]);
  }, 120_000);
});

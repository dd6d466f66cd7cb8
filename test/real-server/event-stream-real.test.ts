/**
 * The real server's event stream through the simulator: in proxy mode the official client subscribes through
 * it and sees what the real server publishes; in record mode the stream is recorded as it passes, and replay
 * plays it back offline.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOpencodeClient } from '@opencode-ai/sdk/v2/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningSimulator } from '../../src/hosts/server.js';
import { noRealServer, skippedWhen } from '../support/environment.js';
import { sharedRealServer, type RealServer } from '../support/real-server.js';

type Frame = { type: string; data: Record<string, unknown>; durable?: { aggregateID: string; seq: number } };

async function until(condition: () => boolean, what: string, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

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

async function post(url: string, path: string, body: unknown): Promise<Response> {
  return fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

describe('the real server event stream through the simulator', skippedWhen(noRealServer()), () => {
  let real: RealServer;
  const dir = mkdtempSync(join(tmpdir(), 'sim-stream-'));
  const recording = join(dir, 'stream.jsonl');

  beforeAll(async () => {
    real = await sharedRealServer();
  }, 60_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('passes the stream through in proxy mode: a session created and an agent switch, numbered by the real server', async () => {
    const sim: RunningSimulator = await startServer({ port: 0, upstream: real.url, log: () => {} });
    const sub = subscribe(sim.url);
    try {
      await until(() => sub.frames.some((f) => f.type === 'server.connected'), 'server.connected');
      const created = (await (await post(sim.url, '/api/session', {})).json()) as { data: { id: string } };
      const sessionID = created.data.id;
      expect((await post(sim.url, `/api/session/${sessionID}/agent`, { agent: 'plan' })).status).toBe(204);
      await until(() => sub.frames.some((f) => f.type === 'session.next.agent.switched'), 'the agent switch');
      const mine = sub.frames.filter((f) => f.durable?.aggregateID === sessionID);
      expect(mine.map((f) => [f.type, f.durable?.seq])).toEqual([
        ['session.created', 0],
        ['session.next.agent.switched', 1],
      ]);
      const journal = (await (await fetch(`${sim.url}/__sim/journal`)).json()) as {
        entries: Array<{ operationId?: string; status: number; layer: string }>;
      };
      expect(journal.entries.find((e) => e.operationId === 'v2.event.subscribe')).toMatchObject({
        status: 200,
        layer: 'upstream',
      });
    } finally {
      sub.stop();
      await sim.close();
    }
  }, 60_000);

  it('records the stream as it passes and replays it offline', async () => {
    const recorder = await startServer({ port: 0, upstream: real.url, record: recording, log: () => {} });
    const sub = subscribe(recorder.url);
    let sessionID = '';
    try {
      await until(() => sub.frames.length > 0, 'server.connected');
      sessionID = ((await (await post(recorder.url, '/api/session', {})).json()) as { data: { id: string } }).data.id;
      await post(recorder.url, `/api/session/${sessionID}/agent`, { agent: 'plan' });
      await until(() => sub.frames.some((f) => f.type === 'session.next.agent.switched'), 'the agent switch');
    } finally {
      sub.stop();
      // The stream is written to the recording when it ends: give the abort a moment to reach the recorder.
      await new Promise((r) => setTimeout(r, 300));
      await recorder.close();
    }
    expect(readFileSync(recording, 'utf8')).toContain('session.next.agent.switched');
    // The client went away from a stream the server had not ended: replay keeps it open likewise.
    expect(readFileSync(recording, 'utf8')).toContain('"open": true');

    const replayer = await startServer({ port: 0, replay: recording, log: () => {} });
    const again = subscribe(replayer.url);
    try {
      await until(() => again.frames.some((f) => f.type === 'session.next.agent.switched'), 'the replayed switch');
      const replayed = again.frames.filter((f) => f.durable?.aggregateID === sessionID).map((f) => f.type);
      expect(replayed).toEqual(['session.created', 'session.next.agent.switched']);
      // Still open after the last recorded chunk: no reconnect, no second copy of the same events.
      await new Promise((r) => setTimeout(r, 300));
      expect(again.frames.filter((f) => f.type === 'server.connected')).toHaveLength(1);
      expect(again.frames[0]?.type).toBe('server.connected');
    } finally {
      again.stop();
      await replayer.close();
    }
  }, 60_000);
});

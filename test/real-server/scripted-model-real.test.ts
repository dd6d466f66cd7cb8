/**
 * The scripted model behind the real server: each scripted turn, prompted through the official client, plays
 * as a real turn (real tools in the workspace), with the events the real server publishes for it.
 */
import { existsSync } from 'node:fs';
import { createOpencodeClient } from '@opencode-ai/sdk/v2/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedModel, type ScriptedModel } from '../../src/index.js';
import { startRealRuntime } from '../../src/real-runtime/real-runtime.js';
import { noRealRuntime, skippedWhen } from '../support/environment.js';
import { startRealServer, type RealServer } from '../support/real-server.js';

/** One turn a prompt (`match: prompt`), each prompted in a session of its own. */
const SCENARIO = {
  name: 'real-turns',
  seed: 'real-turns',
  sessions: [{ id: 'ses_turns' }],
  scriptedModel: { match: 'prompt' },
  turns: [
    {
      session: 'ses_turns',
      prompt: 'say hello',
      steps: [{ reasoning: 'A greeting is enough.' }, { text: 'Hello from the script.' }],
    },
    {
      session: 'ses_turns',
      prompt: 'run a command',
      steps: [
        { tool: 'bash', input: { command: 'echo scripted-$((40+2))' } },
        { text: 'The command printed its line.' },
      ],
    },
    {
      session: 'ses_turns',
      prompt: 'read the notes',
      steps: [
        { tool: 'read', input: { path: 'notes.txt' } },
        { tool: 'glob', input: { pattern: '*.txt' } },
        { tool: 'read', input: { path: 'missing.txt' } },
        { text: 'Read what there was.' },
      ],
    },
    {
      session: 'ses_turns',
      prompt: 'try again',
      steps: [{ retry: { message: 'Internal error', statusCode: 500, wait: '200ms' } }, { text: 'Second try worked.' }],
    },
    {
      session: 'ses_turns',
      prompt: 'cut off',
      steps: [
        { text: 'Partial answer' },
        { retry: { message: 'connection reset', cut: true, wait: '200ms' } },
        { text: 'After the cut.' },
      ],
    },
    {
      session: 'ses_turns',
      prompt: 'keep failing',
      steps: [
        ...Array.from({ length: 6 }, () => ({ retry: { message: 'Internal error', statusCode: 500, wait: '0s' } })),
        { text: 'Never reached.' },
      ],
    },
    { session: 'ses_turns', prompt: 'refuse', steps: [{ fail: 'The model refused' }] },
    { session: 'ses_turns', prompt: 'wait for me', steps: [{ text: 'Never sent.', after: '1h' }] },
  ],
};

interface Event {
  type: string;
  data: Record<string, unknown>;
}

describe('the scripted model behind the real server', skippedWhen(noRealRuntime()), () => {
  let model: ScriptedModel;
  let server: RealServer;
  let client: ReturnType<typeof createOpencodeClient>;
  const events: Event[] = [];
  const abort = new AbortController();

  beforeAll(async () => {
    model = await startScriptedModel({ scenario: SCENARIO, pace: 0.1 });
    server = await startRealServer({
      files: { 'opencode.json': JSON.stringify(model.config()), 'notes.txt': 'remember the milk\n' },
    });
    client = createOpencodeClient({ baseUrl: server.url, directory: server.directory });
    const subscription = await client.v2.event.subscribe({ signal: abort.signal });
    void (async () => {
      for await (const event of subscription.stream) events.push(event as Event);
    })().catch(() => undefined);
  }, 60_000);

  afterAll(async () => {
    abort.abort();
    await server?.stop();
    await model?.close();
  });

  /** Prompts a new session and waits until its turn settles: the events of that session, in order. */
  async function turn(text: string, settled = (list: Event[]) => list.some(ends)): Promise<Event[]> {
    const created = await client.v2.session.create({ location: { directory: server.directory } });
    const sessionID = (created.data as { data: { id: string } }).data.id;
    const prompted = await client.v2.session.prompt({ sessionID, prompt: { text } });
    expect(prompted.response.status).toBe(200);
    const mine = () => events.filter((e) => e.data?.sessionID === sessionID && e.type.startsWith('session.next.'));
    const deadline = Date.now() + 30_000;
    while (!settled(mine()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    return mine();
  }
  const ends = (e: Event) =>
    (e.type === 'session.next.step.ended' && e.data.finish === 'stop') || e.type === 'session.next.step.failed';
  const kinds = (list: Event[]) =>
    list.map((e) => e.type.replace('session.next.', '')).filter((t) => !t.endsWith('.delta'));

  // Each turn plays in a session of its own and waits mostly on the runtime: they play side by side.
  it.concurrent('streams reasoning and text', { timeout: 60_000 }, async () => {
    const list = await turn('Say hello');
    expect(kinds(list)).toEqual([
      'prompt.admitted',
      'prompted',
      'step.started',
      'reasoning.started',
      'reasoning.ended',
      'text.started',
      'text.ended',
      'step.ended',
    ]);
    expect(list.find((e) => e.type === 'session.next.text.ended')?.data.text).toBe('Hello from the script.');
    expect(list.some((e) => e.type === 'session.next.text.delta')).toBe(true);
  });

  it.concurrent(
    'calls a tool, which the real server runs, then answers in a second step',
    { timeout: 60_000 },
    async () => {
      const list = await turn('Run a command');
      const called = list.find((e) => e.type === 'session.next.tool.called');
      expect(called?.data).toMatchObject({ tool: 'bash', input: { command: 'echo scripted-$((40+2))' } });
      const success = list.find((e) => e.type === 'session.next.tool.success');
      expect(JSON.stringify(success?.data.content)).toContain('scripted-42');
      expect(list.filter((e) => e.type === 'session.next.step.ended').map((e) => e.data.finish)).toEqual([
        'tool-calls',
        'stop',
      ]);
    },
  );

  it.concurrent('calls tools in parallel, a failing one among them', { timeout: 60_000 }, async () => {
    const list = await turn('Read the notes');
    const calls = list.filter((e) => e.type === 'session.next.tool.called');
    expect(calls.map((e) => e.data.tool)).toEqual(['read', 'glob', 'read']);
    expect(calls[0]?.data.input).toEqual({ path: 'notes.txt' });
    const results = list.filter((e) => /tool\.(success|failed)$/.test(e.type));
    expect(results).toHaveLength(3);
    expect(JSON.stringify(results)).toContain('remember the milk');
    const steps = list.filter((e) => e.type === 'session.next.step.started');
    expect(steps).toHaveLength(2);
  });

  it.concurrent('retries a model error and goes on', { timeout: 60_000 }, async () => {
    const list = await turn('Try again');
    expect(list.find((e) => e.type === 'session.next.text.ended')?.data.text).toBe('Second try worked.');
    expect(list.some((e) => e.type === 'session.next.step.failed')).toBe(false);
  });

  it.concurrent('loses a stream cut mid-answer', { timeout: 60_000 }, async () => {
    const list = await turn('Cut off');
    // The runtime does not ask again after a dropped stream: the step, and the turn, fail.
    const failed = list.find((e) => e.type === 'session.next.step.failed');
    expect(JSON.stringify(failed?.data.error)).toContain('Failed to read');
    expect(list.some((e) => e.type === 'session.next.text.ended' && e.data.text === 'After the cut.')).toBe(false);
  });

  it.concurrent('fails the turn when the model keeps answering an HTTP error', { timeout: 90_000 }, async () => {
    const list = await turn('Keep failing');
    const failed = list.find((e) => e.type === 'session.next.step.failed');
    expect(JSON.stringify(failed?.data.error)).toContain('HTTP 500');
    expect(list.some((e) => e.type === 'session.next.text.ended')).toBe(false);
  });

  it.concurrent('fails the turn where the script fails', { timeout: 60_000 }, async () => {
    const list = await turn('Refuse');
    const failed = list.find((e) => e.type === 'session.next.step.failed');
    expect(JSON.stringify(failed?.data.error)).toContain('The model refused');
  });

  // It counts the model's calls, which the turns above would add to: it runs alone, after them.
  it('hangs until the session is interrupted', { timeout: 60_000 }, async () => {
    const before = model.stats();
    // The real server shows nothing of a step before the model's first token: the call is the sign it waits.
    const list = await turn('Wait for me', () => model.stats().calls > before.calls);
    const sessionID = list[0]?.data.sessionID as string;
    await new Promise((r) => setTimeout(r, 300));
    expect(model.stats().abandoned).toBe(before.abandoned);
    const interrupted = await client.v2.session.interrupt({ sessionID });
    expect(interrupted.response.ok).toBe(true);
    const deadline = Date.now() + 15_000;
    while (model.stats().abandoned === before.abandoned && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    expect(model.stats().abandoned).toBe(before.abandoned + 1);
    const mine = events.filter((e) => e.data?.sessionID === sessionID).map((e) => e.type);
    expect(mine).not.toContain('session.next.text.started');
  });
});

it(
  "real: the runtime's Basic auth, and nothing left behind once stopped",
  { ...skippedWhen(noRealRuntime()), timeout: 60_000 },
  async () => {
    const runtime = await startRealRuntime({ auth: 'alice:s3cret', port: 0, pace: 0 });
    try {
      expect((await fetch(`${runtime.url}/api/health`)).status).toBe(401);
      const authorization = `Basic ${Buffer.from('alice:s3cret').toString('base64')}`;
      expect(await (await fetch(`${runtime.url}/api/health`, { headers: { authorization } })).json()).toEqual({
        healthy: true,
      });
    } finally {
      await runtime.stop();
    }
    expect(existsSync(runtime.directory)).toBe(false);
    await expect(fetch(`${runtime.url}/api/health`)).rejects.toThrow();
    await expect(fetch(`${runtime.model.url}/models`)).rejects.toThrow();
  },
);

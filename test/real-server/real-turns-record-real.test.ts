/**
 * Real turns recorded: the simulator records in front of the real runtime (`startRealRuntime`, its model the
 * scenario's turns) a flow with a prompt, the event stream while the turn plays, a permission asked mid-turn
 * and answered, and the messages. Then the recording replays offline identically, becomes a scenario whose
 * turn is what the runtime did (and which scenario-diff holds to the recording), and that scenario, served by
 * the scripted model, plays the same turn on the real runtime again; so does the model's side, kept as it
 * answered.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createOpencodeClient } from '@opencode-ai/sdk/v2/client';
import { parse } from 'yaml';
import { afterAll, expect, it } from 'vitest';
import { startSimulator } from '../../src/index.js';
import { startRealRuntime } from '../../src/real-runtime/real-runtime.js';
import { noRealRuntime, skippedWhen } from '../support/environment.js';

const BIN = fileURLToPath(new URL('../../bin/session-agent-sim.js', import.meta.url));

/** build asks before any command: the turn's bash call waits for an answer mid-turn. */
const SCENARIO = {
  name: 'asks',
  seed: 'asks',
  agents: [
    {
      id: 'build',
      permissions: [
        { action: '*', resource: '*', effect: 'allow' },
        { action: 'bash', resource: '*', effect: 'ask' },
      ],
    },
  ],
  sessions: [{ id: 'ses_asks' }],
  turns: [
    {
      session: 'ses_asks',
      steps: [
        { reasoning: 'List the files first.' },
        { tool: 'bash', input: { command: 'echo listed' } },
        { text: 'Here they are.' },
      ],
    },
  ],
};

interface Played {
  events: string[];
  messages: unknown;
  bash: unknown;
}

/** What an app does: subscribe, create, prompt, answer the permission the turn asks for, read the messages. */
async function flow(baseUrl: string, directory: string): Promise<Played> {
  const client = createOpencodeClient({ baseUrl, directory });
  const events: Array<{ type: string; data: Record<string, unknown> }> = [];
  const abort = new AbortController();
  const subscription = await client.v2.event.subscribe({ signal: abort.signal });
  void (async () => {
    for await (const event of subscription.stream) events.push(event as (typeof events)[number]);
  })().catch(() => undefined);
  const until = async (what: () => boolean) => {
    const deadline = Date.now() + 30_000;
    while (!what() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  };
  await until(() => events.length > 0);
  const created = await client.v2.session.create({ location: { directory } });
  const sessionID = (created.data as { data: { id: string } }).data.id;
  await client.v2.session.prompt({ sessionID, prompt: { text: 'List the files' } });
  await until(() => events.some((e) => e.type === 'permission.v2.asked'));
  const asked = events.find((e) => e.type === 'permission.v2.asked');
  const listed = await client.v2.session.permission.list({ sessionID });
  expect(JSON.stringify(listed.data)).toContain(asked?.data.id as string);
  const replied = await client.v2.session.permission.reply({
    sessionID,
    requestID: asked?.data.id as string,
    reply: 'once',
  });
  expect(replied.response.status).toBe(204);
  await until(() => events.some((e) => e.type === 'session.next.step.ended' && e.data.finish === 'stop'));
  const messages = await client.v2.session.messages({ sessionID });
  abort.abort();
  const mine = events.filter((e) => e.data?.sessionID === sessionID);
  return {
    events: mine.map((e) => e.type),
    messages: messages.data,
    bash: mine.find((e) => e.type === 'session.next.tool.called')?.data.input,
  };
}

const dir = mkdtempSync(join(tmpdir(), 'sim-real-turns-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * What two plays of one turn on two real runtimes share: the deltas come in chunks of any size, and
 * `session.next.context.updated` says the context the runtime gives the model has changed, which is the
 * runtime's own state, not the turn's (one play under load had one more, between the tool's step and the next).
 */
const ofTheTurn = (type: string) => !type.endsWith('.delta') && type !== 'session.next.context.updated';

it(
  'records real turns in front of the real runtime, replays them, and makes a scenario that plays them again',
  { ...skippedWhen(noRealRuntime()), timeout: 180_000 },
  async () => {
    const recording = join(dir, 'real-turns.yaml');
    const modelSide = join(dir, 'model.json');
    const runtime = await startRealRuntime({ scenario: SCENARIO, port: 0, pace: 0.1, record: modelSide });
    const directory = runtime.directory;
    let recorded: Played;
    try {
      const recorder = await startSimulator({ upstream: runtime.url, record: recording, port: 0 });
      try {
        recorded = await flow(recorder.url, runtime.directory);
      } finally {
        await recorder.close();
      }
    } finally {
      await runtime.stop();
    }
    expect(recorded.events).toEqual(
      expect.arrayContaining([
        'session.next.prompted',
        'session.next.reasoning.ended',
        'session.next.tool.called',
        'permission.v2.asked',
        'permission.v2.replied',
        'session.next.tool.success',
        'session.next.text.ended',
      ]),
    );
    expect(recorded.events.indexOf('permission.v2.asked')).toBeGreaterThan(
      recorded.events.indexOf('session.next.tool.called'),
    );
    expect(recorded.bash).toEqual({ command: 'echo listed' });

    // Offline first, alone: its stream replays on the recording's timing, and two real runtimes starting beside
    // it once put a permission's events ahead of the step that asked (1 run in about 8). The two plays on real
    // runtimes that follow need nothing of one another, and run side by side.
    await replayOffline(recording, directory, recorded);
    await Promise.all([playItsScenario(recording, recorded), playTheModelSide(modelSide, recorded)]);
  },
);

/** Offline: the same flow answered from the recording, its event stream included. */
async function replayOffline(recording: string, directory: string, recorded: Played): Promise<void> {
  const replayer = await startSimulator({ replay: recording, port: 0 });
  try {
    // The same requests (the workspace is named in them), though the runtime and its workspace are gone.
    expect(await flow(replayer.url, directory)).toEqual(recorded);
  } finally {
    await replayer.close();
  }
}

/**
 * A scenario from the recording: the prompt's turn as the runtime played it, held to the recording by
 * scenario-diff; then that scenario as the model of a real runtime, the same turn again (asked and answered
 * as before).
 */
async function playItsScenario(recording: string, recorded: Played): Promise<void> {
  const scenarioFile = join(dir, 'real-turns-scenario.yaml');
  const made = await runCli(['scenario-from', recording, '--out', scenarioFile]);
  expect(made.status, made.stderr).toBe(0);
  expect(made.stdout + made.stderr).toMatch(/, 0 depart;/);
  const scenario = parse(readFileSync(scenarioFile, 'utf8')) as {
    turns: Array<{ steps: Array<Record<string, unknown>> }>;
  };
  expect(scenario.turns).toHaveLength(1);
  const steps = scenario.turns[0]?.steps ?? [];
  expect(steps.map((s) => Object.keys(s)[0])).toEqual(['reasoning', 'tool', 'text']);
  expect(steps[1]).toMatchObject({ tool: 'bash', input: { command: 'echo listed' } });
  expect(String(steps[1]?.result)).toContain('listed');
  const diff = await runCli(['scenario-diff', scenarioFile, recording]);
  expect(diff.status, diff.stdout + diff.stderr).toBe(0);
  expect(diff.stdout).toMatch(/ 0 depart/);

  const again = await startRealRuntime({ scenario: { ...scenario, agents: SCENARIO.agents }, port: 0, pace: 0.1 });
  try {
    const played = await flow(again.url, again.directory);
    expect(played.events.filter(ofTheTurn)).toEqual(recorded.events.filter(ofTheTurn));
    expect(played.bash).toEqual(recorded.bash);
  } finally {
    await again.stop();
  }
}

/** The model's side, kept as it answered: a scenario with no turns at all, and the same turn plays again. */
async function playTheModelSide(modelSide: string, recorded: Played): Promise<void> {
  const kept = JSON.parse(readFileSync(modelSide, 'utf8')) as { calls: Array<{ turn: number; round: number }> };
  expect(kept.calls.map((c) => [c.turn, c.round])).toEqual([
    [1, 0],
    [1, 1],
  ]);
  const noTurns = { name: 'no-turns', seed: 'no-turns', agents: SCENARIO.agents };
  const replayed = await startRealRuntime({ scenario: noTurns, port: 0, pace: 0.1, replay: modelSide });
  try {
    const played = await flow(replayed.url, replayed.directory);
    expect(played.events.filter(ofTheTurn)).toEqual(recorded.events.filter(ofTheTurn));
    expect(replayed.model.stats().unscripted).toBe(0);
  } finally {
    await replayed.stop();
  }
}

/** The CLI, without holding this process's event loop (a runtime beside it is being driven meanwhile). */
function runCli(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [BIN, ...args], { encoding: 'utf8' }, (error, stdout, stderr) =>
      done({ status: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

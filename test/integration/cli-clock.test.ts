/**
 * Which clock runs: the CLI's mock (what `npm start` runs) follows the wall clock, so a person who prompts a
 * session sees its turn play with nobody advancing anything; `--virtual-time` keeps it still until advanced;
 * giving both is a usage error. The library entry points (startSimulator, the msw handlers) stay virtual by
 * default, as tests need. The CLI runs as a user runs it, on a real socket.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/index.js';
import { simulatorHandlers } from '../../src/msw/index.js';
import { DEFAULT_START } from '../../src/state/clock.js';
import { subscribeWithClient } from '../support/client-subscription.js';
import { until } from '../support/until.js';

const BIN = fileURLToPath(new URL('../../bin/session-agent-sim.js', import.meta.url));

type Frame = {
  type: string;
  data: { sessionID?: string; status?: { type: string }; finish?: string; id?: string };
};

/** Starts `mock` with `args`, gives `use` its URL and start-up lines, and stops it with SIGTERM. */
async function mock(args: string[], use: (url: string, out: string) => Promise<void>): Promise<void> {
  const child = spawn(process.execPath, [BIN, 'mock', '--port', '0', '--quiet', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  try {
    // The clock line is the last start-up line mock prints: once it is there, everything it says is.
    await until(() => /^clock: .*$/m.test(out), `the start-up lines of mock ${args.join(' ')}`, 45_000);
    const url = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1] as string;
    await use(url, out);
  } finally {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read field by field
type JsonObject = Record<string, any>;

async function post(url: string, body: unknown): Promise<JsonObject> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status, url).toBe(200);
  return (await res.json()) as JsonObject;
}

/** Creates a session and prompts it; the frames of that session on /api/event are collected from before. */
async function promptedSession(url: string) {
  const subscription = await subscribeWithClient<Frame>(url);
  const created = await post(`${url}/api/session`, { agent: 'build' });
  const sessionID = created.data.id as string;
  await post(`${url}/api/session/${sessionID}/prompt`, { prompt: { text: 'Add a dark mode toggle' } });
  const mine = () => subscription.frames.filter((f) => f.data?.sessionID === sessionID);
  // A generated turn may ask for a permission mid-turn (its session's id holds the wall time): let it, once.
  const answered = new Set<string>();
  const idle = () => {
    for (const f of mine())
      if (f.type === 'permission.v2.asked' && f.data.id && !answered.has(f.data.id)) {
        answered.add(f.data.id);
        void post(`${url}/api/session/${sessionID}/permission/${f.data.id}/reply`, { reply: 'once' });
      }
    return mine().some(
      (f) =>
        (f.type === 'session.next.step.ended' && f.data.finish !== 'tool-calls') ||
        f.type === 'session.next.step.failed',
    );
  };
  return { sessionID, mine, idle, stop: subscription.stop };
}

describe('the CLI clock', () => {
  it('follows the wall clock by default: a prompted turn plays to idle with no advance', async () => {
    await mock([], async (url, out) => {
      expect(out).toContain('clock: follows the wall clock');
      expect(out).toContain('--virtual-time keeps it still');
      const clock = (await (await fetch(`${url}/__sim/clock`)).json()) as { realTime: boolean; now: number };
      expect(clock.realTime).toBe(true);
      const turn = await promptedSession(url);
      try {
        // The generated turn for this prompt lasts about 7 s of wall time: 30 s leaves room for a loaded machine.
        await until(turn.idle, 'the turn to play to idle by itself', 30_000);
        const types = turn.mine().map((f) => f.type);
        expect(types).toContain('session.next.step.ended');
        expect(types.filter((t) => t === 'session.next.step.started').length).toBeGreaterThan(0);
      } finally {
        turn.stop();
      }
    });
  }, 90_000);

  it('stands still with --virtual-time until advanced, and says so', async () => {
    await mock(['--virtual-time'], async (url, out) => {
      expect(out).toContain(`clock: virtual, still at ${new Date(DEFAULT_START).toISOString()} until advanced`);
      const turn = await promptedSession(url);
      try {
        await until(() => turn.mine().some((f) => f.type === 'session.next.prompted'), 'the prompt taken up');
        // Long enough for the turn's first step under a flowing clock (its first token comes at 0.5-1.2 s).
        await new Promise((resolve) => setTimeout(resolve, 1500));
        const types = turn.mine().map((f) => f.type);
        expect(types.slice(types.indexOf('session.next.prompted') + 1)).toEqual([]);
        expect(turn.idle()).toBe(false);
        const clock = (await (await fetch(`${url}/__sim/clock`)).json()) as { realTime: boolean; now: number };
        expect(clock).toMatchObject({ realTime: false, now: DEFAULT_START });

        await post(`${url}/__sim/clock/advance`, { by: '1m' });
        await until(turn.idle, 'the turn to play once advanced');
        expect(turn.mine().map((f) => f.type)).toContain('session.next.step.ended');
      } finally {
        turn.stop();
      }
    });
  }, 90_000);

  it('takes --real-time, the default said explicitly', async () => {
    await mock(['--real-time'], async (url, out) => {
      expect(out).toContain('clock: follows the wall clock');
      expect(((await (await fetch(`${url}/__sim/clock`)).json()) as { realTime: boolean }).realTime).toBe(true);
    });
  }, 60_000);

  it('refuses --real-time with --virtual-time, saying which to give, exit 2', () => {
    const result = spawnSync(process.execPath, [BIN, 'mock', '--real-time', '--virtual-time', '--port', '0'], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('--real-time and --virtual-time contradict each other: give one');
    expect(result.stderr).toContain('session-agent-sim mock --help');
  });

  it('offers --virtual-time on mock alone: the other serving commands serve no world', () => {
    const help = spawnSync(process.execPath, [BIN, 'mock', '--help'], { encoding: 'utf8', timeout: 20_000 }).stdout;
    expect(help).toMatch(/--virtual-time +keep the clock still/);
    expect(help).toMatch(/--real-time +let the clock follow wall time.*mock does so unless\s+--virtual-time/s);
    const replay = spawnSync(process.execPath, [BIN, 'replay', '--recording', 'r.yaml', '--virtual-time'], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(replay.status).toBe(2);
    expect(replay.stderr).toContain('replay does not take --virtual-time; it is an option of mock.');
  });
});

describe('the library clock', () => {
  it('stays virtual in startSimulator unless realTime is asked for', async () => {
    const sim = await startSimulator({ scenario: 'default' });
    try {
      const clock = (await (await fetch(`${sim.url}/__sim/clock`)).json()) as { realTime: boolean; now: number };
      expect(clock).toMatchObject({ realTime: false, now: DEFAULT_START });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await sim.clock.now()).toBe(DEFAULT_START);
    } finally {
      await sim.close();
    }
  });

  it('stays virtual in the msw handlers unless realTime is asked for', async () => {
    const sim = await simulatorHandlers({ scenario: 'default' });
    try {
      expect((await sim.state()).realTime).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await sim.clock.now()).toBe(DEFAULT_START);
    } finally {
      await sim.close();
    }
  });
});

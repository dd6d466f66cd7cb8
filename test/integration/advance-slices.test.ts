/**
 * A long clock advance over HTTP works in slices: another partition is answered while it runs, a request to
 * the same partition waits for it and then reads the world at the new now, a queue full of prompts is
 * refused with the simulator's limit error, and SIGTERM stops the CLI in the middle of such an advance.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type SimulatorHandle } from '../../src/index.js';
import { SESSION_LIMITS } from '../../src/kinds/session/limits.js';

/** Sessions whose one scripted turn streams 20,000 one-character deltas: 60,000 events to play in all. */
const LONG = Array.from({ length: 3 }, (_, i) => `ses_dfc5ae513ffeLongTurn${i}AbCdEf`);
const SCENARIO = {
  name: 'long-turns',
  seed: 'long-turns',
  sessions: LONG.map((id) => ({ id })),
  turns: LONG.map((session) => ({ session, steps: [{ text: 'x'.repeat(20_000), chunk: 1, every: '1ms' }] })),
};

let sim: SimulatorHandle;
beforeAll(async () => {
  sim = await startSimulator({ scenario: SCENARIO });
}, 60_000);
afterAll(async () => {
  await sim.close();
});

const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('a long clock advance', () => {
  it('lets another partition answer meanwhile, and holds its own partition until it is done', async () => {
    const a = sim.partition('slices-a');
    const b = sim.partition('slices-b');
    for (const id of LONG)
      expect((await post(`${a.url}/api/session/${id}/synthetic`, { text: 'go' })).status).toBe(204);
    const before = await a.clock.now();
    const eventsOf = async (name: string) => {
      const listed = (await (await fetch(`${sim.url}/__sim/partitions`)).json()) as {
        partitions: Array<{ name: string; events: number }>;
      };
      return listed.partitions.find((p) => p.name === name)?.events ?? 0;
    };
    const startedWith = await eventsOf('slices-a');

    const order: string[] = [];
    const advanced = post(`${a.url}/__sim/clock/advance`, { by: '1h' }).then(async (res) => {
      order.push('a advanced');
      return { status: res.status, body: (await res.json()) as { now: number } };
    });
    // Under way: the partition's log grows as the turns play, slice by slice (asked of the default partition,
    // which does not wait for it).
    for (let polls = 0; (await eventsOf('slices-a')) <= startedWith + 100; polls++) {
      if (polls > 3000) throw new Error('the advance never started playing the turns');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const sameWhileAdvancing = fetch(`${a.url}/__sim/clock`).then(async (res) => {
      order.push('a clock read');
      return (await res.json()) as { now: number };
    });
    const other = await fetch(`${b.url}/api/session/${LONG[0]}`);
    order.push('b answered');
    expect(other.status).toBe(200);

    const { status, body } = await advanced;
    expect(status).toBe(200);
    expect(body.now).toBe(before + 3_600_000);
    // The other partition was answered before the advance was done; the same partition's read waited for it.
    expect(order.indexOf('b answered')).toBeLessThan(order.indexOf('a advanced'));
    expect((await sameWhileAdvancing).now).toBe(before + 3_600_000);
    expect(order.at(-1)).toBe('a clock read');
    // Every turn played to its end.
    const state = (await a.state()) as { sessions?: Array<{ state: string }> };
    expect(state.sessions?.map((s) => s.state)).toEqual(['idle', 'idle', 'idle']);
  }, 120_000);

  it('refuses a prompt past a session queue bound with a 429 SimResourceLimitError', async () => {
    const c = sim.partition('slices-c');
    const id = LONG[1] as string;
    const prompt = () => post(`${c.url}/api/session/${id}/prompt`, { prompt: { text: 'more' }, delivery: 'queue' });
    for (let i = 0; i <= SESSION_LIMITS.queuedPrompt; i++) expect((await prompt()).status).toBe(200);
    const refused = await prompt();
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ _tag: 'SimResourceLimitError', max: SESSION_LIMITS.queuedPrompt });
    expect(String(body.hint)).toContain('/__sim/clock/advance');
  }, 60_000);
});

const BIN = fileURLToPath(new URL('../../bin/session-agent-sim.js', import.meta.url));

describe('SIGTERM during a long clock advance', () => {
  it('stops the CLI within the shutdown grace, without waiting for the advance to finish', async () => {
    // 16 sessions, each with ten turns of 5,000 one-character deltas queued: 800,000 events, far more than the
    // grace period lets it play on any machine.
    const ids = Array.from({ length: 16 }, (_, i) => `ses_dfc5ae513ffeSigterm${String(i).padStart(2, '0')}AbCdE`);
    const turn = { steps: [{ text: 'y'.repeat(5000), chunk: 1, every: '1ms' }] };
    const scenario = {
      name: 'long-turns',
      seed: 'sigterm',
      sessions: ids.map((id) => ({ id })),
      turns: ids.flatMap((session) => Array.from({ length: 10 }, () => ({ session, ...turn }))),
    };
    const dir = mkdtempSync(join(tmpdir(), 'sim-advance-term-'));
    const file = join(dir, 'long-turns.yaml');
    writeFileSync(file, JSON.stringify(scenario));
    const child = spawn(
      process.execPath,
      [BIN, 'mock', '--virtual-time', '--port', '0', '--quiet', '--scenario', file],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      let out = '';
      let err = '';
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no start-up line: ${out}${err}`)), 30_000);
        child.once('exit', () => reject(new Error(`exited before it listened: ${out}${err}`)));
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const match = /(http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (match?.[1]) {
            clearTimeout(timer);
            resolve(match[1]);
          }
        });
      });
      const busy = `${url}/__partition/busy`;
      for (const id of ids)
        for (let n = 0; n < 10; n++)
          expect((await post(`${busy}/api/session/${id}/synthetic`, { text: 'go' })).status).toBe(204);
      const eventsNow = async () => {
        const listed = (await (await fetch(`${url}/__sim/partitions`)).json()) as {
          partitions: Array<{ name: string; events: number }>;
        };
        return listed.partitions.find((p) => p.name === 'busy')?.events ?? 0;
      };
      const startedWith = await eventsNow();
      const advance = post(`${busy}/__sim/clock/advance`, { by: '1h' }).then(
        (res) => `answered ${res.status}`,
        () => 'cut',
      );
      for (let polls = 0; (await eventsNow()) <= startedWith + 1000; polls++) {
        if (polls > 3000) throw new Error('the advance never started playing the turns');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const signalled = Date.now();
      child.kill('SIGTERM');
      const [code] = await once(child, 'exit');
      const took = Date.now() - signalled;
      // The grace for answers in flight is 5 s; the advance, an answer in flight, is cut after it.
      expect(took).toBeLessThan(9000);
      expect(code).toBe(0);
      // Closing disposes the partition's clock, which ends the advance where it stands: its answer is cut, or
      // written just before its connection is (a race the machine's speed decides). Either way it is over.
      expect(['cut', 'answered 200']).toContain(await advance);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

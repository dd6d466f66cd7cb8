/**
 * `realTime`: the clock starts at the wall clock's now and the scenario's instants keep their distance from
 * its start (a date-time it wrote too), unless the scenario pins `start`. Over a real socket with the handle.
 */
import { describe, expect, it } from 'vitest';
import { defineScenario, startSimulator, type SimulatorHandle } from '../../src/index.js';
import { DEFAULT_START } from '../../src/state/clock.js';

const SES = 'ses_dfc5ae513ffePKUBK7HkVp5zCB';
const SHELL = 'sh_203a7e5c7001OpQrStUvWxYzAb';
const LATER = 'sh_203a7e5c7002LaterShellAbCd';
const TWO_MINUTES = 120_000;
/** What "within a second" allows a request's round trip. */
const SLACK = 1_000;

/** Written against no `start`: the default one, so its date-time is two minutes before it. */
const scenario = (extra: { start?: string } = {}) =>
  defineScenario({
    name: 'ages',
    sessions: [
      {
        id: SES,
        title: 'Two messages old',
        // Messages without `at` lie before the start, 45 s apart: the first 90 s before it.
        messages: [
          { type: 'user', text: 'first' },
          { type: 'user', text: 'second' },
        ],
      },
    ],
    shells: [
      { id: SHELL, command: 'npm run dev', starts: new Date(DEFAULT_START - TWO_MINUTES).toISOString() },
      { id: LATER, command: 'npm test', starts: '10s' },
    ],
    ...extra,
  });

type JsonObject = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function json(sim: SimulatorHandle, path: string): Promise<JsonObject> {
  const res = await fetch(`${sim.url}${path}`);
  expect(res.status, path).toBe(200);
  return (await res.json()) as JsonObject;
}

async function started(sim: SimulatorHandle, id: string): Promise<number> {
  return (await json(sim, `/api/shell/${id}`)).data.time.started as number;
}

/** Runs `act` between two readings of the wall clock. */
async function between<T>(act: () => Promise<T>): Promise<{ value: T; from: number; to: number }> {
  const from = Date.now();
  const value = await act();
  return { value, from, to: Date.now() };
}

describe('real time', () => {
  it('starts the clock at the wall clock and keeps every instant as far from it as the scenario wrote', async () => {
    // The world starts while the simulator starts: its start lies between these two readings.
    const { value: sim, from, to } = await between(() => startSimulator({ realTime: true, scenario: scenario() }));
    try {
      // The clock reads the wall clock: its answer lies within the request's round trip.
      const clock = await between(() => json(sim, '/__sim/clock'));
      expect(clock.value.realTime).toBe(true);
      expect(clock.value.now).toBeGreaterThanOrEqual(clock.from);
      expect(clock.value.now).toBeLessThanOrEqual(clock.to);
      expect(clock.to - clock.from).toBeLessThan(SLACK);
      const handle = await between(() => sim.clock.now());
      expect(handle.value).toBeGreaterThanOrEqual(handle.from);
      expect(handle.value).toBeLessThanOrEqual(handle.to);

      // The first message 90 s before the start, the date-time two minutes before the default start: as long ago.
      const created = (await json(sim, `/api/session/${SES}`)).data.time.created as number;
      expect(created).toBeGreaterThanOrEqual(from - 90_000);
      expect(created).toBeLessThanOrEqual(to - 90_000);
      const shell = await started(sim, SHELL);
      expect(shell).toBeGreaterThanOrEqual(from - TWO_MINUTES);
      expect(shell).toBeLessThanOrEqual(to - TWO_MINUTES);

      // A duration counts from the start: the later shell exists 10 s after it, not before.
      expect((await fetch(`${sim.url}/api/shell/${LATER}`)).status).toBe(404);
      await sim.clock.advance('10s');
      expect((await started(sim, LATER)) - shell).toBe(TWO_MINUTES + 10_000);
    } finally {
      await sim.close();
    }
  });

  it('starts a world again at the new now on a reset', async () => {
    const sim = await startSimulator({ realTime: true, scenario: scenario() });
    try {
      await sim.clock.advance('1h');
      expect((await sim.clock.now()) - Date.now()).toBeGreaterThan(TWO_MINUTES);
      const { from, to } = await between(() => sim.reset());
      const now = await between(() => sim.clock.now());
      expect(now.value).toBeGreaterThanOrEqual(now.from);
      expect(now.value).toBeLessThanOrEqual(now.to);
      const shell = await started(sim, SHELL);
      expect(shell).toBeGreaterThanOrEqual(from - TWO_MINUTES);
      expect(shell).toBeLessThanOrEqual(to - TWO_MINUTES);
    } finally {
      await sim.close();
    }
  });

  it('keeps a pinned start: the clock begins there and flows with the wall clock', async () => {
    const start = '2026-11-22T10:00:00.000Z';
    const sim = await startSimulator({ realTime: true, scenario: scenario({ start }) });
    try {
      const now = await sim.clock.now();
      expect(now - Date.parse(start)).toBeGreaterThanOrEqual(0);
      expect(now - Date.parse(start)).toBeLessThan(SLACK * 10);
      expect(await started(sim, SHELL)).toBe(DEFAULT_START - TWO_MINUTES);
    } finally {
      await sim.close();
    }
  });

  it('leaves a simulator without real time at the fixed start', async () => {
    const sim = await startSimulator({ scenario: scenario() });
    try {
      expect(await sim.clock.now()).toBe(DEFAULT_START);
      expect(await started(sim, SHELL)).toBe(DEFAULT_START - TWO_MINUTES);
      expect((await json(sim, `/api/session/${SES}`)).data.time.created).toBe(DEFAULT_START - 90_000);
    } finally {
      await sim.close();
    }
  });
});

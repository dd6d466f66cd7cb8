/**
 * `realTime`: the clock starts at the wall clock's now and the scenario's instants keep their distance from
 * its start (a date-time it wrote too), unless the scenario pins `start`. Over a real socket with the handle.
 */
import { describe, expect, it } from 'vitest';
import { startSimulator, type SimulatorHandle } from '../../src/index.js';
import { DEFAULT_START } from '../../src/state/clock.js';

const SES = 'ses_dfc5ae513ffePKUBK7HkVp5zCB';
const SHELL = 'sh_203a7e5c7001OpQrStUvWxYzAb';
const LATER = 'sh_203a7e5c7002LaterShellAbCd';
const TWO_MINUTES = 120_000;
/** How far apart two readings of "now" may be: the request's round trip on a loaded machine. */
const SLACK = 1_000;

/** Written against no `start`: the default one, so its date-time is two minutes before it. */
const scenario = (extra: Record<string, unknown> = {}) => ({
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

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function json(sim: SimulatorHandle, path: string): Promise<Json> {
  const res = await fetch(`${sim.url}${path}`);
  expect(res.status, path).toBe(200);
  return (await res.json()) as Json;
}

async function started(sim: SimulatorHandle, id: string): Promise<number> {
  return (await json(sim, `/api/shell/${id}`)).data.time.started as number;
}

describe('real time', () => {
  it('starts the clock at the wall clock and keeps every instant as far from it as the scenario wrote', async () => {
    const sim = await startSimulator({ realTime: true, scenario: scenario() });
    try {
      const clock = await json(sim, '/__sim/clock');
      expect(clock.realTime).toBe(true);
      expect(Math.abs(clock.now - Date.now())).toBeLessThan(SLACK);
      expect(Math.abs((await sim.clock.now()) - Date.now())).toBeLessThan(SLACK);

      const session = (await json(sim, `/api/session/${SES}`)).data;
      expect(Math.abs(session.time.created - (Date.now() - 90_000))).toBeLessThan(SLACK);
      // A date-time written before the default start reads as long before now.
      expect(Math.abs((await started(sim, SHELL)) - (Date.now() - TWO_MINUTES))).toBeLessThan(SLACK);

      // A duration counts from the start: the later shell exists 10 s after it, not before.
      expect((await fetch(`${sim.url}/api/shell/${LATER}`)).status).toBe(404);
      await sim.clock.advance('10s');
      // It started 10 s after the start, which came shortly before the clock was first read.
      const later = (await started(sim, LATER)) - clock.now;
      expect(later).toBeLessThanOrEqual(10_000);
      expect(later).toBeGreaterThan(10_000 - SLACK);
    } finally {
      await sim.close();
    }
  });

  it('starts a world again at the new now on a reset', async () => {
    const sim = await startSimulator({ realTime: true, scenario: scenario() });
    try {
      await sim.clock.advance('1h');
      expect((await sim.clock.now()) - Date.now()).toBeGreaterThan(TWO_MINUTES);
      await sim.reset();
      expect(Math.abs((await sim.clock.now()) - Date.now())).toBeLessThan(SLACK);
      expect(Math.abs((await started(sim, SHELL)) - (Date.now() - TWO_MINUTES))).toBeLessThan(SLACK);
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
      expect(now - Date.parse(start)).toBeLessThan(SLACK);
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

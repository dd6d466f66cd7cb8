/**
 * The clock's timers as a heap: they fire in the order the scan of every key fired them before (time, then
 * the order keys were set), however they are moved, cancelled and set while firing; and an advance in slices
 * fires the same timers at the same instants while the event loop serves others between its slices.
 */
import { describe, expect, it } from 'vitest';
import { createClock, DEFAULT_START, type Clock } from '../../../src/state/clock.js';
import { createRandom } from '../../../src/state/random.js';

/**
 * The clock as it was before the heap: a Map scanned for the soonest timer at each firing, the first in
 * insertion order winning a tie. Kept here as the reference the heap must agree with.
 */
function scanClock(onDue: (key: string, at: number) => void) {
  const due = new Map<string, number>();
  let now = DEFAULT_START;
  let pinned: number | undefined;
  const soonest = () => {
    let best: [string, number] | undefined;
    for (const entry of due) if (!best || entry[1] < best[1]) best = entry;
    return best;
  };
  return {
    now: () => pinned ?? now,
    schedule(key: string, at: number | undefined) {
      if (at === undefined) due.delete(key);
      else due.set(key, at);
    },
    advance(ms: number) {
      const target = now + ms;
      now = target;
      for (let next = soonest(); next && next[1] <= target; next = soonest()) {
        due.delete(next[0]);
        pinned = next[1];
        onDue(next[0], next[1]);
        pinned = undefined;
      }
    },
    timers: () => [...due].map(([key, at]) => ({ key, at })).sort((a, b) => a.at - b.at),
  };
}

type Scheduler = Pick<Clock, 'schedule' | 'timers' | 'now'> & { advance(ms: number): unknown };

/**
 * A seeded run of schedules, moves, cancels and advances, with timers that set others as they fire (as a
 * resource's next instant is set when it fires): what fired, in order, with the instant each read.
 */
function drive(make: (onDue: (key: string, at: number) => void) => Scheduler, seed: string) {
  const random = createRandom(seed);
  const pick = (n: number) => Math.floor(random.next() * n);
  const fired: string[] = [];
  const clock = make((key, at) => {
    fired.push(`${key}@${at - DEFAULT_START}@${clock.now() - DEFAULT_START}`);
    // Coarse instants, so that ties are common: they are where an order could differ.
    if (pick(3) > 0) clock.schedule(key, clock.now() + pick(4) * 100);
    if (pick(4) === 0) clock.schedule(`k${pick(40)}`, clock.now() + pick(3) * 100);
  });
  const snapshots: unknown[] = [];
  for (let step = 0; step < 2000; step++) {
    const key = `k${pick(40)}`;
    const roll = pick(10);
    if (roll < 5) clock.schedule(key, clock.now() + pick(8) * 100);
    else if (roll < 7) clock.schedule(key, undefined);
    else clock.advance(pick(5) * 100);
    if (step % 100 === 0) snapshots.push(clock.timers());
  }
  return { fired, snapshots, timers: clock.timers() };
}

describe('clock timers', () => {
  it('fire in the same order, at the same instants, as a scan of every key did, over a seeded run', () => {
    for (const seed of ['a', 'b', 'c']) {
      const heap = drive((onDue) => createClock({ onDue }), seed);
      const scan = drive(scanClock, seed);
      expect(heap.fired.length).toBeGreaterThan(500);
      expect(heap.fired).toEqual(scan.fired);
      expect(heap.snapshots).toEqual(scan.snapshots);
      expect(heap.timers).toEqual(scan.timers);
    }
  });

  it('break a tie by when the key was set: a moved key keeps its place, one cancelled and set again goes last', () => {
    const fired: string[] = [];
    const clock = createClock({ onDue: (key) => fired.push(key) });
    const at = DEFAULT_START + 1000;
    for (const key of ['a', 'b', 'c', 'd']) clock.schedule(key, at + 500);
    clock.schedule('a', at); // moved: keeps its place, first
    clock.schedule('b', undefined);
    clock.schedule('b', at); // cancelled and set again: last
    clock.schedule('c', at);
    clock.schedule('d', at);
    expect(clock.timers().map((t) => t.key)).toEqual(['a', 'c', 'd', 'b']);
    clock.advance(1000);
    expect(fired).toEqual(['a', 'c', 'd', 'b']);
  });

  it('keeps only the live timers however often they move, and fires each once', () => {
    const fired: string[] = [];
    const clock = createClock({ onDue: (key) => fired.push(key) });
    for (let round = 0; round < 5000; round++) clock.schedule(`k${round % 10}`, DEFAULT_START + 1000 + round);
    expect(clock.timers()).toHaveLength(10);
    clock.advance(10_000);
    expect(fired).toEqual(['k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7', 'k8', 'k9']);
    expect(clock.timers()).toEqual([]);
  });
});

describe('an advance in slices', () => {
  /** A clock with a timer every 10 ms for `count` timers, noting what fired and what `now` read then. */
  const ticking = (count: number) => {
    const fired: Array<[string, number]> = [];
    const clock = createClock({ onDue: (key) => fired.push([key, clock.now() - DEFAULT_START]) });
    for (let i = 1; i <= count; i++) clock.schedule(`t${i}`, DEFAULT_START + i * 10);
    return { clock, fired };
  };

  it('fires what a plain advance fires, and lets the event loop run between its slices', async () => {
    const plain = ticking(50);
    plain.clock.advance(1000);
    const sliced = ticking(50);
    // A slice of no time still fires one timer: fifty timers, fifty slices.
    const between: Array<[number, number]> = [];
    const watch = () => {
      between.push([sliced.fired.length, sliced.clock.now() - DEFAULT_START]);
      if (sliced.fired.length < 50) setImmediate(watch);
    };
    setImmediate(watch);
    const now = await sliced.clock.advanceInSlices(1000, 0);
    expect(now).toBe(DEFAULT_START + 1000);
    expect(sliced.fired).toEqual(plain.fired);
    expect(between.length).toBeGreaterThan(10);
    // Between slices time reads the instant of the last timer fired: never ahead of what has happened.
    for (const [count, at] of between.filter(([count]) => count > 0 && count < 50)) expect(at).toBe(count * 10);
  });

  it('runs advances one after another, each from where the one before it ended', async () => {
    const { clock, fired } = ticking(30);
    const first = clock.advanceInSlices(100, 0);
    const second = clock.advanceInSlices(100, 0);
    expect(await first).toBe(DEFAULT_START + 100);
    expect(await second).toBe(DEFAULT_START + 200);
    expect(fired.map(([key]) => key)).toEqual(Array.from({ length: 20 }, (_, i) => `t${i + 1}`));
  });

  it('stops at a reset, leaving the clock at the reset start, and does not fire from settle meanwhile', async () => {
    const { clock, fired } = ticking(100);
    const advancing = clock.advanceInSlices(1000, 0);
    await new Promise((resolve) => setImmediate(resolve));
    const before = fired.length;
    clock.settle();
    expect(fired.length).toBe(before);
    clock.reset(DEFAULT_START);
    await advancing;
    expect(fired.length).toBeLessThan(100);
    expect(clock.now()).toBe(DEFAULT_START);
  });

  it('refuses a negative amount at the call', () => {
    const clock = createClock();
    expect(() => clock.advanceInSlices(-1)).toThrow(RangeError);
  });
});

/**
 * The virtual clock of a partition: the only place that may read real time, and only when asked to
 * (`realTime`). By default time starts at a fixed instant and moves only when advanced, so answers are
 * reproducible. It holds the partition's timers (one per key, e.g. one per resource): advancing fires each
 * timer that falls due on the way, in time order, with `now()` reading that timer's own instant while it
 * fires, so whatever it changes happens at the right virtual time.
 */
import { MAX_TIME, MAX_TIME_ISO } from '../duration.js';

export const DEFAULT_START = Date.UTC(2026, 10, 22, 9, 0, 0); // near the spec examples' timestamps

export interface Clock {
  now(): number;
  /** Moves time forward, firing the timers due on the way; returns the new now. */
  advance(ms: number): number;
  /** Fires the timers due by now: in real-time mode wall time moves by itself, so callers settle before reading state. */
  settle(): void;
  /** Sets (or moves) the timer under `key`; `undefined` cancels it. */
  schedule(key: string, at: number | undefined): void;
  /** The timers still to fire, soonest first. */
  timers(): Array<{ key: string; at: number }>;
  /**
   * Back to a start instant with no timers, as if just created. In real time `at` is the wall instant that
   * start stands for (default: now), so time spent setting up a world still counts.
   */
  reset(start: number, at?: number): void;
  /** Stops the real-time wake-up (a deleted partition must not keep the process busy). */
  dispose(): void;
  readonly realTime: boolean;
}

export interface ClockOptions {
  start?: number;
  realTime?: boolean;
  /** Called for each timer as it falls due, with now() reading `at`. */
  onDue?: (key: string, at: number) => void;
}

export function createClock(options: ClockOptions = {}): Clock {
  const realTime = options.realTime ?? false;
  const onDue = options.onDue ?? (() => {});
  const due = new Map<string, number>();
  let start = options.start ?? DEFAULT_START;
  let origin = realTime ? Date.now() : 0;
  let offset = 0;
  /** While a timer fires, time reads its instant (real time would otherwise have moved past it). */
  let pinned: number | undefined;
  let wake: NodeJS.Timeout | undefined;

  const flowing = () => (realTime ? start + (Date.now() - origin) : start) + offset;
  const now = () => pinned ?? flowing();

  const soonest = (): [string, number] | undefined => {
    let best: [string, number] | undefined;
    for (const entry of due) if (!best || entry[1] < best[1]) best = entry;
    return best;
  };

  /** Fires every timer due by `until` in time order; timers set while firing are considered too. */
  const fireUntil = (until: number) => {
    for (let next = soonest(); next && next[1] <= until; next = soonest()) {
      const [key, at] = next;
      due.delete(key);
      pinned = Math.max(at, pinned ?? at);
      try {
        onDue(key, pinned);
      } finally {
        pinned = undefined;
      }
    }
  };

  // In real-time mode nobody advances the clock: wake up when the next timer is due so its change happens
  // (and is announced) on time rather than at the next request. A commit reschedules every resource's timer
  // at once, so re-arming waits for the end of the current task and touches the timeout only if the soonest
  // instant moved.
  let armQueued = false;
  let armedAt: number | undefined;
  const rearm = () => {
    armQueued = false;
    const next = soonest()?.[1];
    if (next === armedAt && (wake !== undefined || next === undefined)) return;
    if (wake) clearTimeout(wake);
    wake = undefined;
    armedAt = next;
    if (next === undefined) return;
    wake = setTimeout(
      () => {
        wake = undefined;
        armedAt = undefined;
        clock.settle();
      },
      Math.max(0, next - flowing()),
    );
    wake.unref();
  };
  const arm = () => {
    if (!realTime || armQueued) return;
    armQueued = true;
    queueMicrotask(rearm);
  };

  const clock: Clock = {
    realTime,
    now,
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError('advance needs a non-negative number of milliseconds');
      const target = flowing() + ms;
      // Checked before anything moves: a clock past what a Date holds would fail every later answer.
      if (target > MAX_TIME) throw new RangeError(`advance would take the clock past ${MAX_TIME_ISO}`);
      offset += ms;
      // Timers fire at their own instants even though offset already moved: pinned time says when.
      fireUntil(target);
      arm();
      return now();
    },
    settle() {
      fireUntil(flowing());
      arm();
    },
    schedule(key, at) {
      if (at === undefined) due.delete(key);
      else due.set(key, at);
      arm();
    },
    timers: () => [...due].map(([key, at]) => ({ key, at })).sort((a, b) => a.at - b.at),
    reset(at, wall) {
      start = at;
      offset = 0;
      origin = realTime ? (wall ?? Date.now()) : 0;
      due.clear();
      arm();
    },
    dispose() {
      due.clear();
      if (wake) clearTimeout(wake);
      wake = undefined;
      armedAt = undefined;
    },
  };
  return clock;
}

/** Wall time in ms, for what is about real time by nature (recording timings, upstream latency). */
export function wallClock(): number {
  return Date.now();
}

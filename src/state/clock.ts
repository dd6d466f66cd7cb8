/**
 * The virtual clock: the only place that may read real time, and only when asked to (`realTime`).
 * By default time starts at a fixed instant and moves only when advanced, so answers are reproducible.
 */
export const DEFAULT_START = Date.UTC(2026, 10, 22, 9, 0, 0); // near the spec examples' timestamps

export interface Clock {
  now(): number;
  advance(ms: number): number;
  /** Back to a start instant (a scenario's), as if just created. */
  reset(start: number): void;
  readonly realTime: boolean;
}

export function createClock(options: { start?: number; realTime?: boolean } = {}): Clock {
  const realTime = options.realTime ?? false;
  let offset = 0;
  let start = options.start ?? DEFAULT_START;
  let origin = realTime ? Date.now() : 0;
  return {
    realTime,
    now: () => (realTime ? start + (Date.now() - origin) : start) + offset,
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError('advance needs a non-negative number of milliseconds');
      offset += ms;
      return this.now();
    },
    reset(at) {
      start = at;
      offset = 0;
      origin = realTime ? Date.now() : 0;
    },
  };
}

/** Wall time in ms, for what is about real time by nature (recording timings, upstream latency). */
export function wallClock(): number {
  return Date.now();
}

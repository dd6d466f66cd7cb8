/**
 * The virtual clock of a partition: the only place that may read real time, and only when asked to
 * (`realTime`). By default time starts at a fixed instant and moves only when advanced, so answers are
 * reproducible. It holds the partition's timers (one per key, e.g. one per resource): advancing fires each
 * timer that falls due on the way, in time order, with `now()` reading that timer's own instant while it
 * fires, so whatever it changes happens at the right virtual time.
 *
 * The timers are a binary min-heap over (instant, order of arrival), so finding the next one costs O(log n)
 * and an advance costs what it fires, however many timers wait; a timer moved or cancelled leaves its old
 * entry behind, skipped when it surfaces (the heap is rebuilt once such entries outnumber the live ones).
 * Timers due at the same instant fire in the order their keys were set (a key moved keeps its place; one
 * fired or cancelled and set again goes last), as a scan of the keys in insertion order would pick them.
 */
import { MAX_TIME, MAX_TIME_ISO } from '../text/duration.js';

export const DEFAULT_START = Date.UTC(2026, 10, 22, 9, 0, 0); // near the spec examples' timestamps

/** How long an advance in slices works before it lets the event loop serve others (`advanceInSlices`). */
export const ADVANCE_SLICE_MS = 10;

export interface Clock {
  now(): number;
  /** Moves time forward, firing the timers due on the way; returns the new now. */
  advance(ms: number): number;
  /**
   * Moves time forward as `advance` does, but hands the event loop back after each `sliceMs` of work, so a
   * long advance (thousands of turns to play) does not stop everything else the process serves. Between
   * slices `now()` reads the instant of the last timer fired: the world as it stood then, never ahead of
   * what has fired. Advances in slices run one after another; a reset or dispose ends one under way.
   */
  advanceInSlices(ms: number, sliceMs?: number): Promise<number>;
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

interface Timer {
  readonly key: string;
  readonly at: number;
  /** When its key was set, for the order of timers due at the same instant. */
  readonly order: number;
}

const before = (a: Timer, b: Timer) => a.at < b.at || (a.at === b.at && a.order < b.order);

/** One advance under way: where it started and where it ends. */
interface Run {
  /** The offset before it, and the instant (flowing time) it started from. */
  readonly offset: number;
  readonly from: number;
  readonly ms: number;
  /** The reset count when it started: a reset or dispose since ends it. */
  readonly epoch: number;
}

/** The event loop's next turn: setImmediate in Node, a zero timeout where there is none (a browser). */
const nextTurn = (): Promise<void> =>
  new Promise((resolve) => (typeof setImmediate === 'function' ? setImmediate(resolve) : setTimeout(resolve, 0)));

export function createClock(options: ClockOptions = {}): Clock {
  const realTime = options.realTime ?? false;
  const onDue = options.onDue ?? (() => {});
  /** The live timer of each key; the heap may also hold stale entries, which `due` no longer points at. */
  const due = new Map<string, Timer>();
  let heap: Timer[] = [];
  let arrivals = 0;
  let start = options.start ?? DEFAULT_START;
  let origin = realTime ? Date.now() : 0;
  let offset = 0;
  /** While a timer fires, time reads its instant (real time would otherwise have moved past it). */
  let pinned: number | undefined;
  let wake: ReturnType<typeof setTimeout> | undefined;
  let epoch = 0;
  /** The advances in slices, one after another: the last one queued. */
  let queued: Promise<unknown> = Promise.resolve();
  let slicing = 0;

  const flowing = () => (realTime ? start + (Date.now() - origin) : start) + offset;
  const now = () => pinned ?? flowing();

  const up = (i: number) => {
    const timer = heap[i] as Timer;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const above = heap[parent] as Timer;
      if (!before(timer, above)) break;
      heap[i] = above;
      i = parent;
    }
    heap[i] = timer;
  };
  const down = (i: number) => {
    const timer = heap[i] as Timer;
    const n = heap.length;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      const right = left + 1;
      const child = right < n && before(heap[right] as Timer, heap[left] as Timer) ? right : left;
      if (!before(heap[child] as Timer, timer)) break;
      heap[i] = heap[child] as Timer;
      i = child;
    }
    heap[i] = timer;
  };
  const removeTop = () => {
    const last = heap.pop() as Timer;
    if (heap.length === 0) return;
    heap[0] = last;
    down(0);
  };
  /** Stale entries cost memory and time once they outnumber the live timers: rebuild from the live ones. */
  const compact = () => {
    if (heap.length < 64 || heap.length <= 2 * due.size) return;
    heap = [...due.values()];
    for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
  };

  const soonest = (): Timer | undefined => {
    for (let top = heap[0]; top; top = heap[0]) {
      if (due.get(top.key) === top) return top;
      removeTop();
    }
    return undefined;
  };

  /**
   * Fires the timers due by `until` in time order (timers set while firing are considered too), moving the
   * run's offset along with them. Stops early, returning false, once `deadline` (performance.now()) passes.
   */
  const fireUntil = (until: number, run?: Run, deadline?: number): boolean => {
    let fired = 0;
    for (let next = soonest(); next && next.at <= until; next = soonest(), fired++) {
      if (run && run.epoch !== epoch) return true;
      // At least one timer a slice, so a slice always gets somewhere.
      if (deadline !== undefined && fired > 0 && performance.now() >= deadline) return false;
      const { key, at } = next;
      removeTop();
      due.delete(key);
      // Time reaches the timer's instant, never past the advance's end nor back from where it is.
      if (run) offset = Math.max(offset, run.offset + Math.min(run.ms, at - run.from));
      pinned = Math.max(at, pinned ?? at);
      try {
        onDue(key, pinned);
      } finally {
        pinned = undefined;
      }
    }
    return true;
  };

  const begin = (ms: number): Run => {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('advance needs a non-negative number of milliseconds');
    const from = flowing();
    // Checked before anything moves: a clock past what a Date holds would fail every later answer.
    if (from + ms > MAX_TIME) throw new RangeError(`advance would take the clock past ${MAX_TIME_ISO}`);
    return { offset, from, ms, epoch };
  };
  const finish = (run: Run) => {
    if (run.epoch === epoch) offset = Math.max(offset, run.offset + run.ms);
  };

  // In real-time mode nobody advances the clock: wake up when the next timer is due so its change happens
  // (and is announced) on time rather than at the next request. A commit may reschedule many timers at once,
  // so re-arming waits for the end of the current task and touches the timeout only if the soonest instant
  // moved.
  let armQueued = false;
  let armedAt: number | undefined;
  const rearm = () => {
    armQueued = false;
    const next = soonest()?.at;
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
    (wake as { unref?: () => void }).unref?.();
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
      const run = begin(ms);
      fireUntil(run.from + ms, run);
      finish(run);
      arm();
      return now();
    },
    advanceInSlices(ms, sliceMs = ADVANCE_SLICE_MS) {
      // Checked now, so a bad amount is refused at the call rather than after the advances before it.
      begin(ms);
      const run = queued.then(async () => {
        // It starts when the one before it is done, from the time that one reached.
        const current = begin(ms);
        slicing += 1;
        try {
          while (!fireUntil(current.from + ms, current, performance.now() + sliceMs)) await nextTurn();
          finish(current);
        } finally {
          slicing -= 1;
          arm();
        }
        return now();
      });
      queued = run.catch(() => {});
      return run;
    },
    settle() {
      // An advance in slices fires what is due in order, slice by slice: firing it all here would block.
      if (slicing > 0) return;
      fireUntil(flowing());
      arm();
    },
    schedule(key, at) {
      const known = due.get(key);
      if (at === undefined) {
        if (!known) return;
        due.delete(key);
      } else {
        if (known?.at === at) return;
        const timer: Timer = { key, at, order: known ? known.order : arrivals++ };
        due.set(key, timer);
        heap.push(timer);
        up(heap.length - 1);
      }
      compact();
      arm();
    },
    timers: () =>
      [...due.values()].sort((a, b) => a.at - b.at || a.order - b.order).map(({ key, at }) => ({ key, at })),
    reset(at, wall) {
      start = at;
      offset = 0;
      origin = realTime ? (wall ?? Date.now()) : 0;
      due.clear();
      heap = [];
      epoch += 1;
      arm();
    },
    dispose() {
      due.clear();
      heap = [];
      epoch += 1;
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

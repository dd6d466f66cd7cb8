/**
 * Timers as Node's: the core lets go of its background timers with `unref()` (a keep-alive must not hold a
 * process open), which a browser's numeric timer ids do not have. The browser build injects these in place of
 * the globals; a page has no process to hold open, so `unref` and `ref` change nothing.
 */
interface Timer {
  readonly id: number;
  unref(): Timer;
  ref(): Timer;
  hasRef(): boolean;
  [Symbol.toPrimitive](): number;
}

const timer = (id: number): Timer => ({
  id,
  unref() {
    return this;
  },
  ref() {
    return this;
  },
  hasRef: () => true,
  [Symbol.toPrimitive]: () => id,
});

const idOf = (handle: unknown) => (typeof handle === 'object' && handle !== null ? (handle as Timer).id : handle);

const timeout = globalThis.setTimeout.bind(globalThis) as (callback: () => void, ms?: number) => number;
const interval = globalThis.setInterval.bind(globalThis) as (callback: () => void, ms?: number) => number;
const clearTimer = globalThis.clearTimeout.bind(globalThis) as (id: unknown) => void;

export const setTimeout = (callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]): Timer =>
  timer(timeout(() => callback(...args), ms));
export const setInterval = (callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]): Timer =>
  timer(interval(() => callback(...args), ms));
export const clearTimeout = (handle: unknown): void => clearTimer(idOf(handle));
export const clearInterval = clearTimeout;

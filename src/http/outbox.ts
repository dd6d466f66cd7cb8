/**
 * Answers written together, once the event loop has read everything that arrived in its turn. Written as each
 * was decided, every answer woke the client on the other core by itself: under load from 50 connections that
 * made a write cost twice the system time, and the client read its answers one wake-up at a time. Written
 * after the turn's reads (Node's check phase), the same answers go out at a higher rate with less CPU on each
 * side (bench/profile-notes.md). An answer waits at most for the requests read with it.
 */

// Taken when the module loads: a test that fakes timers later must not hold the simulator's answers back.
const afterReads = globalThis.setImmediate;

let queued: Array<() => void> = [];
/** Writes scheduled and not yet run: one is enough for everything queued before it runs. */
let pending = 0;

/** Runs `write` once the event loop has run the callbacks of the reads it is in the middle of. */
export function writeSoon(write: () => void): void {
  if (pending === 0) {
    pending++;
    afterReads(flush);
  }
  queued.push(write);
}

let tasks: Array<() => void> = [];

/**
 * Runs `task` after this turn's reads and before the writes that follow it, in the same turn: what the task
 * lets go of (a promise it settles, and the answer decided on it) is written with them. The recorder's group
 * commit is one: each recorded answer waits for its interaction to be in the file. Scheduled by itself, the
 * commit ran after this turn's writes and its answers waited for the next turn's. Node runs the promises'
 * callbacks between two immediates, so the writes scheduled after the task see those answers.
 */
export function beforeWrites(task: () => void): void {
  if (tasks.length === 0) {
    afterReads(runTasks);
    // A write already scheduled runs before the task: another one comes after it.
    pending++;
    afterReads(flush);
  }
  tasks.push(task);
}

function runTasks(): void {
  const batch = tasks;
  tasks = [];
  for (let i = 0; i < batch.length; i++) {
    try {
      (batch[i] as () => void)();
    } catch (error) {
      for (const task of batch.slice(i + 1)) beforeWrites(task);
      throw error;
    }
  }
}

function flush(): void {
  pending--;
  const batch = queued;
  queued = [];
  for (let i = 0; i < batch.length; i++) {
    try {
      (batch[i] as () => void)();
    } catch (error) {
      // The turn's other answers still go out; the failure surfaces as any uncaught one does.
      for (const write of batch.slice(i + 1)) writeSoon(write);
      throw error;
    }
  }
}

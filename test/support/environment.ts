/**
 * What this machine offers the tests that need more than the Node they run on (the real server's binary,
 * Chromium, the right to mount a file system, a newer Node), and the one way a test skips for lack of it:
 * `describe(name, skippedWhen(noChromium()), …)`, or `skipNow(context, reason)` inside a test. The reason goes into the test's meta, where the closing
 * summary prints it beside the test's name (test/support/environment-reporter.ts, .ci/summary.mjs); a test
 * skipped any other way has no reason there, and fails the run.
 */
import { existsSync } from 'node:fs';
import { onPath } from '../../src/real-runtime/on-path.js';
import type { TestContext } from 'vitest';
import { REAL_SERVER_BINARY, realServerAvailable } from './real-server.js';

export { REAL_SERVER_BINARY, realServerAvailable };

declare module 'vitest' {
  interface TaskMeta {
    /** Why the test is skipped on this machine: set by `skippedWhen` or `skipNow`, printed by the closing summary. */
    skipped?: string;
  }
}

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * A describe's or test's options: skipped, with `reason` recorded, when there is one; run otherwise. Every
 * `no…()` below gives a reason or undefined.
 */
export function skippedWhen(reason: string | undefined): { skip: boolean; meta: { skipped?: string } } {
  return reason === undefined ? { skip: false, meta: {} } : { skip: true, meta: { skipped: reason } };
}

/** A test's skip decided as it runs: the reason recorded as `skippedWhen` records it, then the test skipped. */
export function skipNow(context: TestContext, reason: string): never {
  context.task.meta.skipped = reason;
  return context.skip(reason);
}

export function noRealServer(): string | undefined {
  if (realServerAvailable()) return undefined;
  const binary = REAL_SERVER_BINARY.replace(/^.*\/node_modules\//, 'node_modules/');
  return `no ${binary} for ${process.platform}-${process.arch} (a dev dependency for linux-x64: npm ci installs it there)`;
}

/** The real runtime with a scripted model (`real`) needs the real server and `rg`, which keeps it offline. */
export function noRealRuntime(): string | undefined {
  const server = noRealServer();
  if (server) return server;
  return onPath('rg')
    ? undefined
    : "no rg on PATH: the real runtime's grep tool would download one (apt-get install ripgrep; .ci/run does)";
}

/** With CI set the browser tests always run, and fail without Chromium: CI installs it (.ci/run). */
export function noChromium(): string | undefined {
  if (existsSync(CHROMIUM) || process.env.CI) return undefined;
  return `no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`;
}

export function noGlobalWebSocket(): string | undefined {
  if ((globalThis as { WebSocket?: unknown }).WebSocket) return undefined;
  return `Node ${process.version} has no global WebSocket (Node 22 and later have one)`;
}

/** Why `what` cannot run on this Node, which is older than `major.minor`. */
export function nodeBefore(major: number, minor: number, what: string): string | undefined {
  const [have = 0, haveMinor = 0] = process.versions.node.split('.').map(Number);
  if (have > major || (have === major && haveMinor >= minor)) return undefined;
  return `${what} needs Node ${major}.${minor} or later; this is ${process.version}`;
}

import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    // dist/ as new as src/, so that no test's CLI process falls back to the sources through tsx.
    globalSetup: ['./test/support/global-setup.ts'],
    // Processes, not threads: many files spawn the CLI, servers and shells, and a crashed or hung one must not
    // take a neighbour's state with it.
    pool: 'forks',
    fileParallelism: true,
    // vitest's default in a run is one worker fewer than the cores: on a two-core machine, one file at a time.
    // Most of the slow files wait on the processes they start rather than compute, so every core gets a worker;
    // the files that took longest last time start first (vitest's default order), so the long ones (the
    // documents' shell blocks, the real server's) overlap instead of trailing at the end.
    maxWorkers: Math.max(2, availableParallelism()),
    // The default report, then a line per group of tests that depends on the machine: ran, or skipped and why.
    reporters: ['default', './test/support/environment-reporter.ts'],
  },
});

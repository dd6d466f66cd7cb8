import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import LongestFirst from './test/support/sequencer.js';

/**
 * Files that start the processes of the world they test (Chromium, a packed package, the shells of the
 * documents' blocks), replace the code they load, or measure their process: each gets a process and a module
 * registry of its own, so that a crashed or hung one takes no neighbour with it.
 */
const ALONE = [
  'test/docs/doc-blocks.test.ts',
  'test/browser/**/*.test.ts',
  'test/examples/**/*.test.ts',
  'test/package/**/*.test.ts',
  // It mocks the kinds' registry, which a shared worker would keep for the files after it.
  'test/unit/kinds/new-kind.test.ts',
  // It measures the process's memory, which worker threads share.
  'test/integration/limits.test.ts',
];

const REAL = 'test/real-server/**/*.test.ts';

export default defineConfig({
  test: {
    testTimeout: 20_000,
    // dist/ as new as src/, so that no test's CLI process falls back to the sources through tsx.
    globalSetup: ['./test/support/global-setup.ts'],
    // vitest's default in a run is one worker fewer than the cores: on a two-core machine, one file at a time.
    // A worker per core. A third on two cores came out no faster (the suite is bound by its processors, not
    // its waits) and left the real runtime short of the processor to start in time.
    maxWorkers: Math.max(2, availableParallelism()),
    // The default report, then a line per group of tests that depends on the machine: ran, or skipped and why.
    reporters: ['default', './test/support/environment-reporter.ts'],
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        // Every test here builds its own simulator (or partition) and leaves no global behind, so a worker
        // keeps the modules it has loaded from one file to the next: loading src/ again for every file cost
        // more than half of these files' time.
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: [...ALONE, REAL],
          pool: 'threads',
          isolate: false,
        },
      },
      { extends: true, test: { name: 'alone', include: ALONE, pool: 'forks' } },
      {
        // The files that drive the real runtime run in processes of their own, one file after another in each,
        // so that those which need a plain real server share one (test/support/real-server.ts).
        extends: true,
        test: { name: 'real', include: [REAL], pool: 'forks', isolate: false },
      },
    ],
  },
});

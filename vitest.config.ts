import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    // dist/ as new as src/, so that no test's CLI process falls back to the sources through tsx.
    globalSetup: ['./test/support/global-setup.ts'],
    // The default report, then a line per group of tests that depends on the machine: ran, or skipped and why.
    reporters: ['default', './test/support/environment-reporter.ts'],
  },
});

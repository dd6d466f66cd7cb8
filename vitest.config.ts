import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    // The default report, then a line per group of tests that depends on the machine: ran, or skipped and why.
    reporters: ['default', './test/support/environment-reporter.ts'],
  },
});

import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Inside this repository the package name points at its sources; in your project, `npm install -D
  // session-agent-sim` and drop the alias.
  resolve: { alias: { 'session-agent-sim': fileURLToPath(new URL('../../src/index.ts', import.meta.url)) } },
  test: {
    globalSetup: ['./global-setup.ts'],
    include: ['*.test.ts'],
  },
});

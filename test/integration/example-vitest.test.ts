/**
 * The README's vitest example (examples/vitest-partitions): one simulator started in globalSetup, each worker
 * in its own partition. Run as a user would run it, in a vitest of its own.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

it('passes: globalSetup serves every worker, each in its own partition', () => {
  const run = spawnSync(
    process.execPath,
    ['node_modules/vitest/vitest.mjs', 'run', '--root', 'examples/vitest-partitions', '--reporter=dot'],
    {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 90_000,
      env: {
        ...process.env,
        VITEST_POOL_ID: undefined,
        VITEST_WORKER_ID: undefined,
        VITEST: undefined,
        NO_COLOR: '1',
        FORCE_COLOR: '0',
      },
    },
  );
  expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
  // eslint-disable-next-line no-control-regex -- colour codes, should a terminal setting bring them back
  expect(run.stdout.replace(/\u001b\[[0-9;]*m/g, '')).toMatch(/Tests\s+4 passed/);
}, 100_000);

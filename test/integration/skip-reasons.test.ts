/**
 * No silent skip: a vitest of its own runs test/fixtures/skips (a test for each way to skip) with the reporters
 * `npm test` and CI use, and the closing lines name every skipped test with its reason. A test skipped without
 * one (bare `skip`, `todo`, a `context.skip` whose note the JSON report drops) is named as such and fails the
 * run, in the environment reporter and in CI's summary alike; a name filter (`-t`) is no such failure.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanEnv, run } from '../support/packed-package.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURE = join(REPO, 'test/fixtures/skips');
const VITEST = join(REPO, 'node_modules/vitest/vitest.mjs');
const REPORTER = join(REPO, 'test/support/environment-reporter.ts');
const SUMMARY = join(REPO, '.ci/summary.mjs');
const dir = mkdtempSync(join(tmpdir(), 'sim-skips-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// This run's vitest variables would make the fixture's vitest think it is one of this run's workers.
const env = {
  ...Object.fromEntries(Object.entries(cleanEnv).filter(([name]) => !name.startsWith('VITEST'))),
  NO_COLOR: '1',
};

function vitest(...args: string[]) {
  return run(process.execPath, [VITEST, 'run', '--reporter=default', `--reporter=${REPORTER}`, ...args], {
    cwd: FIXTURE,
    timeout: 60_000,
    env,
  });
}

/** The reporter's closing lines: those after the line naming the Node. */
function closing(stdout: string): string[] {
  const lines = stdout.split('\n').map((line) => line.trim());
  return lines
    .slice(lines.findIndex((line) => line.startsWith('node: v')))
    .filter((line) => line && !line.startsWith('JSON report written'));
}

describe('a skipped test in the closing summary', () => {
  it('is named with its reason, and one without a reason fails the run, here and in CI', async () => {
    const report = join(dir, 'report.json');
    const result = await vitest('--reporter=json', `--outputFile.json=${report}`);
    expect(closing(result.stdout).slice(1)).toEqual([
      'skipped: skips.fixture.ts > skips > is skipped where the machine lacks something: the machine lacks something',
      'skipped: skips.fixture.ts > skips > is skipped while running: decided as it ran',
      'skipped without a reason: skips.fixture.ts > skips > is skipped bare (skip through skippedWhen or skipNow, test/support/environment.ts)',
      'skipped without a reason: skips.fixture.ts > skips > is a todo (skip through skippedWhen or skipNow, test/support/environment.ts)',
      'skipped without a reason: skips.fixture.ts > skips > is skipped with a note only (skip through skippedWhen or skipNow, test/support/environment.ts)',
    ]);
    expect(result.code, result.stderr).toBe(1);

    // CI's summary reads the same reasons from the JSON report; `node` is the Node the fixture did not record.
    const summary = await run(process.execPath, [SUMMARY, '0', '', report, String(result.code)], {
      cwd: FIXTURE,
      timeout: 10_000,
    });
    expect(summary.stdout.trim().split('\n')).toEqual([
      'Node : 1 passed, 3 failed, 5 skipped',
      '  skipped: skips.fixture.ts > skips > is skipped where the machine lacks something: the machine lacks something',
      '  skipped: skips.fixture.ts > skips > is skipped while running: decided as it ran',
      '  skipped without a reason: skips.fixture.ts > skips > is skipped bare',
      '  skipped without a reason: skips.fixture.ts > skips > is a todo',
      '  skipped without a reason: skips.fixture.ts > skips > is skipped with a note only',
      '1 passed, 3 failed',
    ]);
    expect(summary.code).toBe(1);
  }, 70_000);

  it('leaves a test a name filter left out uncounted, and still names a skip with its reason', async () => {
    const result = await vitest('-t', 'runs|lacks');
    expect(closing(result.stdout).slice(1)).toEqual([
      'skipped: skips.fixture.ts > skips > is skipped where the machine lacks something: the machine lacks something',
      "4 tests left out by this run's filter",
    ]);
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
  }, 70_000);
});

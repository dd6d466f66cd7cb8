import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const SCRIPT = new URL('../../.ci/summary.mjs', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'ci-summary-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Test {
  status: 'passed' | 'failed' | 'skipped';
  node?: string;
  name?: string;
  /** The reason `skippedWhen` records. */
  skipped?: string;
  /** A failed test's message. */
  failure?: string;
}

/** A vitest JSON report (the fields the summary reads) of files, each a list of tests. */
function report(name: string, files: Record<string, { tests: Test[]; message?: string }>): string {
  const tests = Object.values(files).flatMap((file) => file.tests);
  const broken = Object.values(files).some((file) => file.message);
  const path = join(dir, `${name}.json`);
  writeFileSync(
    path,
    JSON.stringify({
      numPassedTests: tests.filter((test) => test.status === 'passed').length,
      numFailedTests: tests.filter((test) => test.status === 'failed').length,
      success: !broken && tests.every((test) => test.status !== 'failed'),
      testResults: Object.entries(files).map(([file, { tests: results, message = '' }]) => ({
        name: file,
        status: message || results.some((test) => test.status === 'failed') ? 'failed' : 'passed',
        message,
        assertionResults: results.map((test) => ({
          status: test.status,
          ancestorTitles: test.name ? test.name.split(' > ').slice(0, -1) : [],
          title: test.name?.split(' > ').at(-1) ?? 'a test',
          ...(test.failure ? { failureMessages: [test.failure] } : {}),
          meta: { ...(test.node ? { node: test.node } : {}), ...(test.skipped ? { skipped: test.skipped } : {}) },
        })),
      })),
    }),
  );
  return path;
}

function summary(...args: string[]): { status: number | null; lines: string[] } {
  const run = spawnSync(process.execPath, [SCRIPT, ...args], { encoding: 'utf8' });
  return { status: run.status, lines: run.stdout.trim().split('\n') };
}

const passing = (node: string, count: number): Record<string, { tests: Test[] }> => ({
  'node.test.ts': { tests: [{ status: 'passed', node }] },
  'other.test.ts': { tests: Array.from({ length: count - 1 }, () => ({ status: 'passed' as const })) },
});

describe('.ci/summary.mjs', () => {
  it('sums every Node run into the last line, each run named by the Node its tests saw', () => {
    const twenty = report('twenty', passing('v20.20.2', 5));
    const twentyTwo = report('twenty-two', passing('v22.23.3', 5));
    expect(summary('0', 'v20.20.2', twenty, '0', 'v22.23.3', twentyTwo, '0')).toEqual({
      status: 0,
      lines: ['Node v20.20.2: 5 passed, 0 failed', 'Node v22.23.3: 5 passed, 0 failed', '10 passed, 0 failed'],
    });
  });

  it('counts a run without a report, a file whose hook failed, and a failed check as failures', () => {
    const hooked = report('hooked', {
      ...passing('v24.21.0', 3),
      'limits.test.ts': {
        tests: [{ status: 'skipped' }, { status: 'skipped' }],
        message: 'Hook timed out in 10000ms.\nmore',
      },
    });
    const result = summary('2', 'v22.23.3', join(dir, 'missing.json'), '1', 'v24.21.0', hooked, '1');
    expect(result.status).toBe(1);
    expect(result.lines).toEqual([
      'npm run check failed: 1 failure',
      'Node v22.23.3: 0 passed, 1 failed',
      '  no report: vitest did not run (a failed spec lint, or no such Node: see above)',
      'Node v24.21.0: 3 passed, 1 failed',
      '  limits.test.ts: Hook timed out in 10000ms.',
      '3 passed, 3 failed',
    ]);
  });

  it('fails a run whose tests ran on another Node than it asked for, or never said which', () => {
    const wrong = report('wrong', passing('v20.20.2', 2));
    const silent = report('silent', { 'other.test.ts': { tests: [{ status: 'passed' }] } });
    expect(summary('0', 'v24.21.0', wrong, '0', 'v22.23.3', silent, '0').lines).toEqual([
      'Node v24.21.0: 2 passed, 1 failed',
      '  the tests ran on v20.20.2, not v24.21.0',
      'Node v22.23.3: 1 passed, 1 failed',
      '  no test recorded its Node (test/package/node.test.ts did not run)',
      '3 passed, 2 failed',
    ]);
  });

  it('counts a vitest that failed without a failed test (an unhandled error) once', () => {
    const clean = report('clean', passing('v20.20.2', 4));
    expect(summary('0', 'v20.20.2', clean, '1').lines).toEqual([
      'Node v20.20.2: 4 passed, 1 failed',
      '  vitest exited 1 without a failed test (an unhandled error: see its output)',
      '4 passed, 1 failed',
    ]);
  });

  it('names every skipped test with its reason, and fails one skipped without a reason', () => {
    const twenty = report('skips', {
      ...passing('v20.20.2', 3),
      'test/integration/pty-kind.test.ts': {
        tests: [
          { status: 'passed' },
          { status: 'skipped', name: 'PTYs > works with the global WebSocket', skipped: 'Node v20.20.2 has none' },
        ],
      },
      'test/examples/component-test.test.ts': { tests: [{ status: 'skipped', name: 'passes with msw 3' }] },
    });
    expect(summary('0', 'v20.20.2', twenty, '1')).toEqual({
      status: 1,
      lines: [
        'Node v20.20.2: 4 passed, 1 failed, 2 skipped',
        '  skipped: test/integration/pty-kind.test.ts > PTYs > works with the global WebSocket: Node v20.20.2 has none',
        '  skipped without a reason: test/examples/component-test.test.ts > passes with msw 3',
        '4 passed, 1 failed',
      ],
    });
  });

  it('counts failed tests as they are, with nothing added, and names each with its failure', () => {
    const failing = report('failing', {
      ...passing('v22.23.3', 2),
      'broken.test.ts': {
        tests: [
          { status: 'failed', name: 'spec import > four runs', failure: 'Error: Test timed out in 20000ms.\nat x' },
          { status: 'failed' },
          {
            status: 'failed',
            name: 'README.md > block at line 53',
            failure: 'AssertionError: README.md:74 curl\nprinted:\n\n[exit 28]\nexpected 1 to be 2\n  at y\n  at z',
          },
          { status: 'passed' },
        ],
      },
    });
    expect(summary('0', 'v22.23.3', failing, '1')).toEqual({
      status: 1,
      lines: [
        'Node v22.23.3: 3 passed, 3 failed',
        '  failed: broken.test.ts > spec import > four runs: Error: Test timed out in 20000ms.',
        '  failed: broken.test.ts > a test',
        '  failed: broken.test.ts > README.md > block at line 53: AssertionError: README.md:74 curl',
        '    | printed:',
        '    | [exit 28]',
        '    | expected 1 to be 2',
        '3 passed, 3 failed',
      ],
    });
  });
});

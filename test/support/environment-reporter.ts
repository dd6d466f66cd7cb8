/**
 * The lines that end a test run: the Node that ran it; one per group of tests that depends on the machine,
 * whether it ran and, if not, why; then every other skipped test by name, with its reason. A test skips only
 * through `skippedWhen` or `skipNow` (test/support/environment.ts), which record the reason; a test skipped
 * without one (a bare `it.skip`, `skipIf`, `runIf`, `todo`, `context.skip()`) is named as such and fails the run,
 * unless a filter of this run (`-t`, `.only`) is what left it out.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Reporter, TestCase, TestModule, Vitest } from 'vitest/node';
import { CHROMIUM } from './environment.js';

interface Group {
  name: string;
  /** The tests of the group. */
  holds(test: TestCase): boolean;
  /** What ran them, when they ran. */
  ran(): string;
}

declare module 'vitest' {
  interface TaskMeta {
    /** The Node a worker ran on (test/package/node.test.ts), for the report and CI's summary. */
    node?: string;
  }
}

const GROUPS: Group[] = [
  {
    name: 'real server',
    holds: (test) => test.module.moduleId.includes('/test/real-server/'),
    ran: () => `opencode-linux-x64 ${packageVersion('opencode-linux-x64')}`,
  },
  {
    name: 'browser',
    holds: (test) => /\/test\/(browser\/|examples\/browser-page\.test\.ts$)/.test(test.module.moduleId),
    ran: () => `Chromium at ${CHROMIUM}`,
  },
  {
    name: 'full disk',
    holds: (test) => test.fullName.includes('on a disk of its own'),
    ran: () => 'on a 256 KiB tmpfs',
  },
];

function packageVersion(name: string): string {
  try {
    return (
      JSON.parse(readFileSync(new URL(`../../node_modules/${name}/package.json`, import.meta.url), 'utf8')) as {
        version: string;
      }
    ).version;
  } catch {
    return '(version unknown)';
  }
}

/**
 * Why a skipped test was skipped, as `skippedWhen` or `skipNow` recorded it: in the test's meta, which CI's
 * JSON report carries too (a bare `context.skip(note)`'s note it does not).
 */
function skipReason(test: TestCase): string | undefined {
  return test.meta().skipped;
}

const plural = (count: number) => `${count} test${count === 1 ? '' : 's'}`;

/** The closing lines for these tests; `filtered`: this run leaves tests out by name or `.only`. */
function closingLines(tests: TestCase[], filtered: boolean, root: string): { lines: string[]; silent: number } {
  // Which Node ran the tests: CI runs the suite once per supported line and names each run by this line.
  const workers = new Set(tests.map((test) => test.meta().node).filter((node) => node !== undefined));
  const others = [...workers].filter((node) => node !== process.version);
  const lines = [
    `node: ${process.version} (${process.execPath})${others.length ? `, but tests ran on ${others.join(', ')}` : ''}`,
  ];
  // A file whose hook or import failed reports its tests skipped: that is a failure, and vitest shows it.
  const skipped = tests.filter((test) => test.result().state === 'skipped' && test.module.state() !== 'failed');
  const reasons = (group: TestCase[]) =>
    [...new Set(group.map((test) => skipReason(test) ?? (filtered ? 'by a filter' : 'without a reason')))].join('; ');
  const grouped = new Set<TestCase>();
  for (const group of GROUPS) {
    const mine = tests.filter((test) => group.holds(test));
    if (!mine.length) continue;
    for (const test of mine) grouped.add(test);
    const left = skipped.filter((test) => group.holds(test));
    const ran = mine.length - left.length;
    if (!ran) lines.push(`${group.name}: ${plural(left.length)} skipped: ${reasons(left)}`);
    else
      lines.push(
        `${group.name}: ${plural(ran)} ran (${group.ran()})${left.length ? `, ${left.length} skipped: ${reasons(left)}` : ''}`,
      );
  }
  const name = (test: TestCase) => `${relative(root, test.module.moduleId)} > ${test.fullName}`;
  let silent = 0;
  let byFilter = 0;
  for (const test of skipped) {
    const reason = skipReason(test);
    if (reason !== undefined) {
      if (!grouped.has(test)) lines.push(`skipped: ${name(test)}: ${reason}`);
    } else if (filtered) {
      if (!grouped.has(test)) byFilter += 1;
    } else {
      silent += 1;
      lines.push(
        `skipped without a reason: ${name(test)} (skip through skippedWhen or skipNow, test/support/environment.ts)`,
      );
    }
  }
  if (byFilter) lines.push(`${plural(byFilter)} left out by this run's filter`);
  return { lines, silent };
}

export default class EnvironmentReporter implements Reporter {
  private namePattern = false;
  private root = process.cwd();

  onInit(vitest: Vitest): void {
    this.namePattern = vitest.config.testNamePattern !== undefined;
    this.root = vitest.config.root;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const tests = testModules.flatMap((module) => [...module.children.allTests()]);
    const filtered = this.namePattern || tests.some((test) => test.options.mode === 'only');
    const { lines, silent } = closingLines(tests, filtered, this.root);
    process.stdout.write(`\n${lines.map((line) => ` ${line}`).join('\n')}\n`);
    // Not a test's failure, so vitest would exit 0: a skip nobody can explain must not pass unseen.
    if (silent) process.exitCode = 1;
  }
}

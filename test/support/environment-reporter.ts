/**
 * The lines that end a test run: the Node that ran it, then one per group of tests that depends on the machine:
 * whether it ran, and if not, why and what would make it run. Everything else in the suite applies everywhere
 * and never skips.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import { CHROMIUM, REAL_SERVER_BINARY, realServerAvailable } from './environment.js';

interface Group {
  name: string;
  /** The tests of the group. */
  holds(test: TestCase): boolean;
  /** What ran them, when they ran. */
  ran(): string;
  /** Why they were skipped. */
  skipped(): string;
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
    skipped: () =>
      realServerAvailable()
        ? 'skipped by a filter'
        : `no ${REAL_SERVER_BINARY.replace(/^.*\/node_modules\//, 'node_modules/')} for ${process.platform}-${process.arch} (a dev dependency for linux-x64: npm ci installs it there)`,
  },
  {
    name: 'browser',
    holds: (test) => test.module.moduleId.includes('/test/browser/'),
    ran: () => `Chromium at ${CHROMIUM}`,
    skipped: () =>
      existsSync(CHROMIUM)
        ? 'skipped by a filter'
        : `no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`,
  },
  {
    name: 'full disk',
    holds: (test) => test.fullName.includes('on a disk of its own'),
    ran: () => 'on a 256 KiB tmpfs',
    skipped: () => 'mounting a tmpfs needs root (or CAP_SYS_ADMIN)',
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

export default class EnvironmentReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const tests = testModules.flatMap((module) => [...module.children.allTests()]);
    // Which Node ran the tests: CI runs the suite once per supported line and names each run by this line.
    const workers = new Set(tests.map((test) => test.meta().node).filter((node) => node !== undefined));
    const others = [...workers].filter((node) => node !== process.version);
    const lines = [
      `node: ${process.version} (${process.execPath})${others.length ? `, but tests ran on ${others.join(', ')}` : ''}`,
    ];
    for (const group of GROUPS) {
      const mine = tests.filter((test) => group.holds(test));
      if (!mine.length) continue;
      const skipped = mine.filter((test) => test.result().state === 'skipped').length;
      const ran = mine.length - skipped;
      if (ran)
        lines.push(
          `${group.name}: ${ran} test${ran === 1 ? '' : 's'} ran (${group.ran()})${skipped ? `, ${skipped} skipped` : ''}`,
        );
      else lines.push(`${group.name}: ${skipped} test${skipped === 1 ? '' : 's'} skipped: ${group.skipped()}`);
    }
    process.stdout.write(`\n${lines.map((line) => ` ${line}`).join('\n')}\n`);
  }
}

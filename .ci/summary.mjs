// The end of a CI run: a line per Node run, read from its vitest JSON report, then one line
// "N passed, M failed" over every run. Usage: summary.mjs CHECK_STATUS [NODE_VERSION REPORT VITEST_STATUS]...
// M counts every failed test, and also what failed without a failed test: a file whose hook or import failed
// (its tests are reported skipped), a run whose vitest failed otherwise (an unhandled error), a run that left
// no report (the spec lint failed before vitest ran), a run whose tests ran on another Node than asked for,
// and a failed typecheck or lint. Exits 1 when M is not 0.
// Every failed test is named under its run with the first line of its failure, and up to four more lines
// before its stack. Every skipped test is named with the reason its test recorded (`skippedWhen` in
// test/support/environment.ts puts it in the test's meta); one skipped without a reason counts as a failure.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

function testName(file, test) {
  return [relative(process.cwd(), file.name), ...test.ancestorTitles, test.title].join(' > ');
}

/** What one run counts: its tests, plus one failure per problem the tests' own count would miss. */
export function summarizeRun(report, vitestStatus, expectedNode) {
  if (!report)
    return {
      passed: 0,
      failed: 1,
      notes: ['no report: vitest did not run (a failed spec lint, or no such Node: see above)'],
    };
  const notes = [];
  let failed = report.numFailedTests;
  const brokenFiles = report.testResults.filter(
    (file) => file.status === 'failed' && !file.assertionResults.some((test) => test.status === 'failed'),
  );
  for (const file of brokenFiles) notes.push(`${file.name}: ${file.message.split('\n')[0]}`);
  failed += brokenFiles.length;
  // Named, so that a log cut to its tail still says which test to look at.
  for (const file of report.testResults)
    for (const test of file.assertionResults.filter((each) => each.status === 'failed')) {
      const [why = '', ...rest] = (test.failureMessages?.[0] ?? '').split('\n');
      notes.push(`failed: ${testName(file, test)}${why ? `: ${why.slice(0, 300)}` : ''}`);
      // What a failure printed (a document block's output, an error's cause) up to its stack: a few lines, so a
      // flaky test's one failure in CI can be read without its report.
      const stack = rest.findIndex((line) => /^\s*at\s/.test(line));
      const detail = (stack === -1 ? rest : rest.slice(0, stack)).filter((line) => line.trim()).slice(0, 4);
      for (const line of detail) notes.push(`  | ${line.slice(0, 200)}`);
    }
  // A broken file's tests are reported skipped: the file is counted above.
  const skipped = report.testResults
    .filter((file) => !brokenFiles.includes(file))
    .flatMap((file) =>
      file.assertionResults
        .filter((test) => ['skipped', 'pending', 'todo'].includes(test.status))
        .map((test) => ({
          name: testName(file, test),
          reason: test.meta?.skipped,
        })),
    );
  for (const { name, reason } of skipped)
    notes.push(reason ? `skipped: ${name}: ${reason}` : `skipped without a reason: ${name}`);
  failed += skipped.filter(({ reason }) => !reason).length;
  if (failed === 0 && (vitestStatus !== 0 || report.success === false)) {
    notes.push(`vitest exited ${vitestStatus} without a failed test (an unhandled error: see its output)`);
    failed += 1;
  }
  const seen = new Set(
    report.testResults.flatMap((file) => file.assertionResults.map((test) => test.meta?.node).filter(Boolean)),
  );
  if (expectedNode && !(seen.size === 1 && seen.has(expectedNode))) {
    notes.push(
      seen.size
        ? `the tests ran on ${[...seen].join(', ')}, not ${expectedNode}`
        : `no test recorded its Node (test/package/node.test.ts did not run)`,
    );
    failed += 1;
  }
  return { passed: report.numPassedTests, failed, skipped: skipped.length, notes };
}

function readReport(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [checkStatus, ...runs] = process.argv.slice(2);
  let passed = 0;
  let failed = Number(checkStatus) === 0 ? 0 : 1;
  if (failed) console.log('npm run check failed: 1 failure');
  for (let i = 0; i + 2 < runs.length; i += 3) {
    const [node, path, status] = runs.slice(i, i + 3);
    const run = summarizeRun(readReport(path), Number(status), node);
    console.log(
      `Node ${node}: ${run.passed} passed, ${run.failed} failed${run.skipped ? `, ${run.skipped} skipped` : ''}`,
    );
    for (const note of run.notes) console.log(`  ${note}`);
    passed += run.passed;
    failed += run.failed;
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

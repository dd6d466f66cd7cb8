// msw: the simulator as msw handlers in Node (session-agent-sim/msw). In a fresh process (bench/suite/msw-probe.mjs):
// the first simulatorHandlers() of the process and the ones after it (a test file's, a test's), and what one
// answer costs through msw's handler (msw's getResponse) against the pipeline answering the same Request
// in-process, against the pipeline's decision alone, and through msw's interception of fetch (setupServer).
// Where Chromium is, the browser build's size and a page's start-up to its first answer
// (bench/suite/msw-browser-probe.mjs).
// Usage: node bench/suite/measures/msw.mjs [--quick]
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { contextNote, guarded, NO_TARGET, round, row, runIfMain } from './lib.mjs';

const PROBE = fileURLToPath(new URL('../msw-probe.mjs', import.meta.url));
const BROWSER_PROBE = fileURLToPath(new URL('../msw-browser-probe.mjs', import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const LATER_START_TARGET_MS = 50;
const HANDLER_RATIO_TARGET = 2;

const FIRST = 'msw: first simulatorHandlers() in a process';
const LATER = 'msw: a later simulatorHandlers() in the same process (median)';
const HANDLER = 'msw: answer through msw’s handler ÷ the pipeline in-process';
const DECIDE = 'msw: answer through msw’s handler ÷ the pipeline’s decision alone';
const INTERCEPTED = 'msw: answer through setupServer’s fetch ÷ the pipeline in-process';
const BUNDLE = 'msw: the browser build (dist/browser/msw.js), gzipped';
const PAGE = 'msw in Chromium: page load → first answer (median, fresh contexts)';

export async function measure({ quick = false } = {}) {
  return guarded(
    {
      timeoutMs: (quick ? 60 : 180) * 1000,
      expected: [
        { name: FIRST, unit: 'ms', target: NO_TARGET },
        { name: LATER, unit: 'ms', target: `≤ ${LATER_START_TARGET_MS} ms` },
        { name: HANDLER, unit: '×', target: `≤ ${HANDLER_RATIO_TARGET}×` },
        { name: DECIDE, unit: '×', target: NO_TARGET },
        { name: INTERCEPTED, unit: '×', target: NO_TARGET },
        ...(existsSync(CHROMIUM)
          ? [
              { name: BUNDLE, unit: 'KiB', target: NO_TARGET },
              { name: PAGE, unit: 'ms', target: NO_TARGET },
            ]
          : []),
      ],
    },
    async (scope) => {
      const context = contextNote();
      const probe = (file, seconds) =>
        new Promise((resolve, reject) => {
          const child = execFile(
            process.execPath,
            [file, ...(quick ? ['--quick'] : [])],
            { timeout: seconds * 1000 },
            (error, stdout, stderr) =>
              error
                ? reject(new Error(`${error.message}\n${stderr}`))
                : resolve(JSON.parse(stdout.trim().split('\n').pop())),
          );
          scope.onClose(() => child.kill('SIGKILL'));
        });
      const m = await probe(PROBE, quick ? 50 : 120);
      const us = (value) => `${round(value)} µs`;
      scope.report(row(FIRST, round(m.firstStartMs), 'ms', NO_TARGET, true, context));
      scope.report(
        row(
          LATER,
          round(m.laterStartMs, 1),
          'ms',
          `≤ ${LATER_START_TARGET_MS} ms`,
          m.laterStartMs <= LATER_START_TARGET_MS,
          `slowest ${round(m.laterStartMaxMs, 1)} ms`,
        ),
      );
      const handler = m.handlerUs / m.pipelineUs;
      scope.report(
        row(
          HANDLER,
          round(handler, 2),
          '×',
          `≤ ${HANDLER_RATIO_TARGET}×`,
          handler <= HANDLER_RATIO_TARGET,
          `${us(m.handlerUs)} through msw’s handler, ${us(m.pipelineUs)} the pipeline (Request in, Response read)`,
        ),
      );
      scope.report(
        row(
          DECIDE,
          round(m.handlerUs / m.decideUs, 2),
          '×',
          NO_TARGET,
          true,
          `${us(m.decideUs)} the decision alone (request read, answer's text made, no Response)`,
        ),
      );
      scope.report(
        row(
          INTERCEPTED,
          round(m.interceptedUs / m.pipelineUs, 2),
          '×',
          NO_TARGET,
          true,
          `${us(m.interceptedUs)} through fetch intercepted by setupServer`,
        ),
      );
      if (!existsSync(CHROMIUM)) return;
      const b = await probe(BROWSER_PROBE, 60);
      scope.report(
        row(
          BUNDLE,
          round(b.bundleGzipBytes / 1024),
          'KiB',
          NO_TARGET,
          true,
          `${round(b.bundleBytes / 1024)} KiB as shipped`,
        ),
      );
      scope.report(
        row(
          PAGE,
          round(b.sinceNavigationMs),
          'ms',
          NO_TARGET,
          true,
          `from the page's script: the simulator made in ${round(b.simulatorMs)} ms, msw's worker started by ${round(b.startMs)} ms, the first answer read by ${round(b.firstAnswerMs)} ms`,
        ),
      );
    },
  );
}

await runIfMain(import.meta.url, measure);

// Loading a recording: spawn `replay --recording FILE` on recordings of 100,000 and of 100 interactions and
// time until the first recorded request is answered 2xx, then read the resident memory the loaded
// recording holds. The recordings are the throughput suite's (bench/suite/data.mjs), in a temporary folder
// removed after.
// Usage: node bench/suite/measures/replay-load.mjs [--quick]
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeRecording } from '../data.mjs';
import {
  contextNote,
  freePort,
  guarded,
  median,
  mib,
  NO_TARGET,
  procStatus,
  round,
  row,
  runIfMain,
  sleep,
} from './lib.mjs';

const LOAD_TARGET_MS = 3000;
const RSS_TARGET_MIB = 300;
const BIG = 100_000;
const SMALL = 100;
const FIRST = '/api/session/ses_bench00000001/message?limit=1';

const BIG_LOAD = `replay ${BIG.toLocaleString('en')} interactions: spawn → first 2xx`;
const BIG_RSS = `replay ${BIG.toLocaleString('en')} interactions: RSS after loading`;
const SMALL_LOAD = `replay ${SMALL} interactions: spawn → first 2xx`;

async function load(scope, file) {
  const port = await freePort();
  const since = performance.now();
  const sim = scope.spawnSim(['replay', '--recording', file, '--port', String(port)]);
  try {
    const { ms, refused } = await scope.firstAnswer(sim, port, FIRST, {
      since,
      intervalMs: 5,
      timeoutMs: 30_000,
      expect: '"msg_1"',
    });
    const atAnswer = procStatus(sim.pid);
    await sleep(1000);
    sim.assertAlive();
    const settled = procStatus(sim.pid);
    return { ms, refused, atAnswer, settled };
  } finally {
    await sim.stop();
  }
}

export async function measure({ quick = false } = {}) {
  const runs = quick ? 1 : 3;
  return guarded(
    {
      timeoutMs: (quick ? 60 : 90) * 1000,
      expected: [
        { name: BIG_LOAD, unit: 'ms', target: `< ${LOAD_TARGET_MS / 1000} s` },
        { name: BIG_RSS, unit: 'MiB', target: `< ${RSS_TARGET_MIB} MiB` },
        { name: SMALL_LOAD, unit: 'ms', target: NO_TARGET },
      ],
    },
    async (scope) => {
      const context = contextNote();
      const dir = mkdtempSync(join(tmpdir(), 'sim-measure-replay-'));
      scope.onClose(() => rmSync(dir, { recursive: true, force: true }));

      for (const count of [BIG, SMALL]) {
        const built = performance.now();
        const file = writeRecording(dir, count);
        const buildMs = performance.now() - built;
        const size = statSync(file).size;
        const results = [];
        const problems = [];
        for (let run = 0; run < runs; run++) {
          scope.check();
          try {
            const result = await load(scope, file);
            results.push(result);
            if (result.refused.length)
              problems.push(`run ${run + 1}: non-2xx answers before the first 2xx: ${result.refused.join(', ')}`);
          } catch (error) {
            problems.push(`run ${run + 1}: ${error.message}`);
            break;
          }
        }
        rmSync(file, { force: true });
        if (results.length === 0) {
          const names =
            count === BIG
              ? [
                  [BIG_LOAD, 'ms', `< ${LOAD_TARGET_MS / 1000} s`],
                  [BIG_RSS, 'MiB', `< ${RSS_TARGET_MIB} MiB`],
                ]
              : [[SMALL_LOAD, 'ms', NO_TARGET]];
          for (const [name, unit, target] of names)
            scope.report(row(name, NaN, unit, target, false, `failed: ${problems.join('; ')}`));
          continue;
        }
        const times = results.map((r) => r.ms).sort((a, b) => a - b);
        const failed = problems.length ? `; FAILED: ${problems.join('; ')}` : '';
        const ms = round(median(times));
        const recording = `${count.toLocaleString('en')}-interaction recording (${round(size / 1048576, 1)} MiB of YAML, built in ${round(buildMs)} ms)`;
        const spread =
          results.length > 1
            ? `median of ${results.length} runs ${ms} ms (min ${round(times[0])}, max ${round(times.at(-1))})`
            : `one run, ${ms} ms`;
        const rss = results.map((r) => r.settled.rssKiB);
        const rssMiB = mib(median(rss));
        const memory = `VmRSS ${round(mib(median(results.map((r) => r.atAnswer.rssKiB))), 1)} MiB at the first answer, ${round(rssMiB, 1)} MiB 1 s later, VmHWM ${round(mib(Math.max(...results.map((r) => r.settled.hwmKiB))), 1)} MiB (medians/max over runs)`;
        if (count === BIG) {
          scope.report(
            row(
              BIG_LOAD,
              ms,
              'ms',
              `< ${LOAD_TARGET_MS / 1000} s`,
              !failed && ms < LOAD_TARGET_MS,
              `${spread}, \`replay --recording FILE --port P\` until GET ${FIRST} answered 2xx, polled every 5 ms; ${recording}; ${context}${failed}`,
            ),
          );
          scope.report(
            row(
              BIG_RSS,
              round(rssMiB, 1),
              'MiB',
              `< ${RSS_TARGET_MIB} MiB`,
              !failed && rssMiB < RSS_TARGET_MIB,
              `${memory}; ${recording}${failed}`,
            ),
          );
        } else {
          scope.report(
            row(SMALL_LOAD, ms, 'ms', NO_TARGET, !failed, `${spread}; ${memory}; ${recording}; ${context}${failed}`),
          );
        }
      }
    },
  );
}

await runIfMain(import.meta.url, measure);

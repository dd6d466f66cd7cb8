// Partitions: the resident memory 256 partitions of the default scenario cost, and whether a request in a
// partition is as fast as one in the default partition.
// Usage: node bench/suite/measures/partitions.mjs [--quick]
import http from 'node:http';
import autocannon from 'autocannon';
import {
  contextNote,
  freePort,
  guarded,
  heapReport,
  median,
  mib,
  procStatus,
  reportFlags,
  request,
  round,
  row,
  runIfMain,
  SHELL_ID,
  SHELL_PATH,
  sleep,
} from './lib.mjs';

const PARTITIONS = 256;
const GROWTH_TARGET_MIB = 100;
const RATIO_TARGET = 0.95;
const name = (i) => `p${String(i).padStart(3, '0')}`;
const PROBE = name(128);

const GROWTH = `RSS growth for ${PARTITIONS} partitions`;
const RATIO = 'partition/default req/s ratio';

function cannon(url, connections, duration) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/** req/s of one autocannon round, or the reason it does not count. */
function rate(result, label) {
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad > 0)
    throw new Error(
      `${label}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts in ${result.requests.total} requests`,
    );
  return result.requests.total / (result.duration || 1);
}

export async function measure({ quick = false } = {}) {
  return guarded(
    {
      timeoutMs: (quick ? 45 : 90) * 1000,
      expected: [
        { name: GROWTH, unit: 'MiB', target: `< ${GROWTH_TARGET_MIB} MiB` },
        { name: RATIO, unit: 'ratio', target: `≥ ${RATIO_TARGET}` },
      ],
    },
    async (scope) => {
      const context = contextNote();
      const port = await freePort();
      const report = reportFlags(scope);
      // --virtual-time: a world moving on by itself (questions appearing at 20 s…) would add to what is measured.
      const sim = scope.spawnSim(
        ['mock', '--virtual-time', '--port', String(port), '--max-partitions', String(PARTITIONS + 44)],
        {
          nodeArgs: report.nodeArgs,
          env: report.env,
        },
      );
      await scope.firstAnswer(sim, port, SHELL_PATH, { since: performance.now(), expect: SHELL_ID });
      const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
      scope.onClose(() => agent.destroy());

      const failures = [];
      const get = async (path) => {
        scope.check();
        const answer = await request(port, path, { agent });
        if (answer.status < 200 || answer.status >= 300)
          failures.push(`GET ${path} → ${answer.status} ${answer.body.slice(0, 120)}`);
        else if (!answer.body.includes(SHELL_ID))
          failures.push(`GET ${path} → ${answer.status} without the shell's id`);
        return answer;
      };

      // The first requests load and compile the request path; that is start-up, not what partitions cost.
      for (let i = 0; i < 200; i++) await get(SHELL_PATH);
      await sleep(1000);
      sim.assertAlive();
      const before = procStatus(sim.pid);
      const heapBefore = await heapReport(sim, report.dir);

      // One request each, one at a time, so the time per partition is its own.
      const createStarted = performance.now();
      for (let i = 0; i < PARTITIONS; i++) await get(`/__partition/${name(i)}${SHELL_PATH}`);
      const createMs = performance.now() - createStarted;

      const listed = JSON.parse((await request(port, '/__sim/partitions', { agent })).body).partitions.map(
        (p) => p.name,
      );
      const missing = Array.from({ length: PARTITIONS }, (_, i) => name(i)).filter((n) => !listed.includes(n));
      if (missing.length)
        failures.push(
          `${missing.length} partitions not listed by /__sim/partitions (first: ${missing.slice(0, 3).join(', ')})`,
        );
      await sleep(1000);
      sim.assertAlive();
      const after = procStatus(sim.pid);
      const heapAfter = await heapReport(sim, report.dir);
      const heapNote =
        heapBefore && heapAfter
          ? `; V8 heap used ${round(mib(heapBefore.usedKiB), 1)} → ${round(mib(heapAfter.usedKiB), 1)} MiB (+${round((heapAfter.usedKiB - heapBefore.usedKiB) / PARTITIONS)} KiB per partition, uncollected garbage included), committed ${round(mib(heapBefore.totalKiB), 1)} → ${round(mib(heapAfter.totalKiB), 1)} MiB`
          : '; no heap report';
      const growth = mib(after.rssKiB - before.rssKiB);
      scope.report(
        row(
          GROWTH,
          round(growth, 1),
          'MiB',
          `< ${GROWTH_TARGET_MIB} MiB`,
          failures.length === 0 && growth < GROWTH_TARGET_MIB,
          `VmRSS ${round(mib(before.rssKiB), 1)} → ${round(mib(after.rssKiB), 1)} MiB (${round((after.rssKiB - before.rssKiB) / PARTITIONS)} KiB per partition), VmHWM ${round(mib(before.hwmKiB), 1)} → ${round(mib(after.hwmKiB), 1)} MiB, each read after a 1 s settle (no forced GC)${heapNote}; ${listed.length} partitions listed; created by one GET ${SHELL_PATH} each under /__partition/NAME, ${round(createMs)} ms in all (${round(createMs / PARTITIONS, 2)} ms each); ${context}` +
            (failures.length
              ? `; FAILED: ${failures.slice(0, 3).join('; ')}${failures.length > 3 ? ` (+${failures.length - 3} more)` : ''}`
              : ''),
        ),
      );

      // Rounds alternate so drift (JIT, the machine's other work) falls on both sides alike.
      const seconds = quick ? 1 : 3;
      const rounds = quick ? 2 : 3;
      const connections = 50;
      const base = `http://127.0.0.1:${port}`;
      const urls = { default: `${base}${SHELL_PATH}`, partition: `${base}/__partition/${PROBE}${SHELL_PATH}` };
      await cannon(urls.default, connections, 1);
      await cannon(urls.partition, connections, 1);
      const rates = { default: [], partition: [] };
      const cannonFailures = [];
      for (let r = 0; r < rounds; r++) {
        for (const side of ['default', 'partition']) {
          scope.check();
          sim.assertAlive();
          try {
            rates[side].push(rate(await cannon(urls[side], connections, seconds), `${side} round ${r + 1}`));
          } catch (error) {
            cannonFailures.push(error.message);
          }
        }
      }
      const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
      // Each round's pair ran back to back, under the same conditions; the median of their ratios keeps one
      // disturbed round (another process waking up) from deciding the figure.
      const perRound = rates.partition.map((p, i) => p / rates.default[i]).filter((x) => Number.isFinite(x));
      const ratio = median(perRound);
      scope.report(
        row(
          RATIO,
          round(ratio, 3),
          'ratio',
          `≥ ${RATIO_TARGET}`,
          cannonFailures.length === 0 && ratio >= RATIO_TARGET,
          `GET ${SHELL_PATH} with autocannon, ${connections} connections, ${rounds} interleaved rounds of ${seconds} s after 1 s warm-ups: default ${rates.default.map((x) => round(x)).join('/')} req/s, /__partition/${PROBE}/ ${rates.partition.map((x) => round(x)).join('/')} req/s (per-round ratios ${perRound.map((x) => x.toFixed(3)).join(', ')}, their median the value; ratio of the means ${(mean(rates.partition) / mean(rates.default)).toFixed(3)}), with ${PARTITIONS + 1} partitions alive; ${context}` +
            (cannonFailures.length ? `; FAILED: ${cannonFailures.join('; ')}` : ''),
        ),
      );
    },
  );
}

await runIfMain(import.meta.url, measure);

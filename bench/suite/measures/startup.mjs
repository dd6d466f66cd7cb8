// Start-up to first answer, as a user meets it: spawn the CLI and time until a GET of a scenario shell has
// come back 2xx. The three configurations take turns run by run, so a slow spell of the machine (the other
// half of the suite, a rebuild) spreads over all of them instead of landing on one.
// Usage: node bench/suite/measures/startup.mjs [--quick]
import {
  freePort,
  guarded,
  median,
  NO_TARGET,
  round,
  row,
  runIfMain,
  contextNote,
  SHELL_ID,
  SHELL_PATH,
} from './lib.mjs';

const TARGET_MS = 400;
const VARIANTS = [
  { name: 'startup to first answer (default scenario)', args: [], target: `< ${TARGET_MS} ms` },
  { name: 'startup to first answer (--scenario none)', args: ['--scenario', 'none'], target: NO_TARGET },
  { name: 'startup to first answer (--dynamic)', args: ['--dynamic'], target: NO_TARGET },
];

async function once(scope, args) {
  const port = await freePort();
  const since = performance.now();
  const sim = scope.spawnSim(['mock', '--port', String(port), ...args]);
  try {
    return await scope.firstAnswer(sim, port, SHELL_PATH, {
      since,
      intervalMs: 5,
      timeoutMs: 15_000,
      expect: SHELL_ID,
    });
  } finally {
    await sim.stop();
  }
}

export async function measure({ quick = false } = {}) {
  const runs = quick ? 3 : 9;
  return guarded(
    {
      timeoutMs: (quick ? 60 : 120) * 1000,
      expected: VARIANTS.map((v) => ({ name: v.name, unit: 'ms', target: v.target })),
    },
    async (scope) => {
      const context = contextNote();
      const times = VARIANTS.map(() => []);
      const problems = VARIANTS.map(() => []);
      for (let run = 0; run < runs; run++) {
        for (const [i, variant] of VARIANTS.entries()) {
          scope.check();
          // A configuration that keeps failing would only spend the watchdog's time on more of the same.
          if (problems[i].length >= 2) continue;
          try {
            const { ms, refused } = await once(scope, variant.args);
            times[i].push(ms);
            if (refused.length)
              problems[i].push(`run ${run + 1}: non-2xx answers before the first 2xx: ${refused.join(', ')}`);
          } catch (error) {
            problems[i].push(`run ${run + 1}: ${error.message}`);
          }
        }
      }
      for (const [i, variant] of VARIANTS.entries()) {
        const sorted = [...times[i]].sort((a, b) => a - b);
        const value = sorted.length ? round(median(sorted)) : NaN;
        const clean = problems[i].length === 0;
        const met = clean && (variant.target === NO_TARGET || value < TARGET_MS);
        scope.report(
          row(
            variant.name,
            value,
            'ms',
            variant.target,
            met,
            `median of ${sorted.length} runs ${value} ms (min ${round(sorted[0])}, max ${round(sorted.at(-1))}), spawn of \`mock --port P${variant.args.map((a) => ` ${a}`).join('')}\` until GET ${SHELL_PATH} answered 2xx, polled every 5 ms; ${context}` +
              (clean ? '' : `; FAILED: ${problems[i].join('; ')}`),
          ),
        );
      }
    },
  );
}

await runIfMain(import.meta.url, measure);

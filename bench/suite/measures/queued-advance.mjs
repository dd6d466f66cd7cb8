// Queued prompts, then one long advance: in a partition of its own, sessions each given five prompts (the
// first plays, four queue behind it), then POST /__sim/clock/advance {"by": "1h"}, which plays every turn. Done
// twice, over 800 prompts (160 sessions) and over 3,200 (640 sessions), so the two show how the cost grows
// with the events played; during the larger advance another partition's clock is read again and again, and
// the slowest of those answers is reported (the advance works in slices, so the others are served meanwhile).
// Report only: a shared machine's figures vary too much for a target.
// Usage: node bench/suite/measures/queued-advance.mjs [--quick]
import http from 'node:http';
import {
  jsonCaller,
  contextNote,
  freePort,
  guarded,
  NO_TARGET,
  procCpuMs,
  request,
  round,
  row,
  runIfMain,
  SHELL_PATH,
} from './lib.mjs';

const PER_SESSION = 5;
const name = (prompts) => `advance 1h over ${prompts.toLocaleString('en-US')} queued prompts`;
const OTHER = 'slowest answer of another partition during the larger advance';

export async function measure({ quick = false } = {}) {
  const sizes = quick ? [100, 400] : [800, 3200];
  return guarded(
    {
      timeoutMs: (quick ? 120 : 600) * 1000,
      expected: [
        ...sizes.map((prompts) => ({ name: name(prompts), unit: 'ms', target: NO_TARGET })),
        { name: OTHER, unit: 'ms', target: NO_TARGET },
      ],
    },
    async (scope) => {
      const context = contextNote();
      const port = await freePort();
      // --virtual-time: the clock moves only when the measure advances it, so every prompt after the first waits.
      const sim = scope.spawnSim(['mock', '--virtual-time', '--quiet', '--port', String(port)]);
      await scope.firstAnswer(sim, port, SHELL_PATH, { since: performance.now() });
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      scope.onClose(() => agent.destroy());
      const jsonCall = jsonCaller(scope, port, agent);
      const call = (path, options) => jsonCall('queued advance', path, options);
      const eventsOf = async (partition) =>
        (await call('/__sim/partitions')).partitions.find((p) => p.name === partition)?.events ?? 0;

      for (const prompts of sizes) {
        const partition = `queued-${prompts}`;
        const base = `/__partition/${partition}`;
        const sessions = prompts / PER_SESSION;
        for (let s = 0; s < sessions; s++) {
          const id = (await call(`${base}/api/session`, { method: 'POST', body: {} })).data.id;
          for (let k = 0; k < PER_SESSION; k++)
            await call(`${base}/api/session/${id}/prompt`, {
              method: 'POST',
              body: { prompt: { text: `Tidy up module ${s}, step ${k}` }, delivery: 'queue' },
            });
        }
        const eventsBefore = await eventsOf(partition);
        const larger = prompts === sizes.at(-1);
        // Another connection reads another partition's clock while the advance runs, one request at a time.
        let advancing = true;
        const others = [];
        const watcher = (async () => {
          if (!larger) return;
          const own = new http.Agent({ keepAlive: true, maxSockets: 1 });
          try {
            while (advancing) {
              const started = performance.now();
              const answer = await request(port, '/__partition/bystander/__sim/clock', { agent: own });
              if (answer.status !== 200) throw new Error(`the other partition answered ${answer.status}`);
              others.push(performance.now() - started);
            }
          } finally {
            own.destroy();
          }
        })();
        const cpuBefore = procCpuMs(sim.pid);
        const started = performance.now();
        await call(`${base}/__sim/clock/advance`, { method: 'POST', body: { by: '1h' } });
        const wallMs = performance.now() - started;
        const cpuMs = procCpuMs(sim.pid) - cpuBefore;
        advancing = false;
        await watcher;
        const played = (await eventsOf(partition)) - eventsBefore;
        const busy = (await call(`${base}/api/session/active`)).data;
        const stillBusy = Object.keys(busy).length;
        scope.report(
          row(
            name(prompts),
            round(wallMs),
            'ms',
            NO_TARGET,
            stillBusy === 0,
            `${sessions} sessions in partition ${partition}, ${PER_SESSION} prompts each (delivery queue; the first plays at once, the rest wait), then one POST /__sim/clock/advance {"by":"1h"} playing every turn: ${played.toLocaleString('en-US')} events, simulator CPU ${round(cpuMs)} ms (${round((cpuMs * 1000) / Math.max(1, played), 1)} µs per event)` +
              (stillBusy ? `; FAILED: ${stillBusy} sessions still busy after the advance` : '') +
              `; \`mock --virtual-time\`; ${context}`,
          ),
        );
        if (larger) {
          const sorted = [...others].sort((a, b) => a - b);
          scope.report(
            row(
              OTHER,
              round(sorted.at(-1) ?? NaN, 1),
              'ms',
              NO_TARGET,
              sorted.length > 0,
              `${sorted.length} GET /__partition/bystander/__sim/clock one after another on their own connection during the ${round(wallMs)} ms advance over ${prompts.toLocaleString('en-US')} prompts (median ${round(sorted[Math.floor(sorted.length / 2)] ?? NaN, 1)} ms); the advance yields every 10 ms of work; ${context}`,
            ),
          );
        }
      }
    },
  );
}

await runIfMain(import.meta.url, measure);

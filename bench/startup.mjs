// Start-up to first answer: spawn the CLI as a user would and time until the first API answer arrives.
// Usage: node bench/startup.mjs [runs=5]. Loopback only; each run is bounded to 20 s.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL(process.env.SIM_BIN ?? '../bin/session-agent-sim.js', import.meta.url));
const runs = Number(process.argv[2] ?? 5);
const port = 4790;

async function once() {
  const started = performance.now();
  const child = spawn(process.execPath, [bin, 'mock', '--port', String(port)], { stdio: 'ignore' });
  try {
    while (performance.now() - started < 20_000) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/plugin`);
        if (res.ok) {
          await res.arrayBuffer();
          return performance.now() - started;
        }
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error('no answer within 20 s');
  } finally {
    child.kill();
    await new Promise((r) => child.once('exit', r));
  }
}

const times = [];
for (let i = 0; i < runs; i++) times.push(await once());
times.sort((a, b) => a - b);
console.log(`start-up to first answer over ${runs} runs: median ${Math.round(times[Math.floor(runs / 2)])} ms, min ${Math.round(times[0])} ms, max ${Math.round(times[runs - 1])} ms`);

// Throughput of the simulator against a bare node:http server and Prism alone, side by side, on loopback.
// Each server runs in its own process; autocannon drives it from this one. Bounded: DURATION s per target.
// Usage: node bench/throughput.mjs [seconds=5] [connections=10]
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const DURATION = Number(process.argv[2] ?? 5);
const CONNECTIONS = Number(process.argv[3] ?? 10);
const here = (path) => fileURLToPath(new URL(path, import.meta.url));

const targets = [
  { name: 'bare node:http', args: [here('servers/bare.mjs'), '4801'], port: 4801 },
  { name: 'prism-http alone', args: [here('servers/prism.mjs'), '4802'], port: 4802 },
  { name: 'session-agent-sim', args: [here('../bin/session-agent-sim.js'), 'mock', '--port', '4803'], port: 4803 },
];
const PATH = '/api/plugin';

async function waitForAnswer(port) {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}${PATH}`);
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`port ${port}: no answer within 20 s`);
}

const rows = [];
for (const target of targets) {
  const child = spawn(process.execPath, target.args, { stdio: 'ignore' });
  try {
    await waitForAnswer(target.port);
    const result = await autocannon({ url: `http://127.0.0.1:${target.port}${PATH}`, connections: CONNECTIONS, duration: DURATION });
    rows.push({ name: target.name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx });
  } finally {
    child.kill();
    await new Promise((r) => child.once('exit', r));
  }
}
const bare = rows[0].rps;
console.log(`GET ${PATH}, ${CONNECTIONS} connections, ${DURATION} s each`);
for (const r of rows) {
  console.log(`${r.name.padEnd(18)} ${Math.round(r.rps).toString().padStart(7)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  ${(r.rps / bare).toFixed(2)}x bare  errors ${r.errors}`);
}

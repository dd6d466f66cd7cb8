// Throughput of the simulator against a bare node:http server and Prism alone, side by side, on loopback,
// plus the cost of scenario state (the same record from an example and from a lifecycle).
// Each server runs in its own process; autocannon drives it from this one. Bounded: DURATION s per target.
// Usage: node bench/throughput.mjs [seconds=5] [connections=10]
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const DURATION = Number(process.argv[2] ?? 5);
const CONNECTIONS = Number(process.argv[3] ?? 10);
const here = (path) => fileURLToPath(new URL(path, import.meta.url));

const sim = here('../bin/session-agent-sim.js');
const SHELL = '/api/shell/sh_203a7e5c7001OpQrStUvWxYzAb';
const targets = [
  { name: 'bare node:http', args: [here('servers/bare.mjs'), '4801'], port: 4801, path: '/api/plugin' },
  { name: 'prism-http alone', args: [here('servers/prism.mjs'), '4802'], port: 4802, path: '/api/plugin' },
  { name: 'sim, examples', args: [sim, 'mock', '--scenario', 'none', '--port', '4803'], port: 4803, path: '/api/plugin' },
  // The same shell record answered from the spec's example and from the default scenario's lifecycle
  // (status computed from the virtual clock on every request): the difference is what state costs.
  { name: 'sim, shell example', args: [sim, 'mock', '--scenario', 'none', '--port', '4804'], port: 4804, path: SHELL },
  { name: 'sim, shell scenario', args: [sim, 'mock', '--port', '4805'], port: 4805, path: SHELL },
  { name: 'sim, 50 messages', args: [sim, 'mock', '--port', '4806'], port: 4806, path: '/api/session/ses_dfc5ae513ffePKUBK7HkVp5zCB/message?limit=50' },
];

async function waitForAnswer(port, path) {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}${path}`);
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
    await waitForAnswer(target.port, target.path);
    const result = await autocannon({ url: `http://127.0.0.1:${target.port}${target.path}`, connections: CONNECTIONS, duration: DURATION });
    rows.push({ name: target.name, path: target.path, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx });
  } finally {
    child.kill();
    await new Promise((r) => child.once('exit', r));
  }
}
const bare = rows[0].rps;
console.log(`${CONNECTIONS} connections, ${DURATION} s each; ratios against bare node:http`);
for (const r of rows) {
  console.log(`${r.name.padEnd(20)} ${Math.round(r.rps).toString().padStart(7)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  ${(r.rps / bare).toFixed(2)}x  errors ${r.errors}  GET ${r.path}`);
}

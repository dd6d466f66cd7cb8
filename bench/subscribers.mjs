// Memory of idle event-stream subscribers, and the cost of publishing to them: spawn the CLI as a user would,
// read its resident memory from /proc, open N subscriptions to GET /api/event, read it again, then send
// agent switches (one event each) and time them with everyone listening.
// Usage: node bench/subscribers.mjs [subscribers=100] [events=1000]. Loopback only; bounded to 60 s.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL(process.env.SIM_BIN ?? '../bin/session-agent-sim.js', import.meta.url));
const subscribers = Number(process.argv[2] ?? 100);
const events = Number(process.argv[3] ?? 1000);
const port = 4791;
const base = `http://127.0.0.1:${port}`;
const SES = 'ses_dfc5ae513ffePKUBK7HkVp5zCB';

const rssKiB = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const agent = new http.Agent({ keepAlive: true, maxSockets: subscribers + 10 });

const child = spawn(process.execPath, ['--expose-gc', bin, 'mock', '--port', String(port)], { stdio: 'ignore' });
const guard = setTimeout(() => {
  child.kill('SIGKILL');
  process.exit(1);
}, 60_000);
try {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/api/plugin`)).ok) break;
    } catch {
      if (i > 400) throw new Error('the simulator did not start');
      await sleep(25);
    }
  }
  // Warm up: the first subscriptions load and compile the stream's code, which is not a per-subscriber cost.
  const warm = await Promise.all(Array.from({ length: 10 }, () => new Promise((resolve) => http.get(`${base}/api/event`, { agent }, (res) => resolve(res)))));
  for (const res of warm) res.destroy();
  await sleep(1000);
  const before = rssKiB(child.pid);
  let received = 0;
  const streams = await Promise.all(
    Array.from({ length: subscribers }, () => new Promise((resolve, reject) => {
      const req = http.get(`${base}/api/event`, { agent }, (res) => {
        res.on('data', (chunk) => (received += String(chunk).split('\n\n').length - 1));
        resolve(req);
      });
      req.on('error', reject);
    })),
  );
  await sleep(1000);
  const idle = rssKiB(child.pid);
  const { partitions } = await (await fetch(`${base}/__sim/partitions`)).json();
  const started = performance.now();
  for (let i = 0; i < events; i++) {
    await fetch(`${base}/api/session/${SES}/agent`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ agent: i % 2 ? 'plan' : 'build' }) });
  }
  const expected = subscribers * (events + 2); // server.connected and the first heartbeat, then one frame per event
  while (received < expected && performance.now() - started < 30_000) await sleep(10);
  const elapsed = performance.now() - started;
  const after = rssKiB(child.pid);
  for (const req of streams) req.destroy();
  console.log(`${subscribers} idle subscribers: RSS ${(before / 1024).toFixed(1)} MiB → ${(idle / 1024).toFixed(1)} MiB (+${((idle - before) / subscribers).toFixed(1)} KiB each); partitions ${partitions.length}`);
  console.log(`${events} events to ${subscribers} subscribers: ${elapsed.toFixed(0)} ms (${((events / elapsed) * 1000).toFixed(0)} events/s, ${received}/${expected} frames); RSS after ${(after / 1024).toFixed(1)} MiB`);
} finally {
  clearTimeout(guard);
  child.kill();
  agent.destroy();
}

// Replay at scale: builds recordings of 100 and 100,000 interactions, then measures how long loading takes
// and how fast each answers through the CLI (autocannon, loopback, 5 s each). Needs `npm run build` (npm ci
// does it). Usage: node bench/replay.mjs [seconds=5]
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { headerDocument, interactionDocument } from '../dist/recordings/format.js';
import { createReplayer } from '../dist/recordings/replay.js';
import { DEFAULT_REDACTION } from '../dist/recordings/redact.js';

const DURATION = Number(process.argv[2] ?? 5);
const dir = mkdtempSync(join(tmpdir(), 'sim-replay-bench-'));
const bin = fileURLToPath(new URL('../bin/session-agent-sim.js', import.meta.url));

function build(count) {
  const file = join(dir, `recording-${count}.yaml`);
  const parts = [headerDocument({ format: 'session-agent-sim/recording@1', specHash: 'bench' })];
  for (let i = 1; i <= count; i++) {
    const sessionID = `ses_bench${String(i).padStart(8, '0')}`;
    parts.push(
      interactionDocument({
        seq: i,
        operationId: 'v2.session.messages',
        pathParams: { sessionID },
        request: { method: 'GET', path: `/api/session/${sessionID}/message`, query: { limit: '1' }, headers: { accept: '*/*' } },
        response: { status: 200, headers: { 'content-type': 'application/json' }, body: { data: [{ id: `msg_${i}`, time: { created: 1795366411614 + i }, type: 'agent-switched', agent: 'plan' }], cursor: { previous: 'eyJpZCI6Im1zZ18x', next: 'eyJpZCI6Im1zZ18y' } } },
        timing: { started: '2026-11-22T16:53:31.551Z', durationMs: 3 },
      }),
    );
  }
  writeFileSync(file, parts.join(''));
  return file;
}

async function serve(file, port) {
  const child = spawn(process.execPath, [bin, 'replay', '--recording', file, '--port', String(port)], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}/api/session/ses_bench00000001/message?limit=1`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.ok) break;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error('replay did not start');
    await new Promise((r) => setTimeout(r, 20));
  }
  const result = await autocannon({ url, connections: 10, duration: DURATION });
  child.kill();
  await new Promise((r) => child.once('exit', r));
  return result.requests.average;
}

for (const [count, port] of [[100, 4811], [100_000, 4812]]) {
  const file = build(count);
  const started = performance.now();
  const replayer = createReplayer(file, DEFAULT_REDACTION);
  const loadMs = performance.now() - started;
  const rps = await serve(file, port);
  console.log(`${String(count).padStart(7)} interactions: loaded in ${Math.round(loadMs)} ms (${replayer.size} indexed), ${Math.round(rps)} req/s`);
}

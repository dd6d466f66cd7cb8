/**
 * kill -9 in the middle of a 500-request recording: the file stays valid YAML and holds every interaction
 * whose answer reached the client (an interaction is written before its answer is sent).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { parseRecording } from '../../src/recordings/format.js';

const BIN = fileURLToPath(new URL('../../bin/session-agent-sim.js', import.meta.url));
let upstream: Server;

beforeAll(async () => {
  upstream = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: { id: 'per_1', effect: 'deny' } }));
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  upstream.closeAllConnections();
  await new Promise((resolve) => upstream.close(resolve));
});

it('leaves a valid file with every completed interaction after kill -9', async () => {
  const recording = join(mkdtempSync(join(tmpdir(), 'sim-crash-')), 'crash.yaml');
  const child = spawn(
    process.execPath,
    [
      BIN,
      'record',
      '--upstream',
      `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      '--recording',
      recording,
      '--port',
      '0',
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no start-up line: ${out}`)), 15_000);
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const match = /(http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
  });

  let completed = 0;
  let next = 0;
  const worker = async () => {
    while (next < 500) {
      const i = next++;
      if (i === 250) child.kill('SIGKILL');
      try {
        const res = await fetch(`${url}/api/session/ses_1/permission`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ action: 'bash', resources: [`r${i}`] }),
        });
        if (res.ok) {
          await res.arrayBuffer();
          completed++;
        }
      } catch {
        // the recorder is gone
      }
    }
  };
  await Promise.all(Array.from({ length: 20 }, worker));
  await new Promise((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve(undefined) : child.once('exit', resolve),
  );

  const text = readFileSync(recording, 'utf8');
  expect(parseAllDocuments(text).every((d) => d.errors.length === 0)).toBe(true);
  const { interactions, tornTail } = parseRecording(text);
  expect(tornTail).toBe(false);
  expect(completed).toBeGreaterThan(100);
  expect(interactions.length).toBeGreaterThanOrEqual(completed);
}, 60_000);

/**
 * Faults around a recording: an upstream that refuses, resets, stalls or answers garbage, in every mode
 * that forwards; a recording that cannot be written (a path through a file, a read-only or full disk) at
 * start and at the first write; SIGTERM in the middle of an answer. Each one is a clear JSON error or a
 * clear sentence, and the recording stays valid.
 */
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/hosts/app.js';
import { startServer } from '../../src/hosts/server.js';
import { parseRecording } from '../../src/recordings/format.js';
import { skippedWhen } from '../support/environment.js';
import { freePort } from '../support/ports.js';
import { SimConfigError } from '../../src/errors/sim-errors.js';

const BIN = fileURLToPath(new URL('../../bin/session-agent-sim.js', import.meta.url));
const PLUGINS = {
  location: { directory: '/srv/x', project: { id: 'global', directory: '/srv/x' } },
  data: [{ id: 'agent' }],
};

/** A loopback upstream whose answer per path is a fault or a healthy JSON body. */
let upstream: Server;
let upstreamUrl: string;
beforeAll(async () => {
  upstream = createServer((req, res) => {
    req.resume();
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/api/reference') {
      req.socket.destroy(); // reset
    } else if (path === '/api/integration') {
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"data": []}'), 1500); // slow
    } else if (path === '/api/model/default') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"data": {'); // malformed
    } else if (path === '/api/slow-plugin') {
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(PLUGINS)), 800);
    } else {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(PLUGINS));
    }
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
afterAll(async () => {
  upstream.closeAllConnections();
  await new Promise((resolve) => upstream.close(resolve));
});

const tempDir = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));

describe.each(['proxy', 'record', 'hybrid'] as const)('upstream faults in %s mode', (mode) => {
  let url: string;
  let close: () => Promise<void>;
  let recording: string | undefined;
  const logged: string[] = [];

  beforeAll(async () => {
    recording = mode === 'proxy' ? undefined : join(tempDir('sim-faults-'), `${mode}.yaml`);
    // Hybrid replay starts from a recording that holds something, and records what it lacks into it.
    if (mode === 'hybrid') {
      const seed = await startServer({ port: 0, upstream: upstreamUrl, record: recording, log: () => {} });
      await (await fetch(`${seed.url}/api/plugin`)).arrayBuffer();
      await seed.close();
    }
    const sim = await startServer({
      port: 0,
      upstream: upstreamUrl,
      upstreamTimeout: 300,
      ...(mode === 'record' ? { record: recording } : mode === 'hybrid' ? { replay: recording } : {}),
      log: (line) => logged.push(line),
    });
    url = sim.url;
    close = () => sim.close();
  });
  afterAll(async () => {
    await close();
    expect(logged.filter((line) => line.startsWith('[err_'))).toEqual([]);
  });

  it.each([
    ['reset', '/api/reference', 'ECONNRESET', 'the connection was reset'],
    ['slow', '/api/integration', 'ETIMEDOUT', 'no answer within 300 ms'],
    ['malformed', '/api/model/default', 'EBADJSON', ''],
  ])('a %s upstream answers a JSON SimUpstreamError', async (_fault, path, code, words) => {
    const res = await fetch(`${url}${path}`);
    expect(res.status).toBe(502);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await res.json()) as { _tag: string; code: string; message: string; hint: string };
    expect(body).toMatchObject({ _tag: 'SimUpstreamError', code });
    expect(body.message).toContain(words);
    expect(body.hint).toContain('--upstream');
  });

  it('a healthy answer still passes, and the recording holds exactly the healthy interactions, valid to the end', async () => {
    const res = await fetch(`${url}/api/plugin`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(PLUGINS);
    // Checked against the spec on the way, and found as declared.
    expect(res.headers.get('x-sim-violations')).toBeNull();
    if (!recording) return;
    const { header, interactions, tornTail } = parseRecording(readFileSync(recording, 'utf8'));
    expect(header?.format).toBe('session-agent-sim/recording@1');
    expect(tornTail).toBe(false);
    // Hybrid replays /api/plugin from what it seeded; record wrote it now. No fault was written down.
    expect(interactions.map((i) => `${i.request.path} ${i.response.status}`)).toEqual(['/api/plugin 200']);
  });
});

describe('a refused upstream', () => {
  it.each(['proxy', 'record'] as const)('answers a JSON SimUpstreamError in %s mode', async (mode) => {
    const port = await freePort();
    const recording = join(tempDir('sim-refused-'), 'r.yaml');
    const app = await createApp({
      upstream: `http://127.0.0.1:${port}`,
      ...(mode === 'record' ? { record: recording } : {}),
      log: () => {},
    });
    const res = await request(app).get('/api/plugin');
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ _tag: 'SimUpstreamError', code: 'ECONNREFUSED' });
    if (mode === 'record') expect(parseRecording(readFileSync(recording, 'utf8')).interactions).toEqual([]);
  });
});

describe('a recording that cannot be written', () => {
  it('is refused at start when its path runs through a file, with a sentence naming why', async () => {
    const dir = tempDir('sim-notdir-');
    writeFileSync(join(dir, 'file'), 'x');
    const recording = join(dir, 'file', 'r.yaml');
    await expect(createApp({ upstream: upstreamUrl, record: recording, log: () => {} })).rejects.toThrow(
      SimConfigError,
    );
    await expect(createApp({ upstream: upstreamUrl, record: recording, log: () => {} })).rejects.toThrow(
      `cannot record into ${recording}: a part of the path is a file, not a folder (EEXIST)`,
    );
    const cli = spawn(
      process.execPath,
      [BIN, 'record', '--upstream', upstreamUrl, '--recording', recording, '--port', '0'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    cli.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = await once(cli, 'exit');
    expect(code).toBe(2);
    expect(stderr).toBe(
      `cannot record into ${recording}: a part of the path is a file, not a folder (EEXIST)\nRun "session-agent-sim record --help" for its options and examples.\n`,
    );
  });

  it('is refused at start when it is a device or a folder, not a file', async () => {
    await expect(createApp({ upstream: upstreamUrl, record: '/dev/full', log: () => {} })).rejects.toThrow(
      'cannot record into /dev/full: it is not a regular file',
    );
    await expect(createApp({ upstream: upstreamUrl, record: tempDir('sim-dir-'), log: () => {} })).rejects.toThrow(
      'it is not a regular file',
    );
  });

  // A small file system of its own is the honest way to run out of space; it needs the right to mount one.
  const disk = tryMount();
  const noDisk = disk ? undefined : 'mounting a tmpfs needs root (or CAP_SYS_ADMIN)';
  describe('on a disk of its own (a 256 KiB tmpfs)', skippedWhen(noDisk), () => {
    const mount = disk as string;
    afterAll(() => {
      // Lazily: a simulator of a failed test may still hold a file there.
      execFileSync('umount', ['-l', mount]);
      rmdirSync(mount);
    });

    it('is refused at start on a read-only disk', async () => {
      execFileSync('mount', ['-o', 'remount,ro', mount]);
      try {
        await expect(
          createApp({ upstream: upstreamUrl, record: join(mount, 'ro.yaml'), log: () => {} }),
        ).rejects.toThrow(`cannot record into ${join(mount, 'ro.yaml')}: read-only file system (EROFS)`);
      } finally {
        execFileSync('mount', ['-o', 'remount,rw', mount]);
      }
    });

    it('answers 507 SimRecordingWriteError at the write that finds the disk full, logs it, and records again once there is room', async () => {
      const recording = join(mount, 'full.yaml');
      const logged: string[] = [];
      const sim = await startServer({
        port: 0,
        upstream: upstreamUrl,
        record: recording,
        log: (line) => logged.push(line),
      });
      try {
        expect((await fetch(`${sim.url}/api/plugin`)).status).toBe(200);
        fill(join(mount, 'filler'));
        // Longer than what is left of the file's last page, so the write needs room the disk no longer has.
        const res = await fetch(`${sim.url}/api/plugin?after=full&pad=${'p'.repeat(6000)}`);
        expect(res.status).toBe(507);
        expect(await res.json()).toEqual({
          _tag: 'SimRecordingWriteError',
          code: 'ENOSPC',
          message: `The upstream answered, but the interaction could not be written to ${recording}: no space left on device (ENOSPC)`,
          hint: expect.stringContaining('Free space on that disk'),
        });
        expect(logged.some((line) => line.startsWith('record: interaction 2 (GET /api/plugin) not written:'))).toBe(
          true,
        );
        rmSync(join(mount, 'filler'));
        expect((await fetch(`${sim.url}/api/plugin?after=freed`)).status).toBe(200);
      } finally {
        await sim.close();
      }
      const { interactions, tornTail } = parseRecording(readFileSync(recording, 'utf8'));
      expect(tornTail).toBe(false);
      expect(interactions.map((i) => i.request.query)).toEqual([{}, { after: 'freed' }]);
    });

    it('is refused at start on a full disk', async () => {
      fill(join(mount, 'filler'));
      try {
        await expect(
          createApp({ upstream: upstreamUrl, record: join(mount, 'new.yaml'), log: () => {} }),
        ).rejects.toThrow('no space left on device (ENOSPC)');
      } finally {
        rmSync(join(mount, 'filler'));
      }
    });
  });
});

describe('SIGTERM', () => {
  it('lets the answer in flight finish and be recorded, writes the open event stream down, and exits 0', async () => {
    const recording = join(tempDir('sim-term-'), 'term.yaml');
    // An upstream whose plugin list takes 800 ms, and whose event stream never ends by itself.
    const slow = createServer((req, res) => {
      req.resume();
      if (req.url?.startsWith('/api/event')) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: {"id":"evt_1","type":"server.connected","data":{}}\n\n');
        return;
      }
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(PLUGINS)), 800);
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const child = spawn(
      process.execPath,
      [
        BIN,
        'record',
        '--upstream',
        `http://127.0.0.1:${(slow.address() as AddressInfo).port}`,
        '--recording',
        recording,
        '--port',
        '0',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      let out = '';
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no start-up line: ${out}`)), 15_000);
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const match = /(http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (match?.[1]) {
            clearTimeout(timer);
            resolve(match[1]);
          }
        });
      });
      const events = await fetch(`${url}/api/event`);
      const reader = events.body?.getReader();
      await reader?.read();
      const inFlight = fetch(`${url}/api/plugin`).then(async (res) => ({ status: res.status, body: await res.text() }));
      await new Promise((resolve) => setTimeout(resolve, 200));
      const started = Date.now();
      child.kill('SIGTERM');
      const answer = await inFlight;
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toEqual(PLUGINS);
      // The event stream is ended by the shutdown, not cut.
      let ended = false;
      while (!ended) ended = (await reader?.read())?.done ?? true;
      const [code] = await once(child, 'exit');
      expect(code).toBe(0);
      expect(Date.now() - started).toBeLessThan(5000);
      const { interactions, tornTail } = parseRecording(readFileSync(recording, 'utf8'));
      expect(tornTail).toBe(false);
      expect(interactions.map((i) => [i.request.path, i.response.status, i.response.open ?? false])).toEqual(
        expect.arrayContaining([
          ['/api/event', 200, true],
          ['/api/plugin', 200, false],
        ]),
      );
      expect(interactions).toHaveLength(2);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      slow.closeAllConnections();
      await new Promise((resolve) => slow.close(resolve));
    }
  });
});

/** Mounts a 256 KiB tmpfs and returns where, or nothing when this machine does not let us. */
function tryMount(): string | false {
  const dir = join(tmpdir(), `sim-disk-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', dir], { stdio: 'ignore' });
    return dir;
  } catch {
    return false;
  }
}

/** Writes until the disk refuses: what is left is no room at all. */
function fill(file: string): void {
  try {
    writeFileSync(file, Buffer.alloc(1024 * 1024));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  }
}

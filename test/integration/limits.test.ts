/**
 * The limits that keep a misbehaving client from taking the simulator down, each pushed past over real
 * sockets: what is refused is refused in JSON with a clear error, what is accepted is answered whole, and
 * memory stays bounded however far past the limit a client goes.
 */
import { request as httpRequest } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningSimulator } from '../../src/hosts/server.js';
import { openSocket, rawExchange } from '../support/raw-http.js';

const SES = 'ses_dfc5ae513ffePKUBK7HkVp5zCB';
const MB = 1024 * 1024;

let sim: RunningSimulator;
const logged: string[] = [];

beforeAll(async () => {
  sim = await startServer({
    port: 0,
    scenario: 'default',
    requestTimeout: 600,
    bodyLimit: 64 * 1024,
    log: (line) => logged.push(line),
  });
});
afterAll(async () => {
  await sim.close();
  // Nothing the tests did was an unexpected failure of the simulator.
  expect(logged.filter((line) => line.startsWith('[err_'))).toEqual([]);
});

const get = (path: string, headers = '') =>
  `GET ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\n${headers}connection: close\r\n\r\n`;

/** Holds sockets open and closes them all at the end, whatever the test's outcome. */
async function holding<T>(body: (held: Socket[]) => Promise<T>): Promise<T> {
  const held: Socket[] = [];
  try {
    return await body(held);
  } finally {
    for (const socket of held) socket.destroy();
  }
}

/** Opens an event stream (or the inspector's) on a raw socket and resolves with its status once the head arrives. */
async function openStream(path: string, held: Socket[], port = sim.port): Promise<number> {
  const socket = await openSocket(port);
  held.push(socket);
  return new Promise((resolve) => {
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const status = /^HTTP\/1\.1 (\d+)/.exec(text)?.[1];
      if (status && text.includes('\r\n\r\n')) {
        socket.removeAllListeners('data');
        // Keep reading (and discarding), so a stream held open is a reader, not a stalled subscriber.
        socket.on('data', () => {});
        resolve(Number(status));
      }
    });
    socket.write(`GET ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n`);
  });
}

// A collection before each reading, so the heap figure is what is held, not what is waiting to be freed.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/** What the process holds now: RSS (what the issue asks about, loose) and the live heap (tight). */
function memory(): { rss: number; heap: number } {
  collect();
  const { rss, heapUsed } = process.memoryUsage();
  return { rss, heap: heapUsed };
}

/** Grown by less than `heapBound` of live heap, and less than twice that of RSS (which the allocator keeps). */
function expectBounded(before: { rss: number; heap: number }, heapBound: number): void {
  const after = memory();
  expect(after.heap - before.heap, 'live heap growth').toBeLessThan(heapBound);
  expect(after.rss - before.rss, 'RSS growth').toBeLessThan(2 * heapBound + 64 * MB);
}

describe('request size', () => {
  it('takes a 20 kB query string, which Node alone answers with a bare 431', async () => {
    const answer = await rawExchange(sim.port, get(`/api/fs/list?path=${'a'.repeat(20_000)}`));
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(JSON.parse(answer.body)).toMatchObject({ _tag: 'InvalidRequestError' });
  });

  it('answers a request head past the limit with a JSON 431 that says how to fix it', async () => {
    for (const request of [
      get(`/api/plugin?x=${'a'.repeat(100_000)}`),
      get('/api/plugin', `x-big: ${'b'.repeat(70_000)}\r\n`),
    ]) {
      const answer = await rawExchange(sim.port, request);
      expect(answer.status).toBe(431);
      expect(answer.headers['content-type']).toBe('application/json');
      expect(JSON.parse(answer.body)).toEqual({
        _tag: 'SimRequestRefusedError',
        message: 'The request line and headers are longer than the simulator accepts (65536 bytes)',
        hint: expect.stringContaining('--max-header-size'),
      });
      expect(answer.closed).toBe(true);
    }
  });

  it('answers broken HTTP with a JSON 400', async () => {
    for (const request of [
      'GET /api/plugin HTTP/1.1\r\nhost: x\r\nbad header line\r\n\r\n',
      'POST /api/pty HTTP/1.1\r\ncontent-length: 5\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n',
      '\x00\x01\x02 / HTTP/1.1\r\n\r\n',
    ]) {
      const answer = await rawExchange(sim.port, request);
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toMatchObject({
        _tag: 'SimRequestRefusedError',
        message: expect.stringContaining('not well-formed HTTP/1.1'),
      });
    }
  });

  it('answers a body past the limit with the declared InvalidRequestError of the operation, and holds none of it', async () => {
    const before = memory();
    const body = JSON.stringify({ command: 'x'.repeat(200_000) });
    for (let i = 0; i < 50; i++) {
      const answer = await rawExchange(
        sim.port,
        `POST /api/pty HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`,
      );
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toMatchObject({
        _tag: 'InvalidRequestError',
        kind: 'Payload',
        message: expect.stringContaining('larger than the simulator accepts'),
      });
    }
    expectBounded(before, 8 * MB);
  });
});

describe('slow and half-open clients', () => {
  it('answers a request that stops half-way with a JSON 408 once the deadline passes, and closes it', async () => {
    const started = Date.now();
    const answer = await rawExchange(sim.port, 'GET /api/plugin HTTP/1.1\r\nhost: 127.0.0.1\r\nx-slow: ', 5000);
    expect(answer.status).toBe(408);
    expect(JSON.parse(answer.body)).toMatchObject({
      _tag: 'SimRequestRefusedError',
      message: 'The request did not arrive whole within 600 ms',
    });
    expect(answer.closed).toBe(true);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('times out a body that trickles in', async () => {
    const socket = await openSocket(sim.port);
    socket.write(
      'POST /api/pty HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"comm',
    );
    const answer = await rawExchange(sim.port, '', 5000, socket);
    expect(answer.status).toBe(408);
    expect(answer.closed).toBe(true);
  });

  it('closes a connection that never sends a byte', async () => {
    const started = Date.now();
    const answer = await rawExchange(sim.port, '', 5000);
    expect(answer.closed).toBe(true);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('keeps answering everyone else while 200 clients hang half-way', async () => {
    await holding(async (held) => {
      for (let i = 0; i < 200; i++) {
        const socket = await openSocket(sim.port);
        socket.on('error', () => {});
        socket.resume();
        socket.write('GET /api/plugin HTTP/1.1\r\nhost: x\r\n');
        held.push(socket);
      }
      const res = await fetch(`${sim.url}/api/plugin`);
      expect(res.status).toBe(200);
      // Past the deadline every one of them is gone.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      expect(held.every((socket) => socket.destroyed || socket.readableEnded)).toBe(true);
    });
  });

  it('never cuts an answer short: one slower than the request deadline still arrives whole', async () => {
    const res = await fetch(`${sim.url}/__sim/rules`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        when: { operation: 'v2.reference.list' },
        then: {
          status: 200,
          body: { location: { directory: '/d', project: { id: 'p', directory: '/d' } }, data: [] },
          delay: '1500ms',
        },
      }),
    });
    expect(res.status).toBe(201);
    try {
      const answer = await rawExchange(sim.port, get('/api/reference'), 5000);
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({ data: [] });
    } finally {
      await fetch(`${sim.url}/__sim/rules`, { method: 'DELETE' });
    }
  });

  it('sends a large answer whole to a client that reads it slowly', async () => {
    const body = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(`${sim.url}/__sim/operations`, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
          res.pause();
          setTimeout(() => res.resume(), 5);
        });
        res.on('end', () =>
          Number(res.headers['content-length']) === Buffer.byteLength(text)
            ? resolve(text)
            : reject(new Error('cut short')),
        );
      });
      req.end();
    });
    // The interface document's 23 operations, its event stream, and the real server's 67 others.
    expect(JSON.parse(body).operations.length).toBe(91);
  });
});

// Thousands of requests each: generous time, so a busy machine slows them without failing them.
describe('memory under abuse', { timeout: 60_000 }, () => {
  it('caps partitions: past the limit a clear 429, and memory stays bounded', async () => {
    const small = await startServer({ port: 0, scenario: 'default', maxPartitions: 64, log: () => {} });
    try {
      const before = memory();
      const statuses: number[] = [];
      const tags = new Set<string>();
      for (let i = 0; i < 200; i++) {
        const res = await fetch(`${small.url}/api/session/${SES}/message?limit=5`, {
          headers: { 'x-sim-partition': `w${i}` },
        });
        statuses.push(res.status);
        if (res.status !== 200) tags.add(((await res.json()) as { _tag: string })._tag);
        else await res.arrayBuffer();
      }
      expect(statuses.filter((s) => s === 200)).toHaveLength(63);
      expect(statuses.filter((s) => s === 429)).toHaveLength(137);
      expect([...tags]).toEqual(['SimPartitionLimitError']);
      expect(small.app.sim.partitions.list()).toHaveLength(64);
      expectBounded(before, 16 * MB);
    } finally {
      await small.close();
    }
  });

  it('caps event-stream subscribers over all partitions, and frees a place when one leaves', async () => {
    const capped = await startServer({ port: 0, scenario: 'default', maxSubscribers: 40, log: () => {} });
    try {
      await holding(async (held) => {
        const before = memory();
        const statuses: number[] = [];
        for (let i = 0; i < 60; i++)
          statuses.push(await openStream(i % 2 ? '/api/event' : `/__partition/p${i % 4}/api/event`, held, capped.port));
        expect(statuses.slice(0, 40).every((s) => s === 200)).toBe(true);
        expect(statuses.slice(40).every((s) => s === 429)).toBe(true);
        const refused = await fetch(`${capped.url}/api/event`);
        expect(refused.status).toBe(429);
        expect(await refused.json()).toEqual({
          _tag: 'SimStreamLimitError',
          message: 'The simulator already holds 40 open event-stream subscribers, its limit',
          max: 40,
          hint: expect.stringContaining('maxSubscribers'),
        });
        // One leaves: its place is free again.
        held[0]?.destroy();
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(await openStream('/api/event', held, capped.port)).toBe(200);
        expectBounded(before, 16 * MB);
      });
    } finally {
      await capped.close();
    }
  });

  it('bounds what a subscriber that stops reading can hold, by bytes as well as frames', async () => {
    const partition = sim.app.sim.partitions.get('stalled');
    await holding(async (held) => {
      const socket = await openSocket(sim.port);
      held.push(socket);
      socket.write(`GET /__partition/stalled/api/event HTTP/1.1\r\nhost: x\r\n\r\n`);
      await new Promise((resolve) => socket.once('data', resolve));
      socket.pause();
      const before = memory();
      // Large frames: the byte bound (256 KiB) comes long before the 256-frame one would.
      const padding = 'x'.repeat(16_000);
      for (let i = 0; i < 2000 && partition.events.dropped === 0; i++) {
        partition.engine.commit([{ type: 'form.cancelled', data: { id: `frm_${padding}`, sessionID: SES } }], {
          request: 'test',
        });
        if (i % 20 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      expect(partition.events.dropped).toBe(1);
      expect(partition.events.subscribers).toBe(0);
      expectBounded(before, 16 * MB);
    });
  });

  it('caps inspector streams', async () => {
    await holding(async (held) => {
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) statuses.push(await openStream('/__sim/live', held));
      expect(statuses.filter((s) => s === 200)).toHaveLength(32);
      expect(statuses.filter((s) => s === 429)).toHaveLength(8);
      const refused = await fetch(`${sim.url}/__sim/live`);
      expect(await refused.json()).toMatchObject({
        _tag: 'SimStreamLimitError',
        max: 32,
        hint: expect.stringContaining('inspector tabs'),
      });
    });
  });

  it('caps run-time rules per partition', async () => {
    const before = memory();
    const rule = (i: number) => ({
      when: { operation: 'v2.plugin.list', query: { n: String(i) } },
      then: { status: 200, body: { location: { directory: '/d', project: { id: 'p', directory: '/d' } }, data: [] } },
    });
    const statuses: number[] = [];
    for (let i = 0; i < 1100; i++) {
      const res = await fetch(`${sim.url}/__partition/rules/__sim/rules`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(rule(i)),
      });
      statuses.push(res.status);
      if (i === 1099) expect(await res.json()).toMatchObject({ _tag: 'SimRuleLimitError', max: 1000 });
      else await res.arrayBuffer();
    }
    expect(statuses.filter((s) => s === 201)).toHaveLength(1000);
    expect(statuses.filter((s) => s === 429)).toHaveLength(100);
    expectBounded(before, 16 * MB);
  });

  it('keeps the journal, the log and the exchange details as rings: memory stops growing with traffic', async () => {
    const partition = sim.app.sim.partitions.get('ring');
    const send = async (n: number) => {
      for (let i = 0; i < n; i++) {
        // Refused requests (the world keeps nothing of them) with large bodies, which the details keep.
        const res = await fetch(`${sim.url}/__partition/ring/api/session/${SES}/agent?n=${i}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ agent: i, note: 'x'.repeat(16_000) }),
        });
        expect(res.status).toBe(400);
        await res.arrayBuffer();
      }
    };
    await send(1200);
    const warm = memory();
    await send(1200);
    expect(partition.journal.entries().length).toBe(1000);
    expect(partition.engine.log.entries().length).toBeLessThanOrEqual(5000);
    expectBounded(warm, 8 * MB);
  });
});

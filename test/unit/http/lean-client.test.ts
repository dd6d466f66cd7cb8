import { createServer, Socket as NetSocket, type Server, type Socket } from 'node:net';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LeanPool, PIPELINE_DEPTH, PIPELINE_FROM, type LeanClientAnswer } from '../../../src/http/lean-client.js';

/** A raw TCP upstream: each request's head (and body) is handed to `answer` with its connection's number. */
interface RawUpstream {
  port: number;
  pool: LeanPool;
  connections: number;
  requests: string[];
  close(): Promise<void>;
}

const open: RawUpstream[] = [];
afterEach(async () => {
  for (const upstream of open.splice(0)) await upstream.close();
});

async function rawUpstream(
  answer: (request: string, socket: Socket, connection: number) => void,
  timeoutMs = 2000,
): Promise<RawUpstream> {
  const sockets = new Set<Socket>();
  const state = { connections: 0, requests: [] as string[] };
  const server: Server = createServer((socket) => {
    const connection = ++state.connections;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      for (;;) {
        const end = buffered.indexOf('\r\n\r\n');
        if (end < 0) return;
        const length = Number(/content-length: (\d+)/i.exec(buffered.slice(0, end))?.[1] ?? 0);
        if (buffered.length < end + 4 + length) return;
        const request = buffered.slice(0, end + 4 + length);
        buffered = buffered.slice(end + 4 + length);
        state.requests.push(request);
        answer(request, socket, connection);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const upstream: RawUpstream = {
    port,
    pool: new LeanPool('127.0.0.1', port, `127.0.0.1:${port}`, timeoutMs),
    get connections() {
      return state.connections;
    },
    requests: state.requests,
    close: async () => {
      upstream.pool.destroy();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  open.push(upstream);
  return upstream;
}

const JSON_OK = (body: string, extra = '') =>
  `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;

function whole(answer: LeanClientAnswer): { status: number; body: string } {
  if (!('body' in answer)) throw new Error('expected a whole answer, got a stream');
  return { status: answer.status, body: answer.body.toString('utf8') };
}

/** The path a raw request asked for. */
const pathOf = (request: string) => /^GET (\S+)/.exec(request)?.[1];

const get = (path = '/x') => ({ method: 'GET', path, headers: { accept: 'application/json' } });

describe('LeanPool', () => {
  it('reads answers framed by length and keeps the connection for the next request', async () => {
    const upstream = await rawUpstream((_, socket) => socket.write(JSON_OK('{"n":1}')));
    for (let i = 0; i < 3; i++)
      expect(whole(await upstream.pool.request(get()))).toEqual({ status: 200, body: '{"n":1}' });
    expect(upstream.connections).toBe(1);
    expect(upstream.requests[0]).toMatch(
      /^GET \/x HTTP\/1\.1\r\nhost: 127\.0\.0\.1:\d+\r\naccept: application\/json\r\n\r\n$/,
    );
  });

  it('writes a request on a kept connection after the callbacks of the turn that asked for it', async () => {
    const upstream = await rawUpstream((_, socket) => socket.write(JSON_OK('{}')));
    await upstream.pool.request(get());
    const writes = vi.spyOn(NetSocket.prototype, 'write');
    try {
      const answered = upstream.pool.request(get('/second'));
      await Promise.resolve();
      // With the other writes of the turn (outbox.ts): the upstream is woken once for all of them.
      expect(writes).not.toHaveBeenCalled();
      expect(whole(await answered).body).toBe('{}');
      expect(upstream.requests[1]).toMatch(/^GET \/second HTTP\/1\.1\r\n/);
    } finally {
      writes.mockRestore();
    }
  });

  it('opens a connection for each request in flight at once', async () => {
    const upstream = await rawUpstream((_, socket) => setTimeout(() => socket.write(JSON_OK('{}')), 20));
    const answers = await Promise.all([1, 2, 3].map(() => upstream.pool.request(get())));
    expect(answers.map((a) => whole(a).body)).toEqual(['{}', '{}', '{}']);
    expect(upstream.connections).toBe(3);
  });

  it('decodes a chunked answer that arrives in pieces, trailers and all', async () => {
    const upstream = await rawUpstream((_, socket) => {
      const parts = [
        'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n4\r\n{"a"',
        '\r\n',
        '3;ext=1\r\n:12\r\n1\r\n}\r',
        '\n0\r\nx-trailer: 1\r\n\r\n',
      ];
      parts.forEach((part, i) => setTimeout(() => socket.write(part), i * 5));
    });
    expect(whole(await upstream.pool.request(get()))).toEqual({ status: 200, body: '{"a":12}' });
    expect(whole(await upstream.pool.request(get()))).toEqual({ status: 200, body: '{"a":12}' });
    expect(upstream.connections).toBe(1);
  });

  it('reads an answer without a length up to the close, and does not use that connection again', async () => {
    const upstream = await rawUpstream((_, socket) =>
      socket.end('HTTP/1.1 200 OK\r\nconnection: close\r\n\r\nall of it'),
    );
    expect(whole(await upstream.pool.request(get()))).toEqual({ status: 200, body: 'all of it' });
    expect(whole(await upstream.pool.request(get()))).toEqual({ status: 200, body: 'all of it' });
    expect(upstream.connections).toBe(2);
  });

  it('reads no body for a 204 or a HEAD, and skips an interim 103', async () => {
    const upstream = await rawUpstream((request, socket) => {
      if (request.startsWith('HEAD')) socket.write('HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\n');
      else socket.write('HTTP/1.1 103 Early Hints\r\nlink: </a>\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n');
    });
    expect(whole(await upstream.pool.request({ method: 'HEAD', path: '/', headers: {} }))).toEqual({
      status: 200,
      body: '',
    });
    expect(whole(await upstream.pool.request(get()))).toEqual({ status: 204, body: '' });
    expect(upstream.connections).toBe(1);
  });

  it('sends a body with its length, and a length of 0 for a POST without one', async () => {
    const upstream = await rawUpstream((_, socket) => socket.write(JSON_OK('{}')));
    await upstream.pool.request({ method: 'POST', path: '/a', headers: {}, body: Buffer.from('{"é":1}') });
    await upstream.pool.request({ method: 'POST', path: '/b', headers: {} });
    expect(upstream.requests[0]).toMatch(/content-length: 8\r\n\r\n\{"\xc3\xa9":1\}$/);
    expect(upstream.requests[1]).toMatch(/content-length: 0\r\n\r\n$/);
  });

  it('gives repeated headers as Node does: set-cookie as a list, others joined', async () => {
    const upstream = await rawUpstream((_, socket) =>
      socket.write(JSON_OK('{}', 'Set-Cookie: a=1\r\nset-cookie: b=2\r\nx-many: 1\r\nX-Many: 2\r\n')),
    );
    const answer = await upstream.pool.request(get());
    expect(answer.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(answer.headers['x-many']).toBe('1, 2');
  });

  it('hands an event stream on as its bytes come, and closes the connection when the consumer lets go', async () => {
    let upstreamSocket: Socket | undefined;
    const upstream = await rawUpstream((_, socket) => {
      upstreamSocket = socket;
      socket.write('HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n');
      socket.write('d\r\ndata: first\n\n\r\n');
      setTimeout(() => socket.write('e\r\ndata: second\n\n\r\n'), 20);
    });
    const answer = await upstream.pool.request(get('/event'));
    if (!('stream' in answer)) throw new Error('expected a stream');
    const seen: string[] = [];
    await new Promise<void>((resolve) =>
      answer.stream.on('data', (chunk: Buffer) => {
        seen.push(chunk.toString('utf8'));
        if (seen.join('').includes('second')) resolve();
      }),
    );
    expect(seen.join('')).toBe('data: first\n\ndata: second\n\n');
    const closed = new Promise((resolve) => upstreamSocket?.once('close', resolve));
    answer.stream.destroy();
    await closed;
  });

  it('names the failures as Node does: refused, timed out, broken off, malformed', async () => {
    const gone = await rawUpstream(() => {});
    const { port } = gone;
    await gone.close();
    const refused = new LeanPool('127.0.0.1', port, `127.0.0.1:${port}`, 2000);
    await expect(refused.request(get())).rejects.toMatchObject({ code: 'ECONNREFUSED' });

    const silent = await rawUpstream(() => {}, 100);
    await expect(silent.pool.request(get())).rejects.toMatchObject({ code: 'ETIMEDOUT' });

    const cut = await rawUpstream((_, socket) => socket.end('HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nabc'));
    await expect(cut.pool.request(get())).rejects.toMatchObject({
      code: 'ECONNRESET',
      message: 'the upstream broke off its answer',
    });

    const garbled = await rawUpstream((_, socket) => socket.write('SMTP ready\r\n\r\n'));
    await expect(garbled.pool.request(get())).rejects.toMatchObject({ code: 'EBADANSWER' });
    garbled.requests.length = 0;
    await expect(garbled.pool.request(get())).rejects.toMatchObject({ code: 'EBADANSWER' });
    expect(garbled.connections).toBe(2);
  });

  it('sends a GET again on a new connection when a kept one closes under it, but never a POST', async () => {
    const upstream = await rawUpstream((request, socket, connection) => {
      // The first connection answers once, then closes without an answer when asked again.
      if (connection === 1 && upstream.requests.length > 1) socket.destroy();
      else socket.write(JSON_OK('{"ok":true}'));
    });
    expect(whole(await upstream.pool.request(get())).body).toBe('{"ok":true}');
    expect(whole(await upstream.pool.request(get())).body).toBe('{"ok":true}');
    expect(upstream.connections).toBe(2);

    const posting = await rawUpstream((_, socket, connection) => {
      if (connection === 1 && posting.requests.length > 1) socket.destroy();
      else socket.write(JSON_OK('{}'));
    });
    await posting.pool.request({ method: 'POST', path: '/p', headers: {} });
    await expect(posting.pool.request({ method: 'POST', path: '/p', headers: {} })).rejects.toMatchObject({
      code: 'ECONNRESET',
    });
    expect(posting.connections).toBe(1);
  });

  it('under load, pipelines the GETs of one turn, up to a depth a connection, each answer to its own request', async () => {
    const upstream = await rawUpstream((request, socket) => {
      const path = pathOf(request);
      socket.write(JSON_OK(JSON.stringify({ path })));
    });
    const count = PIPELINE_FROM + 8;
    const paths = Array.from({ length: count }, (_, i) => `/n/${i}`);
    const answers = await Promise.all(paths.map((path) => upstream.pool.request(get(path))));
    expect(answers.map((answer) => JSON.parse(whole(answer).body).path)).toEqual(paths);
    expect(upstream.connections).toBe(Math.ceil(count / PIPELINE_DEPTH));
    // Below the load, each request has a connection to itself again (the kept ones first).
    const few = await Promise.all([1, 2].map((i) => upstream.pool.request(get(`/few/${i}`))));
    expect(few.map((answer) => JSON.parse(whole(answer).body).path)).toEqual(['/few/1', '/few/2']);
  });

  it('never pipelines a request with a body, nor one that asks for an event stream', async () => {
    const upstream = await rawUpstream((_, socket) => socket.write(JSON_OK('{}')));
    const count = PIPELINE_FROM + 2;
    await Promise.all(
      Array.from({ length: count }, (_, i) =>
        upstream.pool.request(
          i % 2
            ? { method: 'POST', path: '/p', headers: {}, body: Buffer.from('{}') }
            : { method: 'GET', path: '/e', headers: { accept: 'text/event-stream' } },
        ),
      ),
    );
    expect(upstream.connections).toBe(count);
  });

  it('sends the requests behind an answer that ends its connection again, each on a connection of its own', async () => {
    const upstream = await rawUpstream((request, socket) => {
      if (socket.writableEnded) return;
      const path = pathOf(request);
      if (path === '/n/0') socket.end(JSON_OK('{"path":"/n/0"}', 'connection: close\r\n'));
      else socket.write(JSON_OK(JSON.stringify({ path })));
    });
    const paths = Array.from({ length: PIPELINE_FROM }, (_, i) => `/n/${i}`);
    const answers = await Promise.all(paths.map((path) => upstream.pool.request(get(path))));
    expect(answers.map((answer) => JSON.parse(whole(answer).body).path)).toEqual(paths);
    // /n/0's connection carried seven more, each sent again on a connection of its own; the rest shared a second.
    expect(upstream.connections).toBe(2 + (PIPELINE_DEPTH - 1));
  });

  it('sends the requests behind an event stream again elsewhere, and the stream flows on', async () => {
    const streaming = new Set<Socket>();
    const upstream = await rawUpstream((request, socket) => {
      // As a server does: nothing more on a connection whose answer is a stream.
      if (streaming.has(socket)) return;
      const path = pathOf(request);
      if (path === '/n/0') {
        streaming.add(socket);
        socket.write(
          'HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\nd\r\ndata: first\n\n\r\n',
        );
      } else socket.write(JSON_OK(JSON.stringify({ path })));
    });
    const paths = Array.from({ length: PIPELINE_FROM }, (_, i) => `/n/${i}`);
    const [stream, ...rest] = await Promise.all(paths.map((path) => upstream.pool.request(get(path))));
    expect(rest.map((answer) => JSON.parse(whole(answer as LeanClientAnswer).body).path)).toEqual(paths.slice(1));
    if (!stream || !('stream' in stream)) throw new Error('expected a stream');
    const first = await new Promise<string>((resolve) => stream.stream.once('data', (c: Buffer) => resolve(String(c))));
    expect(first).toBe('data: first\n\n');
    stream.stream.destroy();
  });

  it('fails every pipelined request alike when the upstream refuses the connection', async () => {
    const gone = await rawUpstream(() => {});
    const { port } = gone;
    await gone.close();
    const refused = new LeanPool('127.0.0.1', port, `127.0.0.1:${port}`, 2000);
    const failures = await Promise.allSettled(Array.from({ length: PIPELINE_FROM }, () => refused.request(get())));
    expect(failures.map((f) => (f.status === 'rejected' ? (f.reason as { code: string }).code : 'answered'))).toEqual(
      Array.from({ length: PIPELINE_FROM }, () => 'ECONNREFUSED'),
    );
  });

  it('pipelines to node:http, whose answers to a connection come in order however long each takes', async () => {
    const server = createHttpServer((req, res) => {
      const delay = Number(/\d+$/.exec(req.url ?? '')?.[0] ?? 0) % 3;
      setTimeout(() => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ url: req.url }));
      }, delay * 5);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const pool = new LeanPool('127.0.0.1', port, `127.0.0.1:${port}`, 2000);
    let connections = 0;
    server.on('connection', () => connections++);
    try {
      const paths = Array.from({ length: 40 }, (_, i) => `/item/${i}`);
      const answers = await Promise.all(paths.map((path) => pool.request(get(path))));
      expect(answers.map((answer) => JSON.parse(whole(answer).body).url)).toEqual(paths);
      expect(connections).toBe(40 / PIPELINE_DEPTH);
    } finally {
      pool.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('refuses to send a header or path that would break the request apart', async () => {
    const upstream = await rawUpstream((_, socket) => socket.write(JSON_OK('{}')));
    await expect(
      upstream.pool.request({ method: 'GET', path: '/', headers: { 'x-a': 'b\r\nx-injected: 1' } }),
    ).rejects.toMatchObject({ code: 'EBADREQUEST' });
    await expect(upstream.pool.request({ method: 'GET', path: '/a b', headers: {} })).rejects.toMatchObject({
      code: 'EBADREQUEST',
    });
    expect(upstream.requests).toEqual([]);
  });
});

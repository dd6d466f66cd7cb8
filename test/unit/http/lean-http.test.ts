import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { Answer } from '../../../src/exchange/exchange.js';
import { readExchange, writeAnswer } from '../../../src/http/io.js';
import { readLean, serveLean } from '../../../src/http/lean-http.js';
import type { IncomingExchange } from '../../../src/http/request.js';
import type { Reply } from '../../../src/pipeline/pipeline.js';

const LIMIT = 1024 * 1024;
const head = (text: string) => Buffer.from(text.replaceAll('\n', '\r\n'));

describe('readLean', () => {
  it('reads a whole GET, and says where the next request starts', () => {
    const bytes = head('GET /api/session?limit=2 HTTP/1.1\nHost: x\nAccept:  application/json \n\nGET /');
    const request = readLean(bytes, LIMIT, 16384);
    expect(request).toMatchObject({
      method: 'GET',
      target: '/api/session?limit=2',
      headers: { host: 'x', accept: 'application/json' },
    });
    expect(request?.body.length).toBe(0);
    expect(bytes.subarray(request?.end).toString()).toBe('GET /');
  });

  it('reads a body of the declared length, and no further', () => {
    const bytes = head('POST /api/session HTTP/1.1\nHost: x\nContent-Length: 2\n\n{}XY');
    const request = readLean(bytes, LIMIT, 16384);
    expect(request?.body.toString()).toBe('{}');
    expect(bytes.subarray(request?.end).toString()).toBe('XY');
  });

  it.each([
    ['a head not yet whole', 'GET / HTTP/1.1\nHost: x\n'],
    ['a body not yet whole', 'POST / HTTP/1.1\nHost: x\nContent-Length: 5\n\n{}'],
    ['a body over the limit', 'POST / HTTP/1.1\nHost: x\nContent-Length: 2000000\n\n'],
    ['HEAD', 'HEAD / HTTP/1.1\nHost: x\n\n'],
    ['CONNECT', 'CONNECT x:443 HTTP/1.1\nHost: x\n\n'],
    ['HTTP/1.0', 'GET / HTTP/1.0\nHost: x\n\n'],
    ['no Host', 'GET / HTTP/1.1\n\n'],
    ['a repeated header', 'GET / HTTP/1.1\nHost: x\nAccept: a\naccept: b\n\n'],
    ['a chunked body', 'POST / HTTP/1.1\nHost: x\nTransfer-Encoding: chunked\n\n0\n\n'],
    ['an upgrade', 'GET / HTTP/1.1\nHost: x\nUpgrade: websocket\nConnection: Upgrade\n\n'],
    ['Expect', 'POST / HTTP/1.1\nHost: x\nExpect: 100-continue\nContent-Length: 0\n\n'],
    ['Connection: close', 'GET / HTTP/1.1\nHost: x\nConnection: close\n\n'],
    ['a folded header', 'GET / HTTP/1.1\nHost: x\nX-A: 1\n 2\n\n'],
    ['a space before the colon', 'GET / HTTP/1.1\nHost : x\n\n'],
    ['a header named as an object field', 'GET / HTTP/1.1\nHost: x\n__proto__: 1\n\n'],
    ['a length that is no number', 'POST / HTTP/1.1\nHost: x\nContent-Length: 1e2\n\n'],
    ['a target with a space-like byte', 'GET /a\tb HTTP/1.1\nHost: x\n\n'],
    ['a value beyond ASCII', 'GET / HTTP/1.1\nHost: x\nX-A: \u00fc\n\n'],
    ['a target that is no path', 'GET a?b HTTP/1.1\nHost: x\n\n'],
    ['absolute-form', 'GET http://x/a HTTP/1.1\nHost: x\n\n'],
    ['Set-Cookie, a list in Node', 'GET / HTTP/1.1\nHost: x\nSet-Cookie: a=1\n\n'],
    ['Proxy-Connection, obeyed by Node', 'GET / HTTP/1.1\nHost: x\nProxy-Connection: close\n\n'],
  ])('leaves %s to Node', (_what, text) => {
    expect(readLean(Buffer.from(text.replaceAll('\n', '\r\n'), 'latin1'), LIMIT, 16384)).toBeUndefined();
  });

  it('leaves to Node a head longer than the limit', () => {
    const bytes = head(`GET / HTTP/1.1\nHost: x\nX-Long: ${'a'.repeat(2000)}\n\n`);
    expect(readLean(bytes, LIMIT, 1024)).toBeUndefined();
    expect(readLean(bytes, LIMIT, 4096)).toBeDefined();
  });
});

let endless: Readable | undefined;

/** The answers the tests decide, by path. */
const answers: Record<string, () => Answer> = {
  '/json': () => ({ kind: 'json', status: 200, body: { a: 1, text: 'é' } }),
  '/error': () => ({ kind: 'json', status: 404, body: { _tag: 'NotFound' }, headers: { 'x-own': 'yes' } }),
  '/no-content': () => ({ kind: 'json', status: 204, body: undefined }),
  '/empty': () => ({ kind: 'empty', status: 202 }),
  '/raw': () => ({ kind: 'raw', status: 200, raw: Buffer.from('plain'), headers: { 'content-type': 'text/plain' } }),
  '/latin1': () => ({ kind: 'json', status: 200, body: {}, headers: { 'x-name': 'Jos\u00e9' } }),
  '/own-date': () => ({ kind: 'json', status: 200, body: {}, headers: { date: 'Mon, 01 Jan 2024 00:00:00 GMT' } }),
  '/close': () => ({ kind: 'json', status: 200, body: {}, headers: { connection: 'close' } }),
  '/unknown-status': () => ({ kind: 'json', status: 299, body: {} }),
  '/stream': () => ({
    kind: 'stream',
    status: 200,
    headers: { 'content-type': 'text/event-stream' },
    stream: Readable.from(['data: 1\n\n', 'data: 2\n\n']),
  }),
  '/endless': () => {
    endless = new Readable({ read() {} });
    endless.push('data: 1\n\n');
    return { kind: 'stream', status: 200, headers: { 'content-type': 'text/event-stream' }, stream: endless };
  },
  '/bad-header': () => ({ kind: 'json', status: 200, body: {}, headers: { 'x-bad': 'a\nb' } }),
};

const decide = async (incoming: IncomingExchange): Promise<Reply> => {
  if (incoming.pathname === '/slow') await new Promise((resolve) => setTimeout(resolve, 300));
  const answer = answers[incoming.pathname]?.() ?? {
    kind: 'json',
    status: 200,
    body: { echo: incoming.rawBody.toString() },
  };
  return { answer, headers: { vary: 'Origin', 'x-seen': `${incoming.method} ${incoming.pathname}${incoming.search}` } };
};
const uncaught = (): Answer => ({ kind: 'json', status: 500, body: { _tag: 'SimInternalError' } });

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A server answering through Node's objects (`writeAnswer`), or through `serveLean` first. */
async function listen(lean: boolean): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    void (async () => {
      const read = readExchange(req, LIMIT);
      const { answer, headers } = await decide(read instanceof Promise ? await read : read);
      try {
        writeAnswer(res, answer, headers);
      } catch {
        writeAnswer(res, uncaught(), {});
      }
    })();
  });
  if (lean) serveLean(server, { decide, bodyLimit: LIMIT, maxHeaderSize: 16384, uncaught });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/** Sends the bytes on one connection and gives what came back once the server closed or `until` matched. */
function raw(port: number, parts: string[], until: (text: string) => boolean, gapMs = 0): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    const done = () => {
      socket.destroy();
      resolve(text);
    };
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (until(text)) done();
    });
    socket.on('end', done);
    socket.on('error', reject);
    void (async () => {
      for (const part of parts) {
        socket.write(Buffer.from(part.replaceAll('\n', '\r\n'), 'latin1'));
        if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
      }
    })();
  });
}

const answersIn = (text: string) => text.split(/(?=HTTP\/1\.1 \d{3})/).filter(Boolean);
const complete = (count: number) => (text: string) => {
  const found = answersIn(text);
  if (found.length < count) return false;
  const last = found[count - 1] as string;
  const length = /content-length: (\d+)/i.exec(last);
  const bodyAt = last.indexOf('\r\n\r\n') + 4;
  if (bodyAt < 4) return false;
  if (length) return Buffer.byteLength(last.slice(bodyAt), 'latin1') >= Number(length[1]);
  return /\r\n0\r\n\r\n$/.test(last) || /^HTTP\/1\.1 20[4]/.test(last) || /\r\n\r\n$/.test(last);
};
const undated = (text: string) => text.replace(/Date: [^\r]+\r\n/, 'Date: (now)\r\n');

describe('serveLean', () => {
  // A header Node refuses is answered by the test's host after Node's writeHead threw, whose status line it keeps.
  it.each(Object.keys(answers).filter((path) => !['/stream', '/endless', '/bad-header'].includes(path)))(
    'writes %s byte for byte as Node writes it',
    async (path) => {
      const node = await listen(false);
      const lean = await listen(true);
      const request = [`GET ${path} HTTP/1.1\nHost: x\n\n`];
      const [mine, nodes] = await Promise.all([
        raw(lean.port, request, complete(1)),
        raw(node.port, request, complete(1)),
      ]);
      expect(undated(mine)).toBe(undated(nodes));
      expect(mine).toMatch(/^HTTP\/1\.1 \d{3}/);
    },
  );

  it('answers as the real server does: no Connection or Keep-Alive while the connection stays open', async () => {
    for (const lean of [true, false]) {
      const { port } = await listen(lean);
      const open = await raw(port, ['GET /json HTTP/1.1\nHost: x\n\nGET /json HTTP/1.1\nHost: x\n\n'], complete(2));
      expect(answersIn(open)).toHaveLength(2);
      expect(open).not.toMatch(/^(connection|keep-alive):/im);
      // A connection about to close still says so, and an HTTP/1.0 client is told that its connection stays open.
      const closing = await raw(port, ['GET /json HTTP/1.1\nHost: x\nConnection: close\n\n'], complete(1));
      expect(closing).toContain('Connection: close\r\n');
      const old = await raw(port, ['GET /json HTTP/1.0\nHost: x\nConnection: keep-alive\n\n'], complete(1));
      expect(old).toContain('Connection: keep-alive\r\n');
    }
  });

  it('writes a stream in chunks, as Node does, and then reads the next request', async () => {
    const node = await listen(false);
    const lean = await listen(true);
    const request = ['GET /stream HTTP/1.1\nHost: x\n\nGET /json HTTP/1.1\nHost: x\n\n'];
    const [mine, nodes] = await Promise.all([
      raw(lean.port, request, complete(2)),
      raw(node.port, request, complete(2)),
    ]);
    expect(undated(mine).replace(/Date: [^\r]+\r\n/, 'Date: (now)\r\n')).toBe(
      undated(nodes).replace(/Date: [^\r]+\r\n/, 'Date: (now)\r\n'),
    );
    expect(mine).toContain('Transfer-Encoding: chunked\r\n\r\n9\r\ndata: 1\n\n\r\n9\r\ndata: 2\n\n\r\n0\r\n\r\n');
  });

  it('lets a stream go when its client goes, half-closing or not', async () => {
    const { port } = await listen(true);
    for (const leave of ['end', 'destroy'] as const) {
      const socket = connect(port, '127.0.0.1');
      socket.write('GET /endless HTTP/1.1\r\nHost: x\r\n\r\n');
      await new Promise((resolve) => socket.once('data', resolve));
      const stream = endless as Readable;
      const released = new Promise((resolve) => stream.once('close', resolve));
      socket[leave]();
      await released;
      expect(stream.destroyed).toBe(true);
    }
  });

  it('answers pipelined requests in order, bodies included', async () => {
    const { port } = await listen(true);
    const text = await raw(
      port,
      [
        'POST /a HTTP/1.1\nHost: x\nContent-Length: 3\n\none',
        'GET /b?q=1 HTTP/1.1\nHost: x\n\nGET /json HTTP/1.1\nHost: x\n\n',
      ],
      complete(3),
    );
    const found = answersIn(text);
    expect(found).toHaveLength(3);
    expect(found[0]).toContain('x-seen: POST /a\r\n');
    expect(found[0]).toContain('{"echo":"one"}');
    expect(found[1]).toContain('x-seen: GET /b?q=1\r\n');
    expect(found[2]).toContain('{"a":1,"text":"é"}'.replace('é', '\u00c3\u00a9'));
  });

  it('reads each head of a connection as sent, the same again or one of the same length', async () => {
    const { port } = await listen(true);
    const requests = ['/aa', '/bb', '/bb', '/aa'].map((path) => `GET ${path} HTTP/1.1\nHost: x\n\n`);
    const text = await raw(port, requests, complete(4), 20);
    expect(answersIn(text).map((answer) => /x-seen: ([^\r]+)/.exec(answer)?.[1])).toEqual([
      'GET /aa',
      'GET /bb',
      'GET /bb',
      'GET /aa',
    ]);
  });

  it('hands the connection to Node at a request it leaves, and Node answers the rest', async () => {
    const { port } = await listen(true);
    const text = await raw(
      port,
      ['GET /json HTTP/1.1\nHost: x\n\nHEAD /json HTTP/1.1\nHost: x\n\nGET /raw HTTP/1.1\nHost: x\n\n'],
      complete(3),
    );
    const found = answersIn(text);
    expect(found.map((answer) => answer.split('\r\n')[0])).toEqual([
      'HTTP/1.1 200 OK',
      'HTTP/1.1 200 OK',
      'HTTP/1.1 200 OK',
    ]);
    // HEAD: the headers a GET gets, no body; then the next answer whole.
    expect(found[1]).toMatch(/content-length: \d+\r\n[\s\S]*\r\n\r\n$/);
    expect(found[2]).toMatch(/\r\n\r\nplain$/);
  });

  it('leaves no keep-alive deadline of its own on a connection it handed to Node', async () => {
    const { server, port } = await listen(true);
    server.keepAliveTimeout = 100;
    const text = await raw(
      port,
      ['GET /json HTTP/1.1\nHost: x\n\nGET /slow HTTP/1.1\nHost: x\nX-A: 1\nX-A: 2\n\n'],
      complete(2),
    );
    const found = answersIn(text);
    expect(found).toHaveLength(2);
    expect(found[1]).toContain('x-seen: GET /slow\r\n');
  });

  it('answers a request slower than the keep-alive timeout, then closes once the connection is quiet', async () => {
    const { server, port } = await listen(true);
    server.keepAliveTimeout = 100;
    const socket = connect(port, '127.0.0.1');
    socket.setEncoding('latin1');
    let text = '';
    let answeredAt = 0;
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (complete(2)(text)) answeredAt = Date.now();
    });
    const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())));
    socket.write('GET /json HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The deadline is on after the first answer; the second takes three times as long.
    socket.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n');
    const closedAt = await closed;
    const found = answersIn(text);
    expect(found).toHaveLength(2);
    expect(found[1]).toContain('x-seen: GET /slow\r\n');
    expect(found[1]).toMatch(/\r\n\r\n\{"echo":""\}$/);
    // Quiet from the answer on: the deadline runs from there. A deadline run from the request would close at
    // once after the answer; the margin is for a loaded machine reading the answer late (89 ms was seen in CI).
    expect(closedAt - answeredAt).toBeGreaterThanOrEqual(50);
  });

  it('hands a head split over reads to Node, which reads it whole', async () => {
    const { port } = await listen(true);
    const text = await raw(port, ['GET /js', 'on HTTP/1.1\nHo', 'st: x\n\n'], complete(1), 20);
    expect(text).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(text).toContain('x-seen: GET /json\r\n');
  });

  it('answers an answer it cannot write as a failure, and goes on serving', async () => {
    const { port } = await listen(true);
    const text = await raw(port, ['GET /bad-header HTTP/1.1\nHost: x\n\nGET /json HTTP/1.1\nHost: x\n\n'], complete(2));
    const found = answersIn(text);
    expect(found[0]).toMatch(/^HTTP\/1\.1 500 /);
    expect(found[0]).toContain('SimInternalError');
    expect(found[1]).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('closes after an answer that says so', async () => {
    const { port } = await listen(true);
    const text = await raw(port, ['GET /close HTTP/1.1\nHost: x\n\nGET /json HTTP/1.1\nHost: x\n\n'], () => false);
    expect(answersIn(text)).toHaveLength(1);
  });

  it('closes a connection idle for the keep-alive timeout, and the idle ones when the server closes', async () => {
    const { server, port } = await listen(true);
    server.keepAliveTimeout = 150;
    const started = Date.now();
    const text = await raw(port, ['GET /json HTTP/1.1\nHost: x\n\n'], () => false);
    expect(answersIn(text)).toHaveLength(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);

    server.keepAliveTimeout = 60_000;
    const socket = connect(port, '127.0.0.1');
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.write('GET /json HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((resolve) => socket.once('data', resolve));
    const closing = new Promise((resolve) => server.close(resolve));
    await closed;
    await closing;
    servers.splice(servers.indexOf(server), 1);
  });

  it('closes the idle connections and lets one that is answering finish its answer', async () => {
    const { server, port } = await listen(true);
    const idle = connect(port, '127.0.0.1');
    const idleClosed = new Promise((resolve) => idle.once('close', resolve));
    idle.write('GET /json HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((resolve) => idle.once('data', resolve));
    const slow = raw(port, ['GET /slow HTTP/1.1\nHost: x\n\n'], complete(1));
    await new Promise((resolve) => setTimeout(resolve, 100));
    server.closeIdleConnections();
    await idleClosed;
    const answered = await slow;
    expect(answered).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(answersIn(answered)).toHaveLength(1);
  });
});

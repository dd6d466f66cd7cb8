/**
 * A WebSocket client for tests over a real socket, written apart from the simulator's server side
 * (src/http/websocket.ts) so one does not share the other's mistakes: the handshake over node:http, masked
 * frames out, frames in as they come. Node 20 has no global WebSocket without a flag; where there is one,
 * tests use it too (`globalWebSocket`).
 */
import { randomBytes, createHash } from 'node:crypto';
import { request } from 'node:http';
import type { Duplex } from 'node:stream';

export interface Frame {
  type: 'text' | 'binary' | 'pong';
  data: string | Buffer;
}

export interface TestSocket {
  /** Every message received so far, in order. */
  frames: Frame[];
  /** All text messages so far, joined. */
  text(): string;
  send(text: string): void;
  /** Sends raw frame bytes (for protocol tests); masking is the caller's. */
  sendRaw(bytes: Buffer): void;
  close(code?: number): void;
  /** The close the server sent (or 1006 when the socket ended without one). */
  closed: Promise<{ code: number; reason: string }>;
  headers: Record<string, string | string[] | undefined>;
}

/** The answer to a handshake the server refused: its status and body. */
export interface Refusal {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export function maskedFrame(opcode: number, payload: Buffer, fin = true): Buffer {
  const mask = randomBytes(4);
  const length = payload.length;
  const head =
    length < 126 ? Buffer.from([0, 0x80 | length]) : Buffer.from([0, 0x80 | 126, length >> 8, length & 0xff]);
  if (length >= 0x10000) throw new Error('test frames stay under 64 KiB');
  head[0] = (fin ? 0x80 : 0) | opcode;
  const body = Buffer.from(payload.map((b, i) => b ^ (mask[i % 4] as number)));
  return Buffer.concat([head, mask, body]);
}

/** Opens `url` (http:// or ws://) as a WebSocket, or resolves with the server's refusal. */
export function openSocket(url: string, headers: Record<string, string> = {}): Promise<TestSocket | Refusal> {
  const target = new URL(url.replace(/^ws/, 'http'));
  const key = randomBytes(16).toString('base64');
  return new Promise((resolve, reject) => {
    const req = request({
      agent: false,
      host: target.hostname,
      port: target.port,
      path: `${target.pathname}${target.search}`,
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': key,
        ...headers,
      },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('upgrade', (res, socket, head) => {
      const expected = createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
      if (res.headers['sec-websocket-accept'] !== expected) reject(new Error('bad Sec-WebSocket-Accept'));
      resolve(client(socket, head, res.headers));
    });
    req.end();
  });
}

function client(socket: Duplex, head: Buffer, headers: TestSocket['headers']): TestSocket {
  const frames: Frame[] = [];
  let buffered = head;
  let settle: (close: { code: number; reason: string }) => void = () => {};
  const closed = new Promise<{ code: number; reason: string }>((resolve) => (settle = resolve));
  const parse = () => {
    for (;;) {
      if (buffered.length < 2) return;
      const opcode = (buffered[0] as number) & 0x0f;
      if ((buffered[1] as number) & 0x80) throw new Error('a server frame must not be masked');
      let length = (buffered[1] as number) & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (buffered.length < 4) return;
        length = buffered.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (buffered.length < 10) return;
        length = Number(buffered.readBigUInt64BE(2));
        offset = 10;
      }
      if (buffered.length < offset + length) return;
      const payload = buffered.subarray(offset, offset + length);
      buffered = buffered.subarray(offset + length);
      if (opcode === 0x1) frames.push({ type: 'text', data: payload.toString('utf8') });
      else if (opcode === 0x2) frames.push({ type: 'binary', data: Buffer.from(payload) });
      else if (opcode === 0xa) frames.push({ type: 'pong', data: Buffer.from(payload) });
      else if (opcode === 0x8) {
        const code = payload.length >= 2 ? payload.readUInt16BE(0) : 1005;
        settle({ code, reason: payload.subarray(2).toString('utf8') });
        if (socket.writable) socket.end(maskedFrame(0x8, payload.subarray(0, 2)));
      }
    }
  };
  socket.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    parse();
  });
  socket.on('close', () => settle({ code: 1006, reason: '' }));
  socket.on('error', () => settle({ code: 1006, reason: '' }));
  parse();
  return {
    frames,
    text: () =>
      frames
        .filter((f) => f.type === 'text')
        .map((f) => f.data)
        .join(''),
    send: (text) => socket.write(maskedFrame(0x1, Buffer.from(text, 'utf8'))),
    sendRaw: (bytes) => socket.write(bytes),
    close: (code = 1000) => {
      const payload = Buffer.alloc(2);
      payload.writeUInt16BE(code, 0);
      socket.write(maskedFrame(0x8, payload));
    },
    closed,
    headers,
  };
}

export function isRefusal(value: TestSocket | Refusal): value is Refusal {
  return 'status' in value;
}

export { until } from './until.js';

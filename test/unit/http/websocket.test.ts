/**
 * The simulator's WebSocket server side (RFC 6455) on a real loopback socket, read by the tests' own client:
 * the handshake, messages both ways (fragmented, long), ping, the closing handshake, and the protocol errors
 * it closes on.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessageSocket } from '../../../src/exchange/exchange.js';
import { MAX_MESSAGE_BYTES, acceptWebSocket, upgradeOf, upgradeResponse } from '../../../src/http/websocket.js';
import { isRefusal, maskedFrame, openSocket, until, type TestSocket } from '../../support/ws-client.js';

let server: Server;
let url: string;
const received: string[] = [];
let closedCount = 0;

beforeAll(async () => {
  server = createServer();
  server.on('upgrade', (req, socket, head) => {
    const res = upgradeResponse(req, socket, head);
    if (upgradeOf(req) !== 'websocket') {
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"refused":true}');
      return;
    }
    acceptWebSocket(res, { 'x-extra': 'yes' }, (ws: MessageSocket) => {
      ws.sendText('hello');
      return {
        message(text) {
          received.push(text);
          if (text === 'close me') ws.close(4000, 'asked to');
          else if (text === 'big') ws.sendText('y'.repeat(70_000));
          else if (text === 'bytes') ws.sendBinary(new Uint8Array([0, 1, 2]));
          else ws.sendText(`echo:${text}`);
        },
        closed() {
          closedCount++;
        },
      };
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function open(): Promise<TestSocket> {
  const ws = await openSocket(url);
  if (isRefusal(ws)) throw new Error(`refused ${ws.status}`);
  await until(() => ws.frames.length > 0, 'hello');
  return ws;
}

describe('the WebSocket server side', () => {
  it('completes the handshake with its headers and exchanges text and binary messages', async () => {
    const ws = await open();
    expect(ws.headers['x-extra']).toBe('yes');
    expect(ws.frames[0]).toEqual({ type: 'text', data: 'hello' });
    ws.send('héllo → ✓');
    ws.send('bytes');
    await until(() => ws.frames.length === 3, 'echo and bytes');
    expect(ws.frames.slice(1)).toEqual([
      { type: 'text', data: 'echo:héllo → ✓' },
      { type: 'binary', data: Buffer.from([0, 1, 2]) },
    ]);
    ws.close();
    expect(await ws.closed).toEqual({ code: 1000, reason: '' });
    await until(() => closedCount >= 1, 'closed() called');
  });

  it('joins fragments, answers a ping between them, and sends a message past 64 KiB (64-bit length)', async () => {
    const ws = await open();
    ws.sendRaw(Buffer.concat([maskedFrame(0x1, Buffer.from('frag'), false), maskedFrame(0x9, Buffer.from('p'))]));
    ws.sendRaw(maskedFrame(0x0, Buffer.from('ments')));
    ws.send('big');
    await until(() => ws.frames.length === 4, 'pong, echo and big');
    expect(ws.frames.slice(1, 3)).toEqual([
      { type: 'pong', data: Buffer.from('p') },
      { type: 'text', data: 'echo:fragments' },
    ]);
    expect((ws.frames[3]?.data as string).length).toBe(70_000);
    ws.close();
    await ws.closed;
  });

  it('closes with the code the server gives, and reads a client message of up to its bound', async () => {
    const ws = await open();
    ws.send('x'.repeat(60_000));
    await until(() => received.includes('x'.repeat(60_000)), 'long message');
    ws.send('close me');
    expect(await ws.closed).toEqual({ code: 4000, reason: 'asked to' });
  });

  it.each([
    ['an unmasked frame', Buffer.from([0x81, 0x02, 0x68, 0x69]), 1002],
    ['a message past the bound', Buffer.concat([Buffer.from([0x82, 0xff]), Buffer.alloc(8), Buffer.alloc(4)]), 1009],
    ['text that is not UTF-8', maskedFrame(0x1, Buffer.from([0xff, 0xfe])), 1007],
    ['a continuation with no message', maskedFrame(0x0, Buffer.from('x')), 1002],
    ['an unknown opcode', maskedFrame(0x3, Buffer.from('x')), 1002],
  ])('closes on %s', async (_, bytes, code) => {
    const ws = await open();
    if (code === 1009) bytes.writeBigUInt64BE(BigInt(MAX_MESSAGE_BYTES + 1), 2);
    ws.sendRaw(bytes);
    expect((await ws.closed).code).toBe(code);
  });

  it('leaves a request that is no WebSocket handshake to be answered as HTTP', async () => {
    const refused = await openSocket(url, { 'sec-websocket-version': '8' });
    expect(isRefusal(refused) && [refused.status, refused.body]).toEqual([400, '{"refused":true}']);
  });
});

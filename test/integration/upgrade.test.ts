/**
 * WebSocket-style upgrades over real sockets: tunnelled to the upstream in proxy mode, refused in JSON
 * without one.
 */
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type RunningSimulator } from '../../src/hosts/server.js';

let upstream: Server;
const sims: RunningSimulator[] = [];
const upgraded: Array<{ destroy(): void }> = [];

beforeAll(async () => {
  upstream = createServer();
  upstream.on('upgrade', (req, socket) => {
    upgraded.push(socket);
    socket.write(
      `HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: Upgrade\r\nx-path: ${req.url ?? ''}\r\n\r\n`,
    );
    socket.on('data', (chunk: Buffer) => socket.write(`echo:${chunk.toString()}`));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  for (const sim of sims) await sim.close();
  for (const socket of upgraded) socket.destroy(); // upgraded sockets are no longer the HTTP server's to close
  upstream.closeAllConnections();
  await new Promise((resolve) => upstream.close(resolve));
});

function upgrade(port: number, path: string, send?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`GET ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: Upgrade\r\nupgrade: websocket\r\n\r\n`);
    });
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (send && text.includes('\r\n\r\n') && !text.includes('echo:')) socket.write(send);
      if (!send || text.includes('echo:')) {
        socket.end();
        resolve(text);
      }
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(text));
  });
}

it('tunnels an upgrade to the upstream in proxy mode, both ways', async () => {
  const sim = await startServer({
    port: 0,
    upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
    log: () => {},
  });
  sims.push(sim);
  const text = await upgrade(sim.port, '/api/pty/pty_1/connect?cursor=0', 'hello-pty');
  expect(text).toContain('101 Switching Protocols');
  expect(text).toContain('x-path: /api/pty/pty_1/connect?cursor=0');
  expect(text).toContain('echo:hello-pty');
});

it('refuses an upgrade in JSON when there is no upstream', async () => {
  const sim = await startServer({ port: 0, log: () => {} });
  sims.push(sim);
  const text = await upgrade(sim.port, '/api/pty/pty_1/connect');
  expect(text).toMatch(/^HTTP\/1.1 404/);
  expect(text).toContain('"_tag":"SimRouteNotFoundError"');
});

it('refuses an upgrade without the credentials when auth is on, and tunnels one with auth_token', async () => {
  const sim = await startServer({
    port: 0,
    upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
    auth: 'secret',
    log: () => {},
  });
  sims.push(sim);
  const refused = await upgrade(sim.port, '/api/pty/pty_1/connect');
  expect(refused).toMatch(/^HTTP\/1.1 401 Unauthorized/);
  expect(refused).toContain('www-authenticate: Basic realm="Secure Area"');
  expect(refused).toContain('{"_tag":"UnauthorizedError","message":"Authentication required"}');
  const token = Buffer.from('opencode:secret').toString('base64');
  const tunnelled = await upgrade(sim.port, `/api/pty/pty_1/connect?auth_token=${encodeURIComponent(token)}`, 'hi');
  expect(tunnelled).toContain('101 Switching Protocols');
  expect(tunnelled).toContain('echo:hi');
});

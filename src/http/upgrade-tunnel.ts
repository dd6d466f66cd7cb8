/**
 * WebSocket (and other) upgrades, such as reading a PTY through `GET /api/pty/{id}/connect`: with an
 * upstream they are tunnelled to it byte for byte; without one the simulator has nothing to connect them
 * to and says so in JSON before closing.
 */
import type { IncomingMessage, Server } from 'node:http';
import { connect } from 'node:net';
import type { Duplex } from 'node:stream';
import { connect as connectTls } from 'node:tls';

/** Returns a function that ends every open tunnel (upgraded sockets outlive the HTTP server's own close). */
export function handleUpgrades(server: Server, upstream: URL | undefined): () => void {
  const open = new Set<Duplex>();
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    if (!upstream) {
      const body = JSON.stringify({
        _tag: 'SimRouteNotFoundError',
        message: `No upgrade to ${req.url ?? ''}: the simulator passes WebSocket upgrades only to an upstream`,
        hint: 'Run proxy or record with --upstream URL',
      });
      socket.end(`HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
      return;
    }
    const secure = upstream.protocol === 'https:';
    const port = Number(upstream.port || (secure ? 443 : 80));
    const onConnect = () => {
      const headers = Object.entries(req.headers)
        .filter(([name]) => name !== 'host')
        .flatMap(([name, value]) => (Array.isArray(value) ? value : [value ?? '']).map((v) => `${name}: ${v}`));
      target.write([`${req.method ?? 'GET'} ${req.url ?? '/'} HTTP/1.1`, `host: ${upstream.host}`, ...headers, '', ''].join('\r\n'));
      if (head.length) target.write(head);
      socket.pipe(target).pipe(socket);
    };
    const target = secure ? connectTls({ host: upstream.hostname, port, servername: upstream.hostname }, onConnect) : connect(port, upstream.hostname, onConnect);
    target.on('error', () => socket.destroy());
    socket.on('error', () => target.destroy());
    socket.on('close', () => target.destroy());
  });
  return () => {
    for (const socket of open) socket.destroy();
  };
}

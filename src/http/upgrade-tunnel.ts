/**
 * WebSocket (and other) upgrades, such as reading a PTY through `GET /api/pty/{id}/connect`: with an
 * upstream they are tunnelled to it byte for byte; in the mock they are answered by the pipeline like any
 * request (the partition's world serves the PTY's WebSocket, see src/http/websocket.ts); otherwise (a replay)
 * the simulator has nothing to connect them to and says so in JSON before closing.
 */
import type { IncomingMessage, Server } from 'node:http';
import { connect } from 'node:net';
import type { Duplex } from 'node:stream';
import { connect as connectTls } from 'node:tls';
import { SimNoWebSocketError, UnauthorizedError } from '../errors/errors.js';
import type { Credentials } from '../config/credentials.js';
import { isAuthorized } from './auth.js';
import { requestTarget } from './request.js';
import { endSocketWith } from './socket-answer.js';

/** Answers an upgrade as a request: the pipeline, on a response written onto the upgrade's socket. */
export type UpgradeServer = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

/**
 * Returns a function that ends every open tunnel and WebSocket (upgraded sockets outlive the HTTP server's
 * own close). With `credentials`, a tunnelled upgrade must carry them like any API request (a browser's
 * WebSocket sends `auth_token`); without them it gets the same 401 and is never tunnelled. `serve` (the mock)
 * answers upgrades where no upstream does; the pipeline checks credentials there as for any request.
 */
export function handleUpgrades(
  server: Server,
  upstream: URL | undefined,
  credentials?: Credentials,
  serve?: UpgradeServer,
): () => void {
  const open = new Set<Duplex>();
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    if (!upstream && serve) {
      serve(req, socket, head);
      return;
    }
    if (
      credentials &&
      !isAuthorized({ headers: req.headers, searchParams: requestTarget(req.url ?? '/').searchParams }, credentials)
    ) {
      endSocketWith(socket, new UnauthorizedError());
      return;
    }
    if (!upstream) {
      endSocketWith(
        socket,
        new SimNoWebSocketError(
          `No upgrade to ${req.url ?? ''}: the simulator passes WebSocket upgrades only to an upstream`,
          'Run proxy or record with --upstream URL',
        ),
      );
      return;
    }
    const secure = upstream.protocol === 'https:';
    const port = Number(upstream.port || (secure ? 443 : 80));
    const onConnect = () => {
      const headers = Object.entries(req.headers)
        .filter(([name]) => name !== 'host')
        .flatMap(([name, value]) => (Array.isArray(value) ? value : [value ?? '']).map((v) => `${name}: ${v}`));
      target.write(
        [`${req.method ?? 'GET'} ${req.url ?? '/'} HTTP/1.1`, `host: ${upstream.host}`, ...headers, '', ''].join(
          '\r\n',
        ),
      );
      if (head.length) target.write(head);
      socket.pipe(target).pipe(socket);
    };
    const target = secure
      ? connectTls({ host: upstream.hostname, port, servername: upstream.hostname }, onConnect)
      : connect(port, upstream.hostname, onConnect);
    target.on('error', () => socket.destroy());
    socket.on('error', () => target.destroy());
    socket.on('close', () => target.destroy());
  });
  return () => {
    for (const socket of open) socket.destroy();
  };
}

/**
 * WebSocket (RFC 6455), server side, for the connections the simulator serves itself (a PTY's terminal in the
 * mock): the handshake, and frames both ways. A client's messages reach whoever opened the connection as text;
 * what it sends goes out unmasked, as a server's frames must. Written here rather than taken from a package:
 * the project has none, and a terminal needs only text and binary messages, ping, pong and close.
 */
import { createHash } from 'node:crypto';
import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { MessageHandlers, MessageSocket } from '../exchange/exchange.js';

const ACCEPT_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
/**
 * Bytes of one client message, fragments together: far above what a terminal sends (a key, a paste), and
 * small enough that what a message makes happen (a terminal's echo, kept in the partition's bounded log)
 * stays small.
 */
export const MAX_MESSAGE_BYTES = 64 * 1024;
/** How long a close we started waits for the client's close frame before the socket is cut. */
const CLOSE_WAIT_MS = 1000;

const CLOSE = { normal: 1000, protocol: 1002, invalidData: 1007, tooBig: 1009 } as const;

/**
 * What a request Node handed over as an upgrade asks for: `websocket` for a handshake the simulator can
 * complete (GET, `Upgrade: websocket`, a well-formed key, version 13), `other` for anything else; undefined
 * for an ordinary request.
 */
export function upgradeOf(req: IncomingMessage): 'websocket' | 'other' | undefined {
  if ((req as { upgrade?: boolean }).upgrade !== true) return undefined;
  const { upgrade, 'sec-websocket-key': key, 'sec-websocket-version': version } = req.headers;
  const complete =
    req.method === 'GET' &&
    upgrade?.toLowerCase() === 'websocket' &&
    typeof key === 'string' &&
    /^[A-Za-z0-9+/]{22}==$/.test(key) &&
    version === '13';
  return complete ? 'websocket' : 'other';
}

/** The bytes read past an upgrade request's head, kept with the response the pipeline answers it on. */
const pending = new WeakMap<ServerResponse, { socket: Duplex; head: Buffer }>();

/**
 * A response written onto an upgrade's socket, so the pipeline answers an upgrade like any request: an error
 * goes out as HTTP and the socket closes after it; an `upgrade` answer hands the socket to `acceptWebSocket`.
 */
export function upgradeResponse(req: IncomingMessage, socket: Duplex, head: Buffer): ServerResponse {
  const res = new ServerResponse(req);
  res.shouldKeepAlive = false;
  res.assignSocket(socket as Parameters<ServerResponse['assignSocket']>[0]);
  res.once('finish', () => socket.end());
  pending.set(res, { socket, head });
  return res;
}

/** Completes the handshake on the response's socket and serves the connection; false if it has no socket to take. */
export function acceptWebSocket(
  res: ServerResponse,
  headers: Record<string, string>,
  open: (socket: MessageSocket) => MessageHandlers,
): boolean {
  const taken = pending.get(res);
  pending.delete(res);
  const key = res.req.headers['sec-websocket-key'];
  if (!taken || typeof key !== 'string' || !taken.socket.writable) return false;
  const { socket, head } = taken;
  res.detachSocket(socket as Parameters<ServerResponse['detachSocket']>[0]);
  const accept = createHash('sha1').update(`${key}${ACCEPT_GUID}`).digest('base64');
  const lines = Object.entries(headers)
    .filter(([, v]) => !/[\r\n]/.test(v))
    .map(([k, v]) => `${k}: ${v}\r\n`);
  socket.write(
    `HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: Upgrade\r\nsec-websocket-accept: ${accept}\r\n${lines.join('')}\r\n`,
  );
  serve(socket, head, open);
  return true;
}

function frame(opcode: number, payload: Buffer): Buffer {
  const length = payload.length;
  const header = length < 126 ? Buffer.alloc(2) : length < 0x10000 ? Buffer.alloc(4) : Buffer.alloc(10);
  header[0] = 0x80 | opcode;
  if (length < 126) header[1] = length;
  else if (length < 0x10000) {
    header[1] = 126;
    header.writeUInt16BE(length, 2);
  } else {
    header[1] = 127;
    header.writeBigUInt64BE(BigInt(length), 2);
  }
  return Buffer.concat([header, payload]);
}

function closePayload(code: number, reason: string): Buffer {
  const payload = Buffer.alloc(2);
  payload.writeUInt16BE(code, 0);
  // A control frame carries at most 125 bytes: the reason is cut to fit.
  return Buffer.concat([payload, Buffer.from(reason, 'utf8').subarray(0, 123)]);
}

function serve(socket: Duplex, head: Buffer, open: (socket: MessageSocket) => MessageHandlers): void {
  let buffered = head;
  let fragments: Buffer[] = [];
  let fragmentBytes = 0;
  let fragmentOpcode = 0;
  let closing = false;
  let ended = false;
  const decoder = new TextDecoder('utf-8', { fatal: true });

  const send = (opcode: number, payload: Buffer) => {
    if (!closing && socket.writable) socket.write(frame(opcode, payload));
  };
  const close = (code: number = CLOSE.normal, reason = '') => {
    if (closing) return;
    if (socket.writable) socket.write(frame(0x8, closePayload(code, reason)));
    closing = true;
    // The client answers with its own close frame; one that never does is cut.
    setTimeout(() => socket.destroy(), CLOSE_WAIT_MS).unref();
  };
  const connection: MessageSocket = {
    sendText: (text) => send(0x1, Buffer.from(text, 'utf8')),
    sendBinary: (bytes) => send(0x2, Buffer.from(bytes)),
    close,
  };
  const handlers = open(connection);
  socket.once('close', () => {
    if (ended) return;
    ended = true;
    handlers.closed();
  });
  socket.on('error', () => socket.destroy());
  socket.on('end', () => socket.end());

  const deliver = (opcode: number, payload: Buffer): boolean => {
    // Once a close is under way, what the client still sends is read past, not acted on.
    if (closing) return true;
    if (opcode === 0x1) {
      let text: string;
      try {
        text = decoder.decode(payload);
      } catch {
        close(CLOSE.invalidData, 'text frames must be UTF-8');
        return false;
      }
      handlers.message(text);
    } else handlers.message(payload.toString('utf8'));
    return true;
  };

  /** Reads one frame off the front of `buffered`; false when it needs more bytes or the connection is done. */
  const readFrame = (): boolean => {
    if (buffered.length < 2) return false;
    const fin = (buffered[0] as number) & 0x80;
    const opcode = (buffered[0] as number) & 0x0f;
    const masked = (buffered[1] as number) & 0x80;
    let length = (buffered[1] as number) & 0x7f;
    let offset = 2;
    if (length === 126) {
      if (buffered.length < 4) return false;
      length = buffered.readUInt16BE(2);
      offset = 4;
    } else if (length === 127) {
      if (buffered.length < 10) return false;
      const long = buffered.readBigUInt64BE(2);
      length = long > BigInt(MAX_MESSAGE_BYTES) ? MAX_MESSAGE_BYTES + 1 : Number(long);
      offset = 10;
    }
    if ((buffered[0] as number) & 0x70 || !masked) return fail(CLOSE.protocol, 'client frames must be masked');
    if (opcode >= 0x8 && (!fin || length > 125)) return fail(CLOSE.protocol, 'bad control frame');
    if (length + fragmentBytes > MAX_MESSAGE_BYTES) return fail(CLOSE.tooBig, 'message too big');
    if (buffered.length < offset + 4 + length) return false;
    const mask = buffered.subarray(offset, offset + 4);
    const payload = Buffer.from(buffered.subarray(offset + 4, offset + 4 + length));
    for (let i = 0; i < payload.length; i++) payload[i] = (payload[i] as number) ^ (mask[i & 3] as number);
    buffered = buffered.subarray(offset + 4 + length);
    switch (opcode) {
      case 0x0:
        if (!fragmentOpcode) return fail(CLOSE.protocol, 'continuation without a message');
        fragments.push(payload);
        fragmentBytes += payload.length;
        if (!fin) return true;
        {
          const whole = Buffer.concat(fragments);
          const first = fragmentOpcode;
          fragments = [];
          fragmentBytes = 0;
          fragmentOpcode = 0;
          return deliver(first, whole);
        }
      case 0x1:
      case 0x2:
        if (fragmentOpcode) return fail(CLOSE.protocol, 'a new message inside a fragmented one');
        if (fin) return deliver(opcode, payload);
        fragmentOpcode = opcode;
        fragments = [payload];
        fragmentBytes = payload.length;
        return true;
      case 0x8: {
        if (payload.length === 1) return fail(CLOSE.protocol, 'bad close frame');
        const code = payload.length >= 2 ? payload.readUInt16BE(0) : CLOSE.normal;
        if (!closing) close(code === 1005 || code === 1006 || code === 1015 ? CLOSE.normal : code);
        socket.end();
        return false;
      }
      case 0x9:
        send(0xa, payload);
        return true;
      case 0xa:
        return true;
      default:
        return fail(CLOSE.protocol, 'unknown opcode');
    }
  };
  const fail = (code: number, reason: string): false => {
    close(code, reason);
    buffered = Buffer.alloc(0);
    return false;
  };
  const read = (chunk: Buffer) => {
    buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
    while (!ended && readFrame());
  };
  socket.on('data', read);
  if (buffered.length) read(Buffer.alloc(0));
}

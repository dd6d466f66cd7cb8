/**
 * HTTP/1.1 by hand over a socket, for what fetch and node:http refuse to send (a 100 kB request line, broken
 * framing, a request that stops half-way) and for seeing exactly what comes back, bytes and close included.
 */
import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The server closed the connection (rather than the client giving up). */
  closed: boolean;
  /** Everything received, as sent. */
  raw: string;
}

/** Opens a connection and resolves once it is connected. */
export function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/**
 * Sends `text` (or writes nothing more after it) and collects the answer until the server closes the
 * connection or `timeoutMs` passes; one whole answer with a Content-Length also ends the wait.
 */
export async function rawExchange(
  port: number,
  text: string | Buffer,
  timeoutMs = 5000,
  socket?: Socket,
): Promise<RawAnswer> {
  const conn = socket ?? (await openSocket(port));
  return new Promise((resolve) => {
    let received = Buffer.alloc(0);
    let closed = false;
    const finish = () => {
      clearTimeout(timer);
      conn.removeAllListeners('data');
      resolve({ ...parseAnswer(received.toString('utf8')), closed });
      conn.destroy();
    };
    const timer = setTimeout(finish, timeoutMs);
    conn.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const text = received.toString('utf8');
      // An answer that says it closes is waited on until it does, so `closed` tells whether it kept its word.
      if (isComplete(text) && parseAnswer(text).headers.connection !== 'close') finish();
    });
    conn.on('error', () => {});
    conn.once('close', () => {
      closed = true;
      finish();
    });
    if (text.length) conn.write(text);
  });
}

function isComplete(raw: string): boolean {
  const { headers, body, status } = parseAnswer(raw);
  if (!status) return false;
  const length = headers['content-length'];
  return length !== undefined && Buffer.byteLength(body) >= Number(length);
}

export function parseAnswer(raw: string): Omit<RawAnswer, 'closed'> {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return { status: 0, headers: {}, body: '', raw };
  const [statusLine = '', ...lines] = raw.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1] ?? 0), headers, body: raw.slice(end + 4), raw };
}

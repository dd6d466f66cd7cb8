/**
 * Answers written straight onto a socket, for the moments no ServerResponse exists: Node's parser refused the
 * request (too long, malformed, too slow), or an upgrade the simulator will not tunnel. Still JSON in the
 * simulator's dialect, never Node's bare status line with an empty body.
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { SimRequestRefusedError, type TaggedError } from '../errors/errors.js';

/** Writes the error as a complete HTTP/1.1 answer and closes the connection. */
export function endSocketWith(socket: Duplex, error: TaggedError): void {
  endSocketWithJson(socket, error.status, error.toBody(), error.headers);
}

export function endSocketWithJson(
  socket: Duplex,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const text = JSON.stringify(body);
  const lines = Object.entries({
    ...headers,
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    connection: 'close',
  });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n${lines.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n${text}`,
  );
}

/** What to tell a client whose request Node's HTTP parser refused, by the parser's error code. */
export function refusal(
  code: string | undefined,
  maxHeaderSize: number,
  requestTimeout: number,
): SimRequestRefusedError {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return new SimRequestRefusedError(
        431,
        `The request line and headers are longer than the simulator accepts (${maxHeaderSize} bytes)`,
        'Send long values in a JSON body rather than the query string or headers, or start the simulator with a larger --max-header-size',
      );
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new SimRequestRefusedError(
        408,
        `The request did not arrive whole within ${requestTimeout} ms`,
        'Send the request line, headers and body without pausing, or start the simulator with a larger --request-timeout',
      );
    default:
      return new SimRequestRefusedError(
        400,
        `The request is not well-formed HTTP/1.1 (${code ?? 'parse error'})`,
        'Check the request line, header syntax and Content-Length or chunked framing',
      );
  }
}

/** CONNECT asks for a tunnel to somewhere else: the simulator answers for itself, it is no forward proxy. */
export function connectRefusal(): SimRequestRefusedError {
  return new SimRequestRefusedError(
    405,
    'CONNECT is not an operation of the interface: the simulator is not a forward proxy',
    'Send requests to the simulator itself; proxy mode forwards them to --upstream',
  );
}

/** An `Expect` other than `100-continue`, which the simulator cannot meet. */
export function expectationRefusal(expect: string): SimRequestRefusedError {
  return new SimRequestRefusedError(
    417,
    `Cannot meet "Expect: ${expect}"`,
    'Send the request without the Expect header (Expect: 100-continue is met)',
  );
}

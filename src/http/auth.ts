/**
 * HTTP Basic auth as the real server does it when it has a password (OPENCODE_SERVER_PASSWORD): the
 * credentials come as `Authorization: Basic base64(user:password)` or, for clients that cannot set a header
 * (a browser EventSource, a WebSocket), as `?auth_token=base64(user:password)`; anything else on the API is
 * answered 401 UnauthorizedError with the Basic challenge. Off unless the simulator is given credentials.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { UnauthorizedError } from '../errors/errors.js';
import type { SpecIndex, OperationDefinition } from '../openapi/openapi.js';
import { findOperation } from '../openapi/router.js';
import type { Answer, Exchange } from '../exchange/exchange.js';
import type { Credentials } from '../config/credentials.js';

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Whether the request carries the credentials, in the header or the query (an upgrade can be asked too). */
export function isAuthorized(exchange: Pick<Exchange, 'headers' | 'searchParams'>, credentials: Credentials): boolean {
  const expected = digest(Buffer.from(`${credentials.user}:${credentials.password}`, 'utf8'));
  const header = exchange.headers.authorization;
  const basic = typeof header === 'string' ? /^Basic +(\S+) *$/i.exec(header)?.[1] : undefined;
  // A `+` sent unencoded in a query reads as a space; base64 never holds a space, so it can only be a `+`.
  const token = exchange.searchParams.get('auth_token')?.replaceAll(' ', '+');
  // Both are checked whatever the first gives, so the time taken does not tell which one was right.
  const byHeader = matches(basic, expected);
  const byQuery = matches(token, expected);
  return byHeader || byQuery;
}

/**
 * A WebSocket handshake that carries a connect ticket to an operation opened by one (`ticketed`, as the kinds
 * declare them): it is opened by the ticket rather than the credentials (the real server lets a browser, which
 * cannot send an Authorization header on a WebSocket, connect with a ticket it got over an authenticated
 * request); whoever serves the operation checks the ticket.
 */
export function offersTicket(
  exchange: Pick<Exchange, 'upgrade' | 'method' | 'pathname' | 'searchParams'>,
  spec: SpecIndex,
  ticketed: ReadonlySet<string>,
): boolean {
  if (exchange.upgrade !== 'websocket' || !exchange.searchParams.has('ticket')) return false;
  const found = findOperation(spec, exchange.method, exchange.pathname);
  return found.kind === 'found' && ticketed.has(found.operation.operationId);
}

function matches(token: string | undefined, expected: Buffer): boolean {
  // A token that is not base64 is compared all the same (as nothing that can match), for the same timing.
  const decoded = token !== undefined && BASE64.test(token) ? Buffer.from(token, 'base64') : undefined;
  // Hashing first gives equal-length buffers, as timingSafeEqual needs, whatever length was sent.
  const equal = timingSafeEqual(digest(decoded ?? Buffer.alloc(0)), expected);
  return decoded !== undefined && equal;
}

function digest(bytes: Buffer): Buffer {
  return createHash('sha256').update(bytes).digest();
}

/**
 * The 401 the real server sends, with the operation the request addressed where the spec knows it (so the
 * journal and coverage count the declared UnauthorizedError); an unknown path is refused just the same,
 * before routing, as the real server's middleware does.
 */
export function refuse(
  spec: SpecIndex,
  exchange: Exchange,
): { answer: Answer; operation: OperationDefinition | undefined } {
  const found = findOperation(spec, exchange.method === 'HEAD' ? 'GET' : exchange.method, exchange.pathname);
  return {
    answer: new UnauthorizedError().toAnswer(),
    operation: found.kind === 'found' ? found.operation : undefined,
  };
}

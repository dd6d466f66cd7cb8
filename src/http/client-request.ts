/**
 * A request as the lean client (`lean-client.ts`) writes it to the upstream: its head, checked as Node checks
 * a request before it writes one, and whether it may share a connection with others of its turn.
 */
import { LeanClientError } from './client-answer.js';
import { FORBIDDEN_VALUE, HEADER_NAME } from './wire.js';

export interface LeanClientRequest {
  method: string;
  /** The request target: a path and query. */
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

const FORBIDDEN_PATH = /[^\x21-\xff]/;
const EXPECTS_BODY = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Only a request that is safe to send again (it may have to be, when the one ahead of it goes unanswered)
 * and whose answer ends: no body, and no event stream asked for.
 */
export function mayPipeline(request: LeanClientRequest): boolean {
  return (
    (request.method === 'GET' || request.method === 'HEAD') &&
    !request.body?.length &&
    !String(request.headers.accept ?? '').includes('text/event-stream')
  );
}

/** The request line and headers, checked as Node checks them before it writes a request. */
export function requestHead(request: LeanClientRequest, authority: string): string {
  if (FORBIDDEN_PATH.test(request.path))
    throw new LeanClientError('the request path has a character no HTTP request may carry', 'EBADREQUEST');
  let text = `${request.method} ${request.path} HTTP/1.1\r\nhost: ${authority}\r\n`;
  for (const name in request.headers) {
    const value = request.headers[name] as string;
    if (!HEADER_NAME.test(name) || FORBIDDEN_VALUE.test(value))
      throw new LeanClientError(`the header ${name} cannot be sent`, 'EBADREQUEST');
    text += `${name}: ${value}\r\n`;
  }
  // As undici frames them: a body's length, and a length of 0 for a method that expects a body but has none.
  if (request.body?.length || EXPECTS_BODY.has(request.method))
    text += `content-length: ${request.body?.length ?? 0}\r\n`;
  return `${text}\r\n`;
}

/**
 * The two ends of an exchange on Fetch API types, for hosts without a socket (msw's handlers in Node, msw's
 * service worker or a page in the browser): a `Request` read into an exchange, and a decision written as a
 * `Response` with the same status, headers and bytes `io.ts` puts on a socket.
 */
import type { IncomingMessage } from 'node:http';
import { jsonText } from '../exchange/exchange.js';
import type { Decide, Reply } from './decide.js';
import { incomingExchange, lowerCaseNames, requestTarget, type IncomingExchange } from './request.js';

/** What a host without a socket answers with: the pipeline as `fetch`. */
export type InProcessFetch = (request: Request) => Promise<Response>;

/**
 * The pipeline as `fetch`. `basePath` is the path the interface is served under (`/opencode` of
 * `https://agent.example.test/opencode`, usually empty): taken off before routing, as a reverse proxy would.
 */
export function fetchHost(decide: Decide, bodyLimit: number, basePath = ''): InProcessFetch {
  return async (request) => {
    const decision = await decide(await readRequest(request, bodyLimit, basePath));
    return toResponse(decision, request);
  };
}

export async function readRequest(request: Request, bodyLimit: number, basePath = ''): Promise<IncomingExchange> {
  const url = new URL(request.url);
  let path = url.pathname;
  if (basePath && (path === basePath || path.startsWith(`${basePath}/`))) path = path.slice(basePath.length) || '/';
  const headers: IncomingMessage['headers'] = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  let body: Buffer | undefined = NO_BODY;
  if (request.body !== null) {
    const bytes = new Uint8Array(await request.arrayBuffer());
    body = bytes.length > bodyLimit ? undefined : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  }
  // The Fetch standard gives names in lower case, but happy-dom's Headers (msw's Request under
  // `environment: 'happy-dom'`) gives them as the page wrote them: `Content-Type`, as the official client does.
  return incomingExchange(request.method, requestTarget(`${path}${url.search}`), lowerCaseNames(headers), body);
}

const NO_BODY = Buffer.alloc(0);

/** Statuses whose answers carry no body, by the Fetch standard: a `Response` refuses one. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * The decision as a Response to `request`. Where the request shows no Origin, the answer allows any: a page's
 * requests reach a host without a socket with their Origin hidden (a service worker never sees it, nor does
 * msw 3 under happy-dom), yet the page's fetch may still check CORS (happy-dom's does), and the answer is
 * made for that page alone.
 */
export function toResponse({ answer, headers: extra }: Reply, request: Request): Response {
  // A dropped connection is what fetch reports as a network error.
  if (answer.kind === 'drop' || answer.kind === 'upgrade') return Response.error();
  const headers = new Headers(extra);
  if (answer.headers)
    for (const name in answer.headers)
      if (!name.startsWith('x-sim-')) headers.set(name, answer.headers[name] as string);
  if (!request.headers.has('origin') && !headers.has('access-control-allow-origin'))
    headers.set('access-control-allow-origin', '*');
  const method = request.method;
  const head = method.toUpperCase() === 'HEAD' || NULL_BODY.has(answer.status);
  let body: BodyInit | null = null;
  switch (answer.kind) {
    case 'stream':
      if (head) (answer.stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
      else body = webStream(answer.stream, request.signal);
      break;
    case 'raw':
      headers.set('content-length', String(answer.raw.length));
      if (!head) body = new Uint8Array(answer.raw);
      break;
    case 'empty':
      headers.set('content-length', '0');
      break;
    case 'json':
      if (answer.status === 204 || answer.body === undefined) {
        headers.set('content-length', '0');
        break;
      }
      {
        const text = jsonText(answer);
        headers.set('content-type', 'application/json');
        headers.set('content-length', String(Buffer.byteLength(text)));
        if (!head) body = text;
      }
  }
  return new Response(body, { status: answer.status, headers });
}

/**
 * A Node stream as a web stream, a chunk per pull: a reader that stops reading leaves the frames in the
 * simulator's subscriber queue, whose bounds then apply as they do on a socket; a reader that cancels, or a
 * request aborted, ends the subscription. (msw in Node passes on an abort, not a cancel: msw 2.15's
 * interceptor never cancels the stream it reads.)
 */
function webStream(stream: NodeJS.ReadableStream, signal: AbortSignal | undefined): ReadableStream<Uint8Array> {
  const chunks = (stream as AsyncIterable<Uint8Array | string>)[Symbol.asyncIterator]();
  const end = () => (stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
  signal?.addEventListener('abort', end, { once: true });
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { value, done } = await chunks.next();
        if (done) controller.close();
        else controller.enqueue(typeof value === 'string' ? encoder.encode(value) : new Uint8Array(value));
      },
      cancel() {
        // Destroyed first: a pull waiting for the next frame then ends, where the iterator's return would wait
        // for it (and an idle subscription has no next frame coming).
        end();
        chunks.return?.().catch(() => {});
      },
    },
    { highWaterMark: 0 },
  );
}

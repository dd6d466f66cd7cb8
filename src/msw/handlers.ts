/**
 * The simulator as msw request handlers, whatever hosts the core (Node in-process, or the browser build): every
 * request under the interface's base URL goes through the pipeline, and a handle drives the simulator as
 * `startSimulator`'s does, with no socket in between. Requests to other hosts are not matched, so msw's own
 * `onUnhandledRequest` decides what happens to them.
 */
import { HttpHandler, type DefaultBodyType, type HttpRequestParsedResult, type ResponseResolver } from 'msw';
import { connectSimulator, type SimulatorHandle } from '../handle/simulator-handle.js';
import { fetchHost, type InProcessFetch } from '../http/fetch-io.js';
import { createDecide, type PipelineDeps } from '../pipeline/pipeline.js';
import { SimConfigError } from '../errors/sim-errors.js';

/** Where an app built on the official client finds the real server by default. */
export const DEFAULT_BASE_URL = 'http://localhost:4096';

export interface MswSimulator extends SimulatorHandle {
  /** The handlers to give msw: `setupServer(...sim.handlers)`, `setupWorker(...sim.handlers)`, `server.use(...)`. */
  readonly handlers: HttpHandler[];
  /** The pipeline as `fetch`, for code that wants an answer without msw in between. */
  readonly fetch: InProcessFetch;
}

/** The base URL as given, checked: absolute http(s), no query; its path (if any) is where the API is served. */
export function readBaseUrl(baseUrl: string | undefined): URL {
  let url: URL;
  try {
    url = new URL(baseUrl ?? DEFAULT_BASE_URL);
  } catch {
    throw new SimConfigError(
      `baseUrl ${JSON.stringify(baseUrl)} is not an absolute URL`,
      'Give the URL your app sends the API to, as in baseUrl: "http://localhost:4096"',
    );
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash)
    throw new SimConfigError(
      `baseUrl ${JSON.stringify(baseUrl)} must be an http(s) URL without a query or fragment`,
      'Give the URL your app sends the API to, as in baseUrl: "http://localhost:4096"',
    );
  return url;
}

/**
 * Every request under the base URL, whatever its method, answered by the pipeline. msw's own matching would
 * compile a path pattern into a regular expression and read the cookie store for every request, which cost
 * about as much as the simulator's answer: a prefix is all the simulator needs, and it reads cookies itself.
 */
class SimulatorHandler extends HttpHandler {
  constructor(
    private readonly under: string,
    fetch: InProcessFetch,
  ) {
    const resolver: ResponseResolver<never, DefaultBodyType, DefaultBodyType> = ({ request }) => fetch(request);
    super(/.+/, ({ request }) => request.url.startsWith(under), resolver as never);
  }

  override parse(args: { request: Request }): Promise<HttpRequestParsedResult> {
    return Promise.resolve({ match: { matches: args.request.url.startsWith(this.under), params: {} }, cookies: {} });
  }
}

/** The handlers and the handle over a simulator put together by either entry (Node's, or the browser build's). */
export function mswSimulator(sim: PipelineDeps, base: URL): MswSimulator {
  const path = base.pathname.replace(/\/+$/, '');
  const root = `${base.origin}${path}`;
  const fetch = fetchHost(createDecide(sim), sim.config.bodyLimit, path);
  const handlers = [new SimulatorHandler(`${root}/`, fetch)];
  const close = async () => {
    sim.partitions.endStreams();
    sim.partitions.dispose();
    sim.printer?.flush();
  };
  const handle = connectSimulator(root, { fetch, close });
  return Object.assign(handle, { handlers, fetch });
}

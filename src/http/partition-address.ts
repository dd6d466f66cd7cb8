/**
 * Which partition a request is addressed to: the `X-Sim-Partition` header, or a `/__partition/NAME/` path
 * prefix for clients that can only be given a base URL (a browser `EventSource`, an app configured with one
 * URL). The prefix is taken off the path, so everything after ingest (control routes, routing, forwarding
 * upstream) sees the path the client meant.
 */
import { remember } from '../caches/bounded-map.js';
import { safeDecode } from '../openapi/router.js';
import type { IncomingExchange } from './request.js';
import type { Exchange } from '../exchange/exchange.js';
import type { Clock } from '../state/clock.js';

export const PARTITION_HEADER = 'x-sim-partition';
export const PARTITION_PREFIX = '/__partition/';

/**
 * What addressing reads of a partition (src/control/partitions.ts), named here so that the HTTP floor needs
 * nothing of what a partition composes above it.
 */
export interface Addressable {
  readonly engine: { readonly clock: Pick<Clock, 'settle' | 'now'> };
  nextRequestId(): string;
}

export function selectPartition<P extends Addressable>(
  incoming: IncomingExchange,
  partitions: { readonly default: P; get(name: string): P },
): { partition: P; exchange: Exchange } {
  let { pathname } = incoming;
  let name: string | undefined;
  if (pathname.startsWith(PARTITION_PREFIX)) {
    const prefixed = pathname;
    ({ name, pathname } =
      prefixed.length <= MAX_KEPT_PATH
        ? remember(addresses, KEPT_ADDRESSES, prefixed, () => splitAddress(prefixed))
        : splitAddress(prefixed));
  } else {
    const header = incoming.headers[PARTITION_HEADER];
    name = Array.isArray(header) ? header[0] : header;
  }
  const partition = name === undefined || name === '' ? partitions.default : partitions.get(name);
  // In real-time mode the world may have moved on since the last request: let what fell due happen first.
  partition.engine.clock.settle();
  // The request as read becomes the exchange: one object per request, not a copy at each step.
  const exchange = incoming as Exchange;
  exchange.pathname = pathname;
  exchange.id = partition.nextRequestId();
  exchange.now = partition.engine.clock.now();
  return { partition, exchange };
}

/**
 * Prefixed paths as split, by path: a client asks the same ones again and again, and the same strings for the
 * partition's name and the path keep every later lookup by them (the router's, the partitions') from hashing
 * a new string each time.
 */
const addresses = new Map<string, { name: string; pathname: string }>();
const KEPT_ADDRESSES = 256;
const MAX_KEPT_PATH = 2048;

function splitAddress(prefixed: string): { name: string; pathname: string } {
  const end = prefixed.indexOf('/', PARTITION_PREFIX.length);
  return {
    name: safeDecode(prefixed.slice(PARTITION_PREFIX.length, end < 0 ? undefined : end)),
    pathname: end < 0 ? '/' : prefixed.slice(end),
  };
}

/** The id an answer carries when no partition could take the request (a bad partition name, the cap). */
export function unaddressed(incoming: IncomingExchange): Exchange {
  return { ...incoming, id: 'req_unaddressed', now: 0 };
}

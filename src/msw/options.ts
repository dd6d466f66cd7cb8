import type { SimOptions } from '../config.js';

/**
 * `simulatorHandlers(options)`: the mock's options that mean something without a socket (no port, host, proxy,
 * recording or auth), and the URL the app sends the API to.
 */
export interface MswOptions extends Pick<
  SimOptions,
  | 'scenario'
  | 'seed'
  | 'dynamic'
  | 'realTime'
  | 'projectDir'
  | 'projectId'
  | 'maxPartitions'
  | 'bodyLimit'
  | 'maxSubscribers'
  | 'log'
  | 'logExchanges'
  | 'simEvents'
  | 'spec'
> {
  /** The URL the app sends the API to (default `http://localhost:4096`); everything under it is answered. */
  baseUrl?: string;
}

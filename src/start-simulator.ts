/**
 * `startSimulator(options)`: the one entry point a test needs. Starts the simulator on a free loopback port in
 * this process and hands back a handle to drive it.
 */
import type { SimOptions } from './config.js';
import { startServer } from './http/server.js';

export interface SimulatorHandle {
  /** Base URL of the API (for a partition, with its path prefix). */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

export async function startSimulator(options: SimOptions = {}): Promise<SimulatorHandle> {
  const running = await startServer({ port: 0, log: () => {}, ...options });
  return { url: running.url, port: running.port, close: () => running.close() };
}

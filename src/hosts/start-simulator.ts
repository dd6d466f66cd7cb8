/**
 * `startSimulator(options)`: the one entry point a test needs. Starts the simulator on a free loopback port in
 * this process and hands back a handle to drive it (clock, scenario, rules, coverage, partitions). The spec,
 * Prism's operations and loaded scenarios are kept for the process, so every start after the first is quick.
 */
import { connectSimulator, type SimulatorHandle } from '../handle/simulator-handle.js';
import type { SimOptions } from '../config/config.js';
import { checkSimOptions } from '../config/options.js';
import { startServer } from './server.js';

/**
 * Everything `SimOptions` takes. Of note for tests: `auth: 'user:password'` makes the API ask for credentials
 * as the real server does (the handle drives the control plane, which stays open, so it needs none);
 * `watch: true` with `scenario` a file reloads that file when it changes. It prints nothing of the exchanges
 * unless given `logExchanges` (`'lines'`, `'json'`, or a function handed each one).
 */
export type StartOptions = SimOptions;

export async function startSimulator(options: StartOptions = {}): Promise<SimulatorHandle> {
  // Plain JavaScript has no compiler to catch `scenaro`: refused here, before anything starts.
  checkSimOptions(options, 'startSimulator');
  // A test's simulator is quiet unless told otherwise (`logExchanges` is off unless given), and takes whatever
  // port is free.
  const running = await startServer({ port: 0, log: () => {}, ...options });
  return connectSimulator(running.url, { adminToken: running.app.sim.config.adminToken, close: () => running.close() });
}

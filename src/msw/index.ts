/**
 * `session-agent-sim/msw` in Node: the simulator's handlers for msw's `setupServer`, answering in this process
 * through the same pipeline the CLI serves on a socket (validation, the dialect, rules, coverage, the journal).
 * The browser build (`browser.ts`) exports the same names.
 */
import { createSimulator } from '../hosts/app.js';
import { checkOptionNames, MSW_OPTIONS } from '../config/options.js';
import { mswSimulator, readBaseUrl, type MswSimulator } from './handlers.js';
import type { MswOptions } from '../config/options.js';

export type { MswSimulator } from './handlers.js';
export type { MswOptions } from '../config/options.js';
export { DEFAULT_BASE_URL } from './handlers.js';
export { SimulatorError } from '../errors/sim-errors.js';

/**
 * A simulator answering through msw: `setupServer(...sim.handlers)`. Quiet unless given `logExchanges`, as a
 * test's simulator is. Everything loaded once (the spec, the examples) is kept for the process, so the
 * simulators after the first start in a few milliseconds.
 */
export async function simulatorHandlers(options: MswOptions = {}): Promise<MswSimulator> {
  checkOptionNames(options, MSW_OPTIONS, 'simulatorHandlers');
  const { baseUrl, ...rest } = options;
  const base = readBaseUrl(baseUrl);
  const { sim } = await createSimulator({ log: () => {}, ...rest });
  return mswSimulator(sim, base);
}

/**
 * The option names each entry point of the package knows, in one place, so that plain JavaScript (which no
 * compiler checks) meets a misspelt option as a refusal with "did you mean" instead of a default silently
 * taken. Each table `satisfies` a record of its interface's keys: an option added to the interface and not
 * here (or here and not there) fails to compile, so the two cannot drift apart.
 */
import type { ConnectOptions, CoverageOptions } from './client/simulator-handle.js';
import type { SimOptions } from './config.js';
import type { MswOptions } from './msw/options.js';
import { SimConfigError } from './sim-errors.js';
import { closest } from './text/closest.js';

type Names<T> = Record<keyof Required<T>, true>;

/** `SimOptions`: startSimulator, createApp, createSimulator, startServer and resolveConfig take these. */
export const SIM_OPTIONS = {
  port: true,
  host: true,
  seed: true,
  dynamic: true,
  projectDir: true,
  projectId: true,
  specPath: true,
  realTime: true,
  scenario: true,
  upstream: true,
  upstreamTimeout: true,
  record: true,
  replay: true,
  redact: true,
  ignore: true,
  replayExhausted: true,
  coverage: true,
  maxPartitions: true,
  bodyLimit: true,
  maxHeaderSize: true,
  requestTimeout: true,
  maxSubscribers: true,
  adminToken: true,
  auth: true,
  watch: true,
  log: true,
  spec: true,
  logExchanges: true,
  simEvents: true,
} as const satisfies Names<SimOptions>;

/** `SimOptions['redact']`. */
export const REDACT_OPTIONS = { headers: true, query: true, pointers: true } as const satisfies Names<
  NonNullable<SimOptions['redact']>
>;

/** `connectSimulator(url, options)`. */
export const CONNECT_OPTIONS = {
  partition: true,
  adminToken: true,
  close: true,
  fetch: true,
} as const satisfies Names<ConnectOptions>;

/** `simulatorHandlers(options)` of `session-agent-sim/msw`. */
export const MSW_OPTIONS = {
  baseUrl: true,
  scenario: true,
  seed: true,
  dynamic: true,
  realTime: true,
  projectDir: true,
  projectId: true,
  maxPartitions: true,
  bodyLimit: true,
  maxSubscribers: true,
  log: true,
  logExchanges: true,
  simEvents: true,
  spec: true,
} as const satisfies Names<MswOptions>;

/** A handle's `coverage(options)`. */
export const COVERAGE_OPTIONS = { all: true } as const satisfies Names<CoverageOptions>;

/**
 * Refuses an options value that is not an object, or names an option `known` does not have, with every
 * unknown name (and the known one it is nearest to) as a problem. `where` names the call, `startSimulator`.
 */
export function checkOptionNames(options: unknown, known: Readonly<Record<string, true>>, where: string): void {
  if (options === undefined) return;
  const names = Object.keys(known);
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new SimConfigError(
      `${where} takes an object of options, got ${options === null ? 'null' : Array.isArray(options) ? 'an array' : typeof options}`,
      `Its options: ${names.join(', ')}`,
    );
  }
  const problems = Object.keys(options)
    .filter((name) => !Object.hasOwn(known, name))
    .map((name) => {
      const near = closest(name, names);
      return `unknown option ${JSON.stringify(name)}${near === undefined ? '' : `: did you mean ${JSON.stringify(near)}?`}`;
    });
  if (problems.length === 0) return;
  throw new SimConfigError(`${where}: ${problems.join('; ')}`, `${where} takes ${names.join(', ')}`, problems);
}

/** The checks every SimOptions entry point makes: its names, and those of `redact`. */
export function checkSimOptions(options: unknown, where: string): void {
  checkOptionNames(options, SIM_OPTIONS, where);
  const redact = (options as SimOptions | undefined)?.redact;
  if (redact !== undefined) checkOptionNames(redact, REDACT_OPTIONS, `${where} redact`);
}

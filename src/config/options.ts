/**
 * The options each entry point of the package takes: their types, and their names in one place, so that
 * plain JavaScript (which no compiler checks) meets a misspelt option as a refusal with "did you mean"
 * instead of a default silently taken. Each table `satisfies` a record of its interface's keys: an option
 * added to the interface and not here (or here and not there) fails to compile, so the two cannot drift
 * apart. The interfaces are here, not beside the entry points, because the entry points check their names.
 */
import type { AuthOption } from './credentials.js';
import type { Scenario } from '../format/scenario-types.js';
import { SimConfigError } from '../errors/sim-errors.js';
import type { ExchangeEntry } from '../state/log.js';
import { closest } from '../text/closest.js';

export interface SimOptions {
  /** Listen port for the CLI; 0 picks a free one. */
  port?: number;
  /** Listen address; loopback unless told otherwise. */
  host?: string;
  /** Seeds generated ids and fake data; same seed, same answers. */
  seed?: string;
  /** Generate bodies from the schemas (json-schema-faker) instead of serving the spec's examples. */
  dynamic?: boolean;
  /** The project directory the simulated service runs in (default location). */
  projectDir?: string;
  /** Project id reported in `location.project.id`; derived from projectDir when omitted. */
  projectId?: string;
  /**
   * The interface to serve: a path to an OpenAPI document (YAML or JSON, such as a newer real server's `/doc`)
   * or the document itself, parsed. Operations it shares with the simulator's own spec keep their simulation
   * while their shapes still fit; the others answer from the spec's examples (docs/spec-versions.md).
   * Default: the simulator's own spec.
   */
  spec?: string | Record<string, unknown>;
  /** The same as `spec` given as a path (its older name). */
  specPath?: string;
  /**
   * Let the clock follow wall time instead of moving only when advanced. It starts at the wall clock's now, and
   * the scenario's instants keep their distance from its start (a date-time it wrote too), unless it pins `start`.
   */
  realTime?: boolean;
  /**
   * Put the simulator's own event types (`integration.attempt.settled`, `shell.timeout.updated`, …, which the
   * official client's `V2Event` does not know) on the public event streams too. Without it they are only in
   * the log: `/__sim/live`, the journal and the inspector show them.
   */
  simEvents?: boolean;
  /**
   * Scenario to serve: a name in scenarios/, a path to a .yaml file, or the scenario as an object (typed by the
   * format; `defineScenario` checks one written apart). Without one, the spec's examples answer.
   */
  scenario?: string | Scenario;
  /** Proxy mode: forward every request to this server (http or https URL) and check its answers. */
  upstream?: string;
  /** How long to wait for the upstream's answer, in ms. */
  upstreamTimeout?: number;
  /** Record mode: write every forwarded exchange to this recording file (needs `upstream`). */
  record?: string;
  /** Replay mode: answer from this recording file (with `upstream`: record what is missing into it). */
  replay?: string;
  /** Extra secrets to redact, on top of authorization, cookies, auth_token and connect/key's `key`. */
  redact?: { headers?: string[]; query?: string[]; pointers?: string[] };
  /** Query names and body JSON pointers left out when matching a replayed request (volatile fields). */
  ignore?: string[];
  /** When a request's recorded answers are used up: answer the last again (default), or miss. */
  replayExhausted?: 'last' | 'error';
  /** Write the coverage report (JSON) to this file when the simulator closes, and print its one-line summary. */
  coverage?: string;
  /** How many partitions the simulator keeps at most (each holds a world); beyond it, SimPartitionLimitError. */
  maxPartitions?: number;
  /** Largest request body accepted, in bytes; a larger one is answered with the operation's InvalidRequestError. */
  bodyLimit?: number;
  /** Largest request line plus headers, in bytes; past it a JSON 431 SimRequestRefusedError. */
  maxHeaderSize?: number;
  /** How long a client may take to send a whole request (line, headers, body), in ms; past it a JSON 408. */
  requestTimeout?: number;
  /** How many event-stream subscribers (`GET /api/event`, over all partitions) may be open at once. */
  maxSubscribers?: number;
  /**
   * The token the control API (`/__sim`) asks for. Required whenever the simulator listens beyond loopback:
   * without one, one is generated (the CLI prints it). On loopback the control API is open unless one is given.
   */
  adminToken?: string;
  /**
   * Require HTTP Basic credentials on the API, as the real server does with a password: `user:password`, or a
   * password alone for user `opencode`. The control plane (`/__sim`) stays open. Off by default.
   */
  auth?: AuthOption;
  /** Mock mode: reload the scenario file when it changes (a broken edit keeps the last good world). */
  watch?: boolean;
  /** Where unexpected failures are logged (stack traces never reach clients). */
  log?: (line: string) => void;
  /**
   * Print every exchange as it is answered, one line each (virtual time, request id, method, path, status,
   * `_tag`, operation, layer, rule, violations): `'lines'` on standard output (coloured on a terminal,
   * NO_COLOR and FORCE_COLOR respected), `'json'` one object per line, or a function handed each exchange.
   * `{ format, headers: true }` adds both sides' headers, secrets masked. The CLI prints lines unless
   * `--quiet`; a library simulator prints nothing unless given this.
   */
  logExchanges?: ExchangeLogOption;
}

/** How the exchanges are printed: `lines` for people, `json` one object per line for machines. */
export type ExchangeLogFormat = 'lines' | 'json';

/**
 * One exchange as `--log json` prints it and a `logExchanges` function receives it: the log entry's own fields
 * (`seq` tells exchanges apart while the virtual clock stands still; the path has no query, which may carry a
 * token), the time as ISO 8601 and the partition beside them.
 */
export interface ExchangeRecord extends Pick<
  ExchangeEntry,
  | 'seq'
  | 'time'
  | 'id'
  | 'method'
  | 'path'
  | 'operationId'
  | 'layer'
  | 'status'
  | 'tag'
  | 'rule'
  | 'outsideSpec'
  | 'violations'
  | 'nearMiss'
> {
  iso: string;
  partition: string;
  /** With `headers: true`: both sides' headers, secrets masked as the exchange details mask them. */
  request?: { headers: Record<string, string> };
  response?: { headers: Record<string, string> };
}

export interface ExchangeLogOptions {
  /** `lines` (coloured when the output is a terminal), `json`, or a function handed each exchange. */
  format: ExchangeLogFormat | ((record: ExchangeRecord) => void);
  /** Add the request's and the answer's headers (secrets masked): `--verbose`. */
  headers?: boolean;
}

/** What `logExchanges` takes: a format alone, or the format with `headers`. */
export type ExchangeLogOption = ExchangeLogOptions['format'] | ExchangeLogOptions;

/** `connectSimulator(url, options)`. */
export interface ConnectOptions {
  /** The partition the handle drives (default `default`). */
  partition?: string;
  /** For a simulator listening beyond loopback, whose control API asks for it. */
  adminToken?: string;
  /** What `close()` does instead of deleting the partition (startSimulator's handle stops its server). */
  close?: () => Promise<void>;
  /** How the handle reaches the simulator: `fetch` unless told (an in-process simulator answers directly). */
  fetch?: (request: Request) => Promise<Response>;
}

/** A handle's `coverage(options)`. */
export interface CoverageOptions {
  /** Merge every partition's counts (parallel workers each cover part of the API). */
  all?: boolean;
}

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

/**
 * The simulator's own errors: outside the API, so they carry a `Sim` tag and a hint on what to do. Each is a
 * `SimulatorError`, whether a request meets it (answered as its body) or a caller of the package does (thrown,
 * or rebuilt by the handle from the control API's answer).
 */
import { TaggedError } from './tagged-error.js';
import { didYouMean } from '../text/closest.js';

/**
 * Every refusal of the simulator: `tag` (its `_tag`), `hint` (how to fix it) and `problems` (each thing wrong,
 * possibly none). Abstract: each kind of refusal is its own class, so `instanceof SimRuleError` tells them apart.
 */
export abstract class SimulatorError extends TaggedError {
  constructor(fields: { message: string; hint?: string; problems?: readonly string[]; [field: string]: unknown }) {
    super(fields);
    // `SimRuleError: The rule cannot be added: …` where an uncaught one is printed.
    this.name = new.target.name;
  }

  /** The `_tag` of its body, e.g. `SimScenarioNotFoundError`. */
  get tag(): string {
    return this._tag;
  }

  get hint(): string | undefined {
    return typeof this.fields.hint === 'string' ? this.fields.hint : undefined;
  }

  get problems(): string[] {
    return Array.isArray(this.fields.problems) ? [...(this.fields.problems as string[])] : [];
  }

  /**
   * A refusal as the control API answered it, as an instance of its own class (`instanceof SimRuleError`
   * holds for a rule refused over HTTP as for one refused in this process). The class's constructor is not
   * run (its arguments are not in the body); the body's fields are the error's fields, as they were.
   */
  static fromAnswer(status: number, body: Record<string, unknown>, fallback: string): SimulatorError {
    const { _tag, ...rest } = body;
    const tag = typeof _tag === 'string' ? _tag : 'SimError';
    const fields = { ...rest, message: typeof body.message === 'string' ? body.message : fallback };
    const known: (abstract new (...args: never[]) => SimulatorError) | undefined = Object.hasOwn(SIM_ERRORS, tag)
      ? SIM_ERRORS[tag as keyof typeof SIM_ERRORS]
      : undefined;
    const error = Reflect.construct(AnsweredError, [fields, tag, status], known ?? AnsweredError) as SimulatorError;
    // Over HTTP the hint is all the caller gets of how to fix it, so an uncaught one shows it too.
    if (error.hint) error.message = `${error.message} (${error.hint})`;
    return error;
  }
}

/** A refusal answered over HTTP: its tag and status are the answer's. */
class AnsweredError extends SimulatorError {
  readonly _tag: string;
  readonly status: number;
  constructor(fields: { message: string }, tag: string, status: number) {
    super(fields);
    this._tag = tag;
    this.status = status;
  }
}

export interface OperationHint {
  operationId: string;
  method: string;
  path: string;
}

export class SimRouteNotFoundError extends SimulatorError {
  readonly _tag = 'SimRouteNotFoundError';
  readonly status = 404;
  /** `meant`: the path asked for with a slip in the simulator's own prefix mended (`/__partiton/…` → `/__partition/…`). */
  constructor(method: string, path: string, closest: OperationHint[], meant?: string) {
    super({
      message: `No operation of the interface matches ${method} ${path}`,
      hint: meant
        ? `Did you mean ${meant}?`
        : closest.length
          ? `Closest operations: ${closest.map((o) => `${o.method} ${o.path}`).join(', ')}`
          : 'See GET /__sim/operations for every operation',
      // The operations nearest a path the simulator was meant to read are nearest by chance only.
      closest: meant ? [] : closest,
    });
  }
}

/**
 * A WebSocket handshake nothing here serves: the mock serves the WebSockets of its world's PTYs only, and a
 * replay has no upstream to pass one to. Said as the route it asks for not being found.
 */
export class SimNoWebSocketError extends SimulatorError {
  readonly _tag = 'SimRouteNotFoundError';
  readonly status = 404;
  constructor(message: string, hint: string) {
    super({ message, hint });
  }
}

export class SimMethodNotAllowedError extends SimulatorError {
  readonly _tag = 'SimMethodNotAllowedError';
  readonly status = 405;
  constructor(method: string, path: string, allowed: OperationHint[]) {
    super({
      message: `${method} is not an operation on ${path}`,
      hint: `Allowed here: ${allowed.map((o) => `${o.method} (${o.operationId})`).join(', ')}`,
      allowed,
    });
    this.headers.allow = allowed.map((o) => o.method).join(', ');
  }
}

export class SimPreferenceError extends SimulatorError {
  readonly _tag = 'SimPreferenceError';
  readonly status = 400;
  constructor(message: string, hint: string) {
    super({ message, hint });
  }
}

/** The simulator failed where the operation declares no error that could say so. */
export class SimInternalError extends SimulatorError {
  readonly _tag = 'SimInternalError';
  readonly status = 500;
  constructor(ref: string, message: string) {
    super({ message, ref });
  }
}

/**
 * A scenario named that is not there. `lookedIn`: the folders searched (the scenarios folder for a name, the
 * file's own folder for a path), so a caller whose working directory is not the one they thought sees it.
 */
export class SimScenarioNotFoundError extends SimulatorError {
  readonly _tag = 'SimScenarioNotFoundError';
  readonly status = 404;
  constructor(
    name: string,
    available: string[],
    otherwise = 'or give a path to a .yaml file',
    lookedIn: string[] = [],
  ) {
    super({
      message: `No scenario "${name}"${lookedIn.length ? ` (looked in ${lookedIn.join(', ')})` : ''}.${didYouMean(name, available)}`,
      hint: `Available: ${available.join(', ') || '(none)'}; ${otherwise}`,
      available,
      lookedIn: lookedIn.length ? lookedIn : undefined,
    });
  }
}

/** A control-API request the simulator cannot take (bad JSON, missing field). */
export class SimControlRequestError extends SimulatorError {
  readonly _tag = 'SimControlRequestError';
  readonly status = 400;
  constructor(message: string, hint: string) {
    super({ message, hint });
  }
}

/** The real server could not be reached, or answered something that is not HTTP+JSON. */
export class SimUpstreamError extends SimulatorError {
  readonly _tag = 'SimUpstreamError';
  readonly status = 502;
  constructor(request: string, why: string, code: string | undefined) {
    super({
      message: `Upstream failed for ${request}: ${why}`,
      code,
      hint: 'Check that the upstream server runs and answers at --upstream',
    });
  }
}

/** Replay found no recorded interaction for a request. */
export class SimRecordingNotFoundError extends SimulatorError {
  readonly _tag = 'SimRecordingNotFoundError';
  readonly status = 404;
  constructor(request: string, why: string, closest: { seq: number; method: string; path: string } | undefined) {
    super({
      message: `No recorded interaction matches ${request}: ${why}`,
      closest,
      hint: closest
        ? `Closest: interaction ${closest.seq}, ${closest.method} ${closest.path}`
        : 'Record it first (record or replay --upstream), or check the recording file',
    });
  }
}

/** A partition name that cannot be one (it travels in a header and a URL path). */
export class SimPartitionNameError extends SimulatorError {
  readonly _tag = 'SimPartitionNameError';
  readonly status = 400;
  constructor(name: string) {
    super({
      message: `"${name}" cannot name a partition`,
      hint: 'Use 1 to 64 letters, digits, dots, dashes or underscores, e.g. X-Sim-Partition: worker-3',
    });
  }
}

/** More partitions than the simulator keeps: each holds a world, so their number is capped. */
export class SimPartitionLimitError extends SimulatorError {
  readonly _tag = 'SimPartitionLimitError';
  readonly status = 429;
  constructor(name: string, max: number) {
    super({
      message: `Cannot create partition "${name}": the simulator already holds ${max} partitions, its limit`,
      hint: 'Delete partitions you are done with (DELETE /__sim/partitions/NAME, or close() on a partition handle), or start with a higher maxPartitions',
      max,
    });
  }
}

export class SimPartitionNotFoundError extends SimulatorError {
  readonly _tag = 'SimPartitionNotFoundError';
  readonly status = 404;
  constructor(name: string, existing: string[]) {
    super({
      message: `No partition "${name}"`,
      hint: `Partitions now: ${existing.join(', ')}; a partition is created by the first request that names it`,
    });
  }
}

/** A run-time rule the simulator refuses, with every problem found in it. */
export class SimRuleError extends SimulatorError {
  readonly _tag = 'SimRuleError';
  readonly status = 400;
  constructor(problems: string[]) {
    super({
      message: `The rule cannot be added: ${problems.join('; ')}`,
      problems,
      hint: 'A rule has the shape of a scenario rule: {"when": {"operation": "v2.session.compact", …} | {"method": "GET", "path": "/api/gateway/{name}"}, "then": {"error": {"_tag": …}} | {"status": …, "headers": {…}, "body": …} | {"drop": true} | {"stream": {"fault": "cut"}}, "times": 1}; outsideSpec: true on the rule lets it leave the spec (docs/stubs-and-faults.md)',
    });
  }
}

export class SimRuleNotFoundError extends SimulatorError {
  readonly _tag = 'SimRuleNotFoundError';
  readonly status = 404;
  constructor(id: string, existing: string[]) {
    super({
      message: `No run-time rule ${id} in this partition`,
      hint: existing.length
        ? `Rules now: ${existing.join(', ')}`
        : 'This partition has no run-time rules (GET /__sim/rules lists them)',
    });
  }
}

export class SimRuleLimitError extends SimulatorError {
  readonly _tag = 'SimRuleLimitError';
  readonly status = 429;
  constructor(max: number) {
    super({
      message: `This partition already holds ${max} run-time rules, its limit`,
      hint: 'Remove rules you no longer need (DELETE /__sim/rules or DELETE /__sim/rules/ID), or reset the partition',
      max,
    });
  }
}

/** A scenario (a file, or an object a test passed) that does not load, with every problem at its place. */
export class SimScenarioError extends SimulatorError {
  readonly _tag = 'SimScenarioError';
  readonly status = 400;
  constructor(problems: string[]) {
    super({
      message: `The scenario does not load: ${problems.join('; ')}`,
      problems,
      hint: 'Fix each problem at the place it names; the format is scenarios/scenario.schema.json',
    });
  }
}

/** An exchange the inspector asked for that this partition does not keep (never made here, or evicted). */
export class SimExchangeNotFoundError extends SimulatorError {
  readonly _tag = 'SimExchangeNotFoundError';
  readonly status = 404;
  constructor(id: string, evicted: boolean, capacity: number) {
    super({
      message: evicted ? `Exchange ${id} is no longer kept` : `No exchange ${id} in this partition`,
      hint: evicted
        ? `A partition keeps its last ${capacity} exchanges (fewer when their bodies are large), and a reset or scenario switch forgets them; repeat the request to see it again`
        : 'Exchange ids are the x-sim-request-id header of an answer (or the id of a GET /__sim/journal entry), and belong to the partition the request was addressed to',
    });
  }
}

/**
 * A request Node's HTTP parser refused before the pipeline saw it (a request line or headers past the limit,
 * malformed HTTP, or one sent too slowly): answered on the socket, since no request object exists. Also a
 * control-API body past the body limit (413), which the host did not keep (the API's operations answer that
 * with their declared InvalidRequestError instead).
 */
export class SimRequestRefusedError extends SimulatorError {
  readonly _tag = 'SimRequestRefusedError';
  constructor(
    readonly status: 400 | 405 | 408 | 413 | 417 | 431,
    message: string,
    hint: string,
  ) {
    super({ message, hint });
  }
}

/** More long-lived streams of one kind than the simulator keeps open: each holds a buffer and a socket. */
export class SimStreamLimitError extends SimulatorError {
  readonly _tag = 'SimStreamLimitError';
  readonly status = 429;
  constructor(kind: string, max: number, hint: string) {
    super({ message: `The simulator already holds ${max} open ${kind}, its limit`, hint, max });
  }
}

/** The control API of a simulator reachable beyond loopback asks for its admin token. */
export class SimAdminTokenError extends SimulatorError {
  readonly _tag = 'SimAdminTokenError';
  readonly status = 401;
  constructor(given: boolean) {
    super({
      message: given ? 'The admin token does not match' : 'The control API needs the admin token',
      hint: 'Send X-Sim-Admin-Token: TOKEN (or Authorization: Bearer TOKEN); open the inspector once as /__sim/?admin_token=TOKEN. The token was printed at start, or set with --admin-token',
    });
  }
}

/** An interaction the upstream answered could not be written to the recording: loud, never a silent loss. */
export class SimRecordingWriteError extends SimulatorError {
  readonly _tag = 'SimRecordingWriteError';
  readonly status = 507;
  constructor(file: string, code: string | undefined, why: string) {
    super({
      message: `The upstream answered, but the interaction could not be written to ${file}: ${why}`,
      code,
      hint:
        code === 'ENOSPC' || code === 'EDQUOT'
          ? 'Free space on that disk (or record to another with --recording), then repeat the request'
          : 'Check that the recording file and its folder are writable, then repeat the request',
    });
  }
}

/** A control request from a web page of another site, or addressed to a name that is not this machine. */
export class SimForeignOriginError extends SimulatorError {
  readonly _tag = 'SimForeignOriginError';
  readonly status = 403;
  constructor(what: string) {
    super({
      message: `The control API does not answer ${what}: on loopback it serves this machine's programs and pages only`,
      hint: 'Use http://127.0.0.1 or http://localhost (from a page served on loopback too), or start the simulator with --admin-token and send it',
    });
  }
}

/**
 * More resources of one kind than a partition keeps: everything clients create (sessions, PTYs, permission
 * requests, terminal connections, …) is capped per partition, so a client in a loop cannot grow memory without end.
 */
export class SimResourceLimitError extends SimulatorError {
  readonly _tag = 'SimResourceLimitError';
  readonly status = 429;
  /** `holder`: what is full, when not the partition (a session's queue); `hint`: how to make room, when removing does not. */
  constructor(noun: string, max: number, options: { holder?: string; hint?: string } = {}) {
    super({
      message: `Cannot create another ${noun}: ${options.holder ?? 'this partition'} already holds ${max}, its limit`,
      hint:
        options.hint ??
        `Remove ${noun}s you are done with, reset the partition (POST /__sim/reset), or give each test its own partition`,
      max,
    });
  }
}

/**
 * An option the simulator cannot start with (or a handle method cannot take): a value out of range, or a name
 * it does not know (then `problems` has a line per unknown name, with the one it may have meant).
 */
export class SimConfigError extends SimulatorError {
  readonly _tag = 'SimConfigError';
  readonly status = 400;
  constructor(message: string, hint = CONFIG_HINT, problems?: string[]) {
    super({ message, hint, problems });
  }
}

const CONFIG_HINT =
  'Fix the option it names: startSimulator, createApp and createSimulator take SimOptions (docs/types.md), the CLI its flags (--help)';

/**
 * Every SimulatorError class by its `_tag`, for rebuilding a refusal the control API answered (a test holds it
 * to every class this module exports). SimNoWebSocketError is answered as a SimRouteNotFoundError.
 */
export const SIM_ERRORS = {
  SimRouteNotFoundError,
  SimMethodNotAllowedError,
  SimPreferenceError,
  SimInternalError,
  SimScenarioNotFoundError,
  SimControlRequestError,
  SimUpstreamError,
  SimRecordingNotFoundError,
  SimPartitionNameError,
  SimPartitionLimitError,
  SimPartitionNotFoundError,
  SimRuleError,
  SimRuleNotFoundError,
  SimRuleLimitError,
  SimScenarioError,
  SimExchangeNotFoundError,
  SimRequestRefusedError,
  SimStreamLimitError,
  SimAdminTokenError,
  SimRecordingWriteError,
  SimForeignOriginError,
  SimResourceLimitError,
  SimConfigError,
} as const;

/**
 * The handle a test drives the simulator with. It speaks the control API over HTTP, so it works the same on a
 * simulator started in this process (`startSimulator`) and on one started elsewhere, e.g. in vitest's
 * `globalSetup` while the tests run in worker processes (`connectSimulator`). A partition handle is the same
 * shape, scoped by the `/__partition/NAME` prefix.
 */
import { readFileSync } from 'node:fs';
import type { CoverageReport } from '../control/coverage.js';
import type { JournalEntry } from '../control/journal.js';
import type { SimState } from '../control/state-body.js';
import {
  checkOptionNames,
  CONNECT_OPTIONS,
  COVERAGE_OPTIONS,
  type ConnectOptions,
  type CoverageOptions,
} from '../config/options.js';
import type { RuleListing } from '../state/rule-store.js';
import { isScenarioPath } from '../scenarios/scenario-library.js';
import type { Scenario, ScenarioRule } from '../format/scenario-types.js';
import { SimControlRequestError, SimulatorError } from '../errors/sim-errors.js';
import { parseDuration } from '../text/duration.js';
import type { LogEntry } from '../state/log.js';

export { SimulatorError };

/** A scenario as a test names it: a name in the scenarios folder, a path to a .yaml file, or the scenario as an object. */
export type ScenarioInput = string | Scenario;

// Declared with the option names, below the handle.
export type { ConnectOptions, CoverageOptions };

export interface SimulatorHandle {
  /** Base URL of the API; for a partition it carries the `/__partition/NAME` prefix, so a client given it stays inside. */
  readonly url: string;
  readonly port: number;
  /** `default` for the simulator itself. */
  readonly partitionName: string;
  readonly clock: {
    /** Virtual now, in ms since the epoch. */
    now(): Promise<number>;
    /** Moves virtual time on (`5000`, `'30s'`, `'1m30s'`), firing what falls due on the way; resolves to the new now. */
    advance(by: number | string): Promise<number>;
  };
  /** Back to the scenario's start: world, clock, run-time rules (coverage keeps counting). */
  reset(): Promise<void>;
  /** Switches this partition to another scenario (and resets it). */
  useScenario(scenario: ScenarioInput): Promise<void>;
  /**
   * Every resource of the scenario and its state now, the rules and the scheduled transitions. Without a
   * scenario `scenario` is null and no resource is listed.
   */
  state(): Promise<SimState>;
  /** Recent exchanges: operation, who answered, status, `_tag`, rule, what changed. */
  journal(): Promise<JournalEntry[]>;
  /** The domain events (and control actions) of the partition's log, oldest first. */
  events(): Promise<LogEntry[]>;
  readonly rules: {
    /** Adds a rule in the scenario format's `rules` shape; resolves to its id. */
    add(rule: ScenarioRule): Promise<string>;
    list(): Promise<RuleListing[]>;
    remove(id: string): Promise<void>;
    clear(): Promise<void>;
  };
  /** What the requests so far covered; `{ all: true }` merges every partition. */
  coverage(options?: CoverageOptions): Promise<CoverageReport>;
  /** The same handle for another partition (created on first use, from this simulator's scenario). */
  partition(name: string): SimulatorHandle;
  /** For a partition: deletes it. For the simulator started by `startSimulator`: stops it and frees everything. */
  close(): Promise<void>;
}

/**
 * What `clock.advance(by)` was given, in ms; read here, so a mistake is told in the handle's terms rather than
 * as the JSON body the control API would have been sent. How far the clock may still go is the simulator's
 * to say (it knows now).
 */
function advanceMs(by: unknown): number {
  const ms = typeof by === 'number' || typeof by === 'string' ? parseDuration(by) : undefined;
  if (ms !== undefined) return ms;
  const error = new SimControlRequestError(
    `clock.advance(${typeof by === 'string' ? JSON.stringify(by) : String(by)}) is not an amount of time to advance by`,
    "Pass a duration, as in sim.clock.advance('30s') (250ms, 30s, 5m, 1h, 1m30s), or a number of ms, as in sim.clock.advance(5000), not negative",
  );
  // As a refusal answered over HTTP shows its hint (SimulatorError.fromAnswer), so an uncaught one says how to fix it.
  error.message = `${error.message} (${error.hint})`;
  throw error;
}

/**
 * A handle on a simulator already running at `url`. A refusal of the control API rejects with the
 * SimulatorError class of its tag (`SimRuleError`, `SimScenarioError`, …), as it would be thrown in-process.
 */
export function connectSimulator(url: string, options: ConnectOptions = {}): SimulatorHandle {
  checkOptionNames(options, CONNECT_OPTIONS, 'connectSimulator');
  const base = url.replace(/\/+$/, '');
  const name = options.partition ?? 'default';
  const scoped = name === 'default' ? base : `${base}/__partition/${encodeURIComponent(name)}`;
  const port = Number(new URL(base).port);

  const admin: Record<string, string> =
    options.adminToken === undefined ? {} : { 'x-sim-admin-token': options.adminToken };
  const given = options.fetch;
  const send = given ? (url: string, init: RequestInit) => given(new Request(url, init)) : fetch;
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await send(`${scoped}/__sim${path}`, {
      method,
      headers: body === undefined ? admin : { ...admin, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    const parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    if (!res.ok) throw SimulatorError.fromAnswer(res.status, parsed, `${method} ${path} answered ${res.status}`);
    return parsed as T;
  };

  return {
    url: scoped,
    port,
    partitionName: name,
    clock: {
      now: async () => (await call<{ now: number }>('GET', '/clock')).now,
      advance: async (by) => (await call<{ now: number }>('POST', '/clock/advance', { ms: advanceMs(by) })).now,
    },
    reset: async () => {
      await call('POST', '/reset');
    },
    useScenario: async (scenario) => {
      // A file is read here and sent as text: the simulator reads no path it is sent (and may run elsewhere).
      const body =
        typeof scenario !== 'string'
          ? { scenario }
          : isScenarioPath(scenario)
            ? { yaml: readFileSync(scenario, 'utf8'), file: scenario }
            : { name: scenario };
      await call('PUT', '/scenario', body);
    },
    state: () => call('GET', '/state'),
    journal: async () => (await call<{ entries: JournalEntry[] }>('GET', '/journal')).entries,
    events: async () => (await call<{ entries: LogEntry[] }>('GET', '/events')).entries,
    rules: {
      add: async (rule) => (await call<{ id: string }>('POST', '/rules', rule)).id,
      list: async () => (await call<{ rules: RuleListing[] }>('GET', '/rules')).rules,
      remove: async (id) => {
        await call('DELETE', `/rules/${encodeURIComponent(id)}`);
      },
      clear: async () => {
        await call('DELETE', '/rules');
      },
    },
    coverage: async (opts) => {
      checkOptionNames(opts, COVERAGE_OPTIONS, 'coverage');
      return call('GET', opts?.all ? '/coverage?all' : '/coverage');
    },
    partition: (other) =>
      connectSimulator(base, { partition: other, adminToken: options.adminToken, fetch: options.fetch }),
    close: async () => {
      if (options.close) return options.close();
      // A partition handle frees its partition; the simulator itself is stopped by whoever started it.
      if (name !== 'default')
        await send(`${base}/__sim/partitions/${encodeURIComponent(name)}`, { method: 'DELETE', headers: admin });
    },
  };
}

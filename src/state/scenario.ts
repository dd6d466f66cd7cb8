/**
 * A scenario as loaded, the shape a world is made from: its run-time rules and, by declaration merging from
 * each kind (src/kinds/<kind>/types.ts), its sections. Here with the world rather than beside the loader
 * (src/scenarios/), so the world, the engine and the kinds name it without reaching up to what reads files.
 */
import type { ProjectContext } from '../openapi/location.js';
import type { ResourceState, StatefulKind } from './resource-states.js';

export interface RuleDefinition {
  /** Matched by operation: its operationId. Absent for a rule matched by method and path. */
  readonly operation?: string;
  /** Matched by path: the method (upper case; absent: any). A HEAD request matches GET, as routing does. */
  readonly method?: string;
  /** Matched by path: a template (`/api/gateway/{name}`), its `{name}` segments parameters for `params`. */
  readonly path?: string;
  /** Matched by path: a regular expression over the path as sent; its named groups are parameters. */
  readonly pathPattern?: string;
  /** Path parameters that must be equal: the operation's, or those the template or pattern names. */
  readonly params: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, unknown>>;
  readonly body?: Readonly<Record<string, unknown>>;
  readonly after?: number;
  readonly before?: number;
  /** Resource states that must hold: kind → {id, is}. */
  readonly state?: { readonly [K in StatefulKind]?: { readonly id: string; readonly is: ResourceState<K> } };
  /** Meaningless when `drop` or `stream` is set (then 0): neither answers a status of its own. */
  readonly status: number;
  /** The JSON body; absent for a bodiless answer, a text answer, `drop` and `stream`. */
  readonly answer?: unknown;
  /** A text body, sent as is (with `headers`' content type, else text/plain). */
  readonly text?: string;
  /** Headers sent with the answer. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Destroy the connection without an answer, as a crashed server would; only ever `true` when present. */
  readonly drop?: boolean;
  /** Faults of the event stream that whoever answers sends (the rule answers nothing itself). */
  readonly stream?: StreamFault;
  /** Wall-clock milliseconds to wait before answering (or dropping). */
  readonly delay: number;
  readonly times?: number;
  /** The rule may leave the spec; its exchanges are marked so and their answers go unchecked. */
  readonly outsideSpec?: true;
  /** Where the rule is written, for the journal's explanation. */
  readonly where: string;
}

/** How an event stream goes wrong (the scenario format's `$defs/streamFault`), durations in wall milliseconds. */
export interface StreamFault {
  /** Events (data: frames) sent whole before the fault. */
  readonly afterFrames: number;
  /** stall: silence on an open connection; cut: half an event, then the connection closes; drop: it closes. */
  readonly fault?: 'stall' | 'cut' | 'drop';
  /** Wait before each frame. */
  readonly latency: number;
  /** Up to this much more wait before each frame, seeded. */
  readonly jitter: number;
  /** Sent first as the SSE `retry:` field: the client's reconnection delay. */
  readonly retry?: number;
}

/**
 * What the kinds add to a scenario: each its sections, as definitions (src/kinds/<kind>/types.ts adds them
 * here by declaration merging).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by each kind
export interface ScenarioSections {}

/**
 * A scenario as loaded: immutable, every duration resolved to virtual milliseconds since the epoch, every
 * id and timestamp filled in, every record already valid against the spec.
 */
export interface ScenarioDefinition extends ScenarioSections {
  readonly name: string;
  readonly description?: string;
  readonly file: string;
  readonly seed: string;
  readonly start: number;
  /** Its `start` was written in it; without one it starts at DEFAULT_START, or at the wall clock's now in real time. */
  readonly pinnedStart?: boolean;
  /** The scenario as written (JSON), so that it can be read again at another start (`rebaseScenario`). */
  readonly source?: Readonly<Record<string, unknown>>;
  /** The project its partition serves instead of the simulator's own (`--project-dir`); its id is filled in. */
  readonly project?: ProjectContext;
  readonly rules: readonly RuleDefinition[];
}

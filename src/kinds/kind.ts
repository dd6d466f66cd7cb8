/**
 * A resource kind, the unit the simulator grows by: everything one kind of resource needs, in its own
 * folder under src/kinds/, and one line in ./registry.ts. The scenario loader, the world, the engine,
 * coverage, publication and scenario-from loop over the registry; none of them names a kind.
 *
 * A kind adds its fields to the shared shapes by declaration merging, from its own folder:
 * `ScenarioSections` (its definitions), `WorldTables` (its live state), `EventCatalog` (its domain events)
 * and `KindStates` (the states of a stateful kind).
 */
import type { Answer, Exchange } from '../exchange/exchange.js';
import type { ProjectContext } from '../openapi/location.js';
import type { Diagnostic, OperationDefinition } from '../openapi/openapi.js';
import type { QueryCheck } from '../openapi/request-validation.js';
import type { ScenarioDefinition, ScenarioSections } from '../state/scenario.js';
import type { Engine } from '../state/engine.js';
import type { DomainEvent, EventDraft, EventType } from '../state/events.js';
import type { IdFactory, Random } from '../state/random.js';
import type { World, WorldSnapshot, WorldTables } from '../state/world.js';
import type { Applier, Appliers, Schedule } from '../state/engine-kinds.js';
import type { TaggedError } from '../errors/tagged-error.js';
import type { Timeline as RecordedTimeline } from './inference.js';
import type { InferenceSoFar, Inferred, JsonObject } from './inference.js';

export type { JsonObject };
// Declared with the engine, which calls them without knowing the kinds.
export type { Applier, Appliers, Schedule };

/** A place in a scenario being read: keys and indexes from its root (`sessions`, 0, `busy`). */
export type Path = Array<string | number>;

/** What reading a kind's sections of a scenario may use: the scenario's time, its seeded ids, its checks. */
export interface ReadContext {
  readonly start: number;
  readonly random: Random;
  readonly ids: IdFactory;
  /** The project the scenario declares, if it declares one. */
  readonly project?: ProjectContext;
  /** A duration after the scenario's start, as virtual time. */
  after(value: unknown): number;
  /** A duration from the start or a date-time, as virtual time; one Date cannot read is reported. */
  instant(value: unknown, path: Path): number;
  problem(path: Path, message: string, detail?: { atKey?: boolean }): void;
  /** Holds a record the scenario would serve to a component schema of the spec, reporting each problem. */
  checkRecord(component: string, value: unknown, path: Path, label: string, skip?: (d: Diagnostic) => boolean): void;
  /** The ids kinds read before this one declared (a form's session, an attempt's integration). */
  declared(kind: string): ReadonlySet<string>;
}

/** What a handler may read: the world, the virtual time, the project served. */
export interface HandlerContext {
  world: World;
  now: number;
  project: ProjectContext;
}

/** A handler's answer and what it makes happen; nothing changes until the partition commits the events. */
export interface Decision {
  answer: Answer;
  events?: EventDraft[];
}

/**
 * What a handler reads of a request the pipeline accepted (routed and validated): the layers' request
 * (src/layers/layer.ts `AcceptedRequest`) is one, but a kind sees no further than its partition's engine.
 */
export interface HandlerRequest {
  exchange: Exchange;
  operation: OperationDefinition;
  pathParams: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  /** The partition the request was addressed to: a connection that outlives the answer commits to its engine. */
  partition: { readonly engine: Engine };
}

/** Decides, or returns undefined to let the next layer (the request's source) answer. */
export type Handler = (request: HandlerRequest, context: HandlerContext) => Decision | undefined;

export type Handlers = Record<string, Handler>;

/**
 * What a kind's stream operation reads of the partition: its engine, and the published log as the event
 * stream numbers it (a page of an aggregate's events, or a stream of them from a sequence on).
 */
export interface StreamPartition {
  readonly engine: Engine;
  readonly events: {
    readonly durable: { page(aggregate: string, after: number, limit: number): object };
    follow(aggregate: string, after: number): Answer;
  };
}

export interface StreamRequest {
  operation: OperationDefinition;
  pathParams: Record<string, string>;
  query: Record<string, unknown>;
  partition: StreamPartition;
}

/**
 * Answers that wait or stream from the published log rather than decide on the world (a session's history,
 * its event stream, `wait`), by operationId: nothing to commit, and possibly answered later. Undefined lets
 * the next layer answer.
 */
export type Streams = Record<string, (request: StreamRequest) => Answer | undefined | Promise<Answer | undefined>>;

/** What a reshape may read besides the event: where it happened, and the world as the event left it. */
export interface Surroundings {
  directory: string;
  projectID?: string;
  world?: World;
}

/** How a kind's domain events reach the event stream. */
export interface Publication {
  /** Types no client would see from the real server: a public event that follows says it all. */
  internal?: readonly EventType[];
  /**
   * Published types that no real server announces (the simulator's own notes: neither the official client's
   * `V2Event`, the real server's document nor its newer code line has them): kept off the public streams
   * unless asked for (`--sim-events`); the log, and so `/__sim/live` and the journal, always has them.
   */
  simOnly?: readonly string[];
  /** Where the domain event's data is not the client's: the type and data published instead. */
  reshape?: {
    [T in EventType]?: (
      event: Extract<DomainEvent, { type: T }>,
      around: Surroundings,
    ) => { type: string; data: JsonObject };
  };
  /** Announcements that follow an event, derived from the world as it left it (`session.updated` after a turn). */
  follow?: {
    [T in EventType]?: (
      event: Extract<DomainEvent, { type: T }>,
      around: Surroundings,
    ) => Array<{ type: string; data: JsonObject }>;
  };
  /** The durable aggregate a published event belongs to, whose events are numbered (`durable.seq`). */
  aggregate?(type: string, data: JsonObject): string | undefined;
  /** The last sequence number of each aggregate a new world starts with (its history counts as published). */
  sequences?(world: World): Iterable<[string, number]>;
  /**
   * The first `count` durable events of an aggregate a new world's history stands for, numbered from 0 (what
   * a session's event log replays of what happened before the simulator started); undefined if not its own.
   */
  history?(
    world: World,
    aggregate: string,
    count: number,
    around: Surroundings,
  ): Array<{ type: string; data: JsonObject; time: number }> | undefined;
}

/** What a recording shows of a kind (`Kind.infer`). */
export type Infer = (recording: RecordedTimeline, inference: InferenceSoFar) => Inferred;

/**
 * `Section` is the type of the sections its format declares (`./section.generated.ts` in its folder, which
 * `npm run types` writes from the format), so that `read()` takes them as the format checked them; the format
 * must declare every section the type names. `Reads` is what `read()` also reads of other kinds' sections
 * (a question's sessions), as `Scenario` types them.
 */
export type Kind<Section extends object = JsonObject, Reads = unknown> = KindParts<Section, Reads> &
  (Stateful | Stateless);

/**
 * What a stateful kind says of its resources' states, all of it or none: rules' `when.state`, coverage and
 * the state snapshot each read a part, and a kind that gave only some would leave one of them blind.
 */
export interface Stateful {
  /** How a rule's `when.state` names a resource of a stateful kind: its id's pattern, and what it is. */
  readonly condition: { readonly description: string; readonly pattern: string };
  /** A stateful kind's states and the transitions between them (coverage counts which of them happened). */
  readonly states: readonly string[];
  readonly transitions: ReadonlyArray<readonly [string, string]>;
  /** What the scenario's lifecycles can make happen, resource by resource. */
  possible(scenario: ScenarioDefinition): Array<{ id: string; from: string; to: string }>;
  /** A resource's state now, for rules' `when.state`. */
  stateOf(world: World, id: string): string | undefined;
}

/** A kind whose resources have no states. */
export type Stateless = { readonly [K in keyof Stateful]?: never };

/** What every kind may say, stateful or not. */
export interface KindParts<Section extends object = JsonObject, Reads = unknown> {
  /** How timers, rules' `when.state`, coverage and the state snapshot name it: `shell`. */
  readonly name: string;
  /** Its part of the scenario format (JSON Schema): properties of a scenario, and definitions they refer to. */
  readonly format?: {
    readonly properties: { readonly [K in keyof Section]-?: object };
    readonly defs?: Readonly<Record<string, object>>;
  };
  /**
   * Its sections of a scenario the format has checked, as definitions (plain JSON data: they are cached).
   * The scenario loader holds every kind as a `Kind` of plain `JsonObject` and passes it the whole checked scenario.
   */
  read?(source: Section & Reads, context: ReadContext): Partial<ScenarioSections>;
  /** The ids of its resources a scenario declares (what rules' `when.state` and other kinds may name). */
  ids?(scenario: ScenarioDefinition): Iterable<string>;
  /** Its part of a new world, as the scenario has it at its start. */
  seed?(scenario: ScenarioDefinition): Partial<WorldTables>;
  /** Its resources and their state now, for `GET /__sim/state`: its part of `WorldSnapshot`. */
  snapshot?(world: World): Partial<WorldSnapshot>;
  /** Its bounds on what clients create, per partition, by name (`ptyTicket`): the catalog's `limits`. */
  readonly limits?: Readonly<Record<string, number>>;
  /** The operations it answers, by operationId (none of them another kind's: the registry refuses to load). */
  readonly handlers: Handlers;
  /** Its operations answered from the published log (`StreamRequest`) instead of by a handler. */
  readonly streams?: Streams;
  /** Its operations that answer an event stream (server-sent events), which a rule's stream faults may cut. */
  readonly eventStreams?: readonly string[];
  /** Rules of its operations' queries that JSON Schema cannot express, by operationId. */
  readonly queryChecks?: Readonly<Record<string, QueryCheck>>;
  /** Operations it serves as a WebSocket whose handshake a connect ticket opens in place of credentials. */
  readonly ticketed?: readonly string[];
  readonly appliers?: Appliers;
  readonly schedule?: Schedule;
  readonly publication?: Publication;
  /** Its not-found error, for a malformed id in the path parameter that names its resources (`sessionID`). */
  readonly notFound?: { readonly param: string; readonly error: (id: string) => TaggedError };
  /** Its own error for bad input, for the operations that declare it (`tag`) instead of InvalidRequestError. */
  readonly badInput?: {
    readonly tag: string;
    readonly error: (message: string, path: Record<string, string>) => TaggedError;
  };
  /**
   * scenario-from: what a recording shows of this kind, as parts by section, appended to the draft scenario.
   * It reads the draft as inferred so far (the project, the kinds before it in the registry) and may add to
   * their sections what its own parts name but they did not declare (a form's session). Loaded when asked
   * for: only scenario-from needs it, and a simulator that serves requests starts without it.
   */
  infer?(): Promise<Infer>;
}

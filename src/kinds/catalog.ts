/**
 * The kinds gathered into the tables the stages dispatch through: one handler per operationId, one applier
 * per event type, one timeline per kind, publication per event type, the stateful kinds' states. Built once,
 * so a request or an event looks its kind up instead of asking every kind.
 */
import type { KindInputErrors } from '../openapi/input-errors.js';
import type { DomainEvent, EventType, Transition } from '../state/events.js';
import type { World, WorldSnapshot } from '../state/world.js';
import type {
  Appliers,
  Handlers,
  JsonObject,
  Kind,
  Publication,
  Schedule,
  Stateful,
  Streams,
  Surroundings,
} from './kind.js';
import type { QueryCheck } from '../openapi/request-validation.js';

type Reshape = (event: DomainEvent, around: Surroundings) => { type: string; data: JsonObject };
type Follow = (event: DomainEvent, around: Surroundings) => Array<{ type: string; data: JsonObject }>;

export interface KindCatalog {
  readonly list: readonly Kind[];
  readonly handlers: Handlers;
  /** Every kind's stream operations, by operationId. */
  readonly streams: Streams;
  /** The kinds' operations that answer an event stream (`Kind.eventStreams`). */
  readonly eventStreams: ReadonlySet<string>;
  /** Every kind's query rules beyond the schema, by operationId (`Kind.queryChecks`). */
  readonly queryChecks: Readonly<Record<string, QueryCheck>>;
  /** Every kind's bounds on what clients create, by name: what SECURITY.md's table is held to. */
  readonly limits: Readonly<Record<string, number>>;
  /** The WebSocket operations a connect ticket opens without credentials (auth lets their handshake through). */
  readonly ticketed: ReadonlySet<string>;
  readonly appliers: Appliers;
  /** Timelines by kind name (timers are keyed `kind:id`). */
  readonly schedules: ReadonlyMap<string, Schedule>;
  readonly seeds: ReadonlyArray<NonNullable<Kind['seed']>>;
  /** The kinds whose resources have states that rules and coverage speak of. */
  readonly stateful: ReadonlyArray<Kind & Stateful>;
  /** Domain events no client sees. */
  readonly internal: ReadonlySet<EventType>;
  /** Published types no real server announces (the simulator's own): on the public streams only with `--sim-events`. */
  readonly simOnly: ReadonlySet<string>;
  readonly reshape: ReadonlyMap<string, Reshape>;
  readonly follow: ReadonlyMap<string, Follow>;
  /** The durable aggregate a published event belongs to, if any kind says it has one. */
  aggregate(type: string, data: JsonObject): string | undefined;
  /** Sequence numbers per aggregate that a new world starts with. */
  sequences(world: World): Array<[string, number]>;
  /** The durable events a new world's history stands for, per aggregate. */
  history(
    world: World,
    aggregate: string,
    count: number,
    around: Surroundings,
  ): Array<{ type: string; data: JsonObject; time: number }>;
  /** A resource's state now; undefined for a kind without states or an id the world does not have. */
  stateOf(world: World, kind: string, id: string): string | undefined;
  /** Every resource and its state now, kind by kind. */
  snapshot(world: World): WorldSnapshot;
  /** What each stateful kind's resources in the scenario can do, as transitions. */
  possible(scenario: World['scenario']): Transition[];
  /** The errors request validation answers for input that names a kind (`Kind.notFound`, `Kind.badInput`). */
  readonly inputErrors: KindInputErrors;
}

export function catalogOf(list: readonly Kind[]): KindCatalog {
  const byName = new Map(list.map((k) => [k.name, k]));
  const publications = list.flatMap((k) => (k.publication ? [k.publication] : []));
  const merged = <T>(pick: (p: Publication) => object | undefined) =>
    new Map(publications.flatMap((p) => Object.entries(pick(p) ?? {}))) as Map<string, T>;
  return {
    list,
    handlers: claimed(list, 'operation', (k) => k.handlers) as Handlers,
    // A stream operation is an operation too: one a kind handles and another streams is claimed twice.
    streams: claimed(
      list,
      'operation',
      (k) => ({ ...k.handlers, ...k.streams }),
      (k) => k.streams,
    ) as Streams,
    eventStreams: new Set(list.flatMap((k) => k.eventStreams ?? [])),
    queryChecks: claimed(list, 'query check of the operation', (k) => k.queryChecks) as Record<string, QueryCheck>,
    limits: Object.assign({}, ...list.map((k) => k.limits ?? {})) as Record<string, number>,
    ticketed: new Set(list.flatMap((k) => k.ticketed ?? [])),
    appliers: claimed(list, 'event type', (k) => k.appliers) as Appliers,
    schedules: new Map(list.flatMap((k) => (k.schedule ? [[k.name, k.schedule] as const] : []))),
    seeds: list.flatMap((k) => (k.seed ? [k.seed] : [])),
    stateful: list.filter((k): k is Kind & Stateful => k.states !== undefined),
    internal: new Set(publications.flatMap((p) => p.internal ?? [])),
    simOnly: new Set(publications.flatMap((p) => p.simOnly ?? [])),
    reshape: merged<Reshape>((p) => p.reshape),
    follow: followers(publications),
    aggregate(type, data) {
      for (const p of publications) {
        const found = p.aggregate?.(type, data);
        if (found !== undefined) return found;
      }
      return undefined;
    },
    sequences: (world) => publications.flatMap((p) => [...(p.sequences?.(world) ?? [])]),
    history(world, aggregate, count, around) {
      for (const p of publications) {
        const found = p.history?.(world, aggregate, count, around);
        if (found) return found;
      }
      return [];
    },
    stateOf: (world, kind, id) => byName.get(kind)?.stateOf?.(world, id),
    snapshot: (world) =>
      // Every kind returns its part of WorldSnapshot (its declaration merging says which part is its).
      Object.assign({ scenario: world.scenario.name }, ...list.map((k) => k.snapshot?.(world) ?? {})) as WorldSnapshot,
    possible: (scenario) =>
      list.flatMap((k) => (k.possible?.(scenario) ?? []).map((t) => ({ ...t, kind: k.name }) as Transition)),
    inputErrors: {
      notFound: Object.fromEntries(list.flatMap((k) => (k.notFound ? [[k.notFound.param, k.notFound.error]] : []))),
      badInput: Object.fromEntries(list.flatMap((k) => (k.badInput ? [[k.badInput.tag, k.badInput.error]] : []))),
    },
  };
}

/** One table from every kind's; two kinds claiming one key would have one silently shadow the other, so it throws. */
function claimed(
  list: readonly Kind[],
  what: string,
  pick: (k: Kind) => object | undefined,
  keep: (k: Kind) => object | undefined = pick,
): Record<string, unknown> {
  const owner = new Map<string, string>();
  const table: Record<string, unknown> = {};
  for (const kind of list) {
    for (const key of Object.keys(pick(kind) ?? {})) {
      const first = owner.get(key);
      if (first !== undefined) throw new Error(`Kinds ${first} and ${kind.name} both claim the ${what} ${key}`);
      owner.set(key, kind.name);
    }
    Object.assign(table, keep(kind) ?? {});
  }
  return table;
}

/** What follows an event, from every kind that says so (an integration change reloads the model catalogue too). */
function followers(publications: readonly Publication[]): Map<string, Follow> {
  const byType = new Map<string, Follow[]>();
  for (const [type, follow] of publications.flatMap((p) => Object.entries(p.follow ?? {}))) {
    byType.set(type, [...(byType.get(type) ?? []), follow as Follow]);
  }
  return new Map(
    [...byType].map(([type, list]): [string, Follow] => [
      type,
      list.length === 1 ? (list[0] as Follow) : (event, around) => list.flatMap((f) => f(event, around)),
    ]),
  );
}

/**
 * What the engine calls of the kinds: the appliers that change the world, the schedules that change it on
 * the clock, and the seeds and states it reads. The catalog of kinds (src/kinds/catalog.ts) is one; the
 * engine names only this, so the state core sits below the kinds that build on it.
 */
import type { DomainEvent, EventDraft, EventType, Transition } from './events.js';
import type { World, WorldSeeds, WorldSnapshot } from './world.js';

/** Applies one event to the world; returns the resource state change it made, if it made one. */
export type Applier<T extends EventType = EventType> = (
  world: World,
  event: Extract<DomainEvent, { type: T }>,
) => Transition | undefined | void;

export type Appliers = { [T in EventType]?: Applier<T> };

/** When a resource of one kind changes by itself on the clock, and what happens then. */
export interface Schedule {
  ids(world: World): Iterable<string>;
  /** The next instant (after `now`) at which `fire` would change this resource; undefined if none. */
  next(world: World, id: string, now: number): number | undefined;
  fire(world: World, id: string, now: number): EventDraft[];
  /**
   * The one resource of this kind an event of this kind changes, when the kind can tell (a session's events
   * name their session): a commit then works out that resource's next instant alone. Without it, an event
   * of this kind has every timer of the kind worked out again. Either way `next` must read only the kind's
   * own resources, which only its own appliers change (src/state/engine.ts relies on it).
   */
  touches?(event: DomainEvent): string | undefined;
}

/** The part of the catalog of kinds the engine dispatches through. */
export interface EngineKinds extends WorldSeeds {
  /** Each kind's name and appliers: an event's kind is the one whose applier applies it. */
  readonly list: ReadonlyArray<{ readonly name: string; readonly appliers?: Appliers }>;
  readonly appliers: Appliers;
  /** Schedules by kind name (timers are keyed `kind:id`). */
  readonly schedules: ReadonlyMap<string, Schedule>;
  /** A resource's state now; undefined for a kind without states or an id the world does not have. */
  stateOf(world: World, kind: string, id: string): string | undefined;
  /** Every resource and its state now, kind by kind. */
  snapshot(world: World): WorldSnapshot;
}

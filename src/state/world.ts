/**
 * The live state of a partition's scenario: one table per kind of resource (sessions, forms, shells, …), each
 * added by its kind (src/kinds/<kind>/types.ts) and seeded by it. Every resource's state is stored, not
 * computed on demand: it changes only when a domain event is applied (a request decided it, or a timer fell
 * due), so each change has an instant and a cause that the log records.
 */
import type { ScenarioDefinition } from './scenario.js';
import { createIds, createRandom, type IdFactory } from './random.js';

/** What the kinds keep of the world, each its own tables (declaration merging). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by each kind
export interface WorldTables {}

/**
 * Every resource and its state now, as `GET /__sim/state` and a handle's `state()` show it: each kind adds
 * its part here (declaration merging) and its `snapshot` must return exactly that, so the handle's type and
 * what the simulator sends have one source.
 */
export interface WorldSnapshot {
  /** The scenario's name. */
  scenario: string;
}

export type World = WorldTables & {
  readonly scenario: ScenarioDefinition;
  readonly ids: IdFactory;
};

/** What makes a world: each kind's part of it, as the scenario has it at its start. */
export interface WorldSeeds {
  readonly seeds: ReadonlyArray<(scenario: ScenarioDefinition) => Partial<WorldTables>>;
}

/**
 * The world as it stands at the scenario's start: what is due by then is already so (a form that appears at
 * 0 s is pending), what is due later is left to the partition's timers.
 */
export function createWorld(scenario: ScenarioDefinition, kinds: WorldSeeds): World {
  // Ids made while serving requests come from their own stream, so they do not depend on how many ids
  // loading the scenario used.
  const ids = createIds(createRandom(`${scenario.seed}:live`));
  return Object.assign({ scenario, ids }, ...kinds.seeds.map((seed) => seed(scenario))) as World;
}

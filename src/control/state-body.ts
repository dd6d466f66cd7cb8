/**
 * The body of `GET /__sim/state`, which a handle's `state()` returns: the partition's clock, every resource of
 * its world and its state (each kind's part of `WorldSnapshot`), its rules and its timers. Typed here once,
 * for the route that sends it and the handle that reads it.
 */
import type { RuleListing } from '../state/rule-store.js';
import type { WorldSnapshot } from '../state/world.js';

/** The kinds' parts of the world snapshot, with them in the published declarations. */
export type * as kinds from '../kinds/all-types.js';

/** A partition's virtual time, as `GET /__sim/clock` answers it. */
export interface ClockState {
  partition: string;
  /** Virtual now, in ms since the epoch. */
  now: number;
  /** The same instant as ISO 8601 text. */
  iso: string;
  realTime: boolean;
}

/** Without a scenario (the spec's examples answer, or a real server does) there is no world to show. */
type NoWorld = { scenario: null } & { [K in Exclude<keyof WorldSnapshot, 'scenario'>]?: undefined };

/**
 * `scenario` tells the two apart: with a scenario's name every kind's resources are there
 * (`state.sessions`, `state.forms`, …), with `null` none is.
 */
export type SimState = ClockState & {
  rules: RuleListing[];
  /** What falls due next, soonest first: `kind:id` and its virtual instant. */
  timers: Array<{ key: string; at: number }>;
} & (WorldSnapshot | NoWorld);

export function stateBody(
  clock: ClockState,
  world: WorldSnapshot | undefined,
  rules: RuleListing[],
  timers: SimState['timers'],
): SimState {
  if (!world) return { scenario: null, ...clock, rules, timers };
  // `scenario` first, as the answer has always begun.
  const { scenario, ...resources } = world;
  return { scenario, ...clock, ...resources, rules, timers };
}

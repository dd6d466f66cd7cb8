/**
 * The engine of a partition: its world, its clock and its log, and the one way the world changes. A
 * decision (a handler answering a request, a timeline whose time has come) yields event drafts; `commit`
 * stamps each with its instant and cause, applies it to the world through the resource appliers, appends it
 * to the log, and reschedules the timers of what may now change next. Nothing else writes world state.
 */
import type { KindCatalog } from '../kinds/catalog.js';
import type { ScenarioDefinition } from '../scenarios/definition.js';
import { createClock, DEFAULT_START, wallClock, type Clock } from './clock.js';
import type { DomainEvent, EventCause, EventDraft } from './events.js';
import { createEventLog, type ControlAction, type EventLog } from './log.js';
import { createIds, createRandom, type IdFactory } from './random.js';
import { createWorld, type World, type WorldSnapshot } from './world.js';

export interface Engine {
  readonly clock: Clock;
  readonly log: EventLog;
  /** The scenario being served, if any (without one the spec's examples answer and the world is empty). */
  readonly scenario: ScenarioDefinition | undefined;
  readonly world: World | undefined;
  commit(drafts: readonly EventDraft[], cause: EventCause): DomainEvent[];
  /** A resource's state now, by kind and id; undefined without a world, or for an id it does not have. */
  stateOf(kind: string, id: string): string | undefined;
  /** Every resource and its state now (`GET /__sim/state`); undefined without a world. */
  snapshot(): WorldSnapshot | undefined;
  /** Advances the clock, firing what falls due on the way; logged as a control action. */
  advance(ms: number): number;
  /**
   * Switches to a scenario (or none) and starts it afresh: new world, clock at its start, no timers. Logged
   * as a `scenario` action, or as `why` says (a hot reload is a switch to the file's new version).
   */
  use(definition: ScenarioDefinition | undefined, why?: { action: ControlAction; detail: string }): void;
  /** The current scenario from its start again. */
  reset(): void;
  /** Notes a control action in the log (the readers clear or count on it). */
  note(action: ControlAction, detail?: string): void;
  dispose(): void;
}

export interface EngineOptions {
  kinds: KindCatalog;
  definition?: ScenarioDefinition;
  realTime?: boolean;
  /** Seeds event ids when no scenario gives a seed. */
  seed: string;
  /**
   * In real time, the scenario as if it began at `at` (src/scenarios/load-scenario.ts rebaseScenario): each
   * world then starts at the wall clock's now. Without it a world starts at the scenario's own start.
   */
  rebase?: (definition: ScenarioDefinition, at: number) => ScenarioDefinition;
  logCapacity?: number;
}

export function createEngine(options: EngineOptions): Engine {
  const { kinds } = options;
  /** The scenario chosen, as loaded; `scenario` is what is served, which in real time begins at a world's start. */
  let chosen = options.definition;
  let scenario = chosen;
  let world: World | undefined;
  let eventIds: IdFactory;
  const log = createEventLog(options.logCapacity);
  const clock: Clock = createClock({
    start: scenario?.start ?? DEFAULT_START,
    realTime: options.realTime,
    onDue: (key) => {
      if (!world) return;
      const split = key.indexOf(':');
      const timeline = kinds.timelines.get(key.slice(0, split));
      const drafts = timeline?.fire(world, key.slice(split + 1), clock.now()) ?? [];
      // A timer whose resource needs nothing still gets its next instant, so the timeline keeps going.
      if (drafts.length) engine.commit(drafts, { timer: key });
      else reschedule();
    },
  });

  /** Every stateful resource's next instant of change, as a timer keyed by kind and id. */
  const reschedule = () => {
    if (!world) return;
    const now = clock.now();
    const live = new Set<string>();
    for (const [kind, timeline] of kinds.timelines) {
      for (const id of timeline.ids(world)) {
        const key = `${kind}:${id}`;
        live.add(key);
        clock.schedule(key, timeline.next(world, id, now));
      }
    }
    // A resource gone from its table takes its timer along, so creating and removing never piles timers up.
    for (const { key } of clock.timers()) if (!live.has(key)) clock.schedule(key, undefined);
  };

  const start = () => {
    // A clock that follows the wall clock starts at its now, and the world with it: an instant "2 min before
    // the start" is then two minutes ago, as a frontend showing ages must read it.
    const now = clock.realTime ? wallClock() : undefined;
    scenario = chosen && now !== undefined && options.rebase ? options.rebase(chosen, now) : chosen;
    world = scenario ? createWorld(scenario, kinds) : undefined;
    eventIds = createIds(createRandom(`${scenario?.seed ?? options.seed}:events`));
    clock.reset(scenario?.start ?? now ?? DEFAULT_START, now);
    reschedule();
  };

  const engine: Engine = {
    clock,
    log,
    get scenario() {
      return scenario;
    },
    get world() {
      return world;
    },
    stateOf: (kind, id) => (world ? kinds.stateOf(world, kind, id) : undefined),
    snapshot: () => (world ? kinds.snapshot(world) : undefined),
    commit(drafts, cause) {
      if (!world || drafts.length === 0) return [];
      const committed: DomainEvent[] = [];
      for (const draft of drafts) {
        const time = clock.now();
        const event = {
          ...draft,
          kind: 'event',
          seq: 0,
          id: eventIds.ascending('evt_', time),
          time,
          cause,
        } as DomainEvent;
        const apply = kinds.appliers[event.type] as
          ((w: World, e: DomainEvent) => DomainEvent['transition'] | void) | undefined;
        const transition = apply?.(world, event);
        if (transition) event.transition = transition;
        committed.push(log.append<DomainEvent>(event));
      }
      reschedule();
      return committed;
    },
    advance(ms) {
      const now = clock.advance(ms);
      engine.note('advance', `${ms} ms`);
      return now;
    },
    use(definition, why) {
      chosen = definition;
      start();
      engine.note(why?.action ?? 'scenario', why?.detail ?? definition?.name ?? 'none');
    },
    reset() {
      start();
      engine.note('reset', scenario?.name ?? 'none');
    },
    note(action, detail) {
      log.append({ kind: 'control', time: clock.now(), action, ...(detail === undefined ? {} : { detail }) });
    },
    dispose() {
      clock.dispose();
    },
  };
  start();
  return engine;
}

/**
 * The engine of a partition: its world, its clock and its log, and the one way the world changes. A
 * decision (a handler answering a request, a schedule whose time has come) yields event drafts; `commit`
 * stamps each with its instant and cause, applies it to the world through the resource appliers, appends it
 * to the log, and reschedules the timers of what may now change next. Nothing else writes world state.
 *
 * Rescheduling costs what the events touched, not what the world holds: an event can move only the timers of
 * the kind whose applier applies it (a kind's `next` reads its own resources alone), and of that kind only
 * its resource's timer when the kind can tell which (`Schedule.touches`, e.g. a session's events). So playing
 * a turn's thousand events costs the same beside ten sessions or ten thousand.
 */
import type { ScenarioDefinition } from './scenario.js';
import { createClock, DEFAULT_START, wallClock, type Clock } from './clock.js';
import type { EngineKinds, Schedule } from './engine-kinds.js';
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
   * Advances as `advance` does, letting the event loop serve others between slices of the work (the control
   * API's advance, which may play thousands of turns); advances in slices run one after another.
   */
  advanceInSlices(ms: number): Promise<number>;
  /**
   * Set while an advance in slices is under way, settled when it and those queued behind it are done: the
   * world is then between two instants, so a request to this partition waits for it (src/pipeline/pipeline.ts).
   */
  readonly advancing: Promise<unknown> | undefined;
  /**
   * Switches to a scenario (or none) and starts it afresh: new world, clock at its start, no timers. Logged
   * as a `scenario` action, or as `why` says (a hot reload is a switch to the file's new version).
   */
  useScenario(definition: ScenarioDefinition | undefined, why?: { action: ControlAction; detail: string }): void;
  /** The current scenario from its start again. */
  reset(): void;
  /** Notes a control action in the log (the readers clear or count on it). */
  note(action: ControlAction, detail?: string): void;
  dispose(): void;
}

export interface EngineOptions {
  kinds: EngineKinds;
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
      const kind = key.slice(0, split);
      const id = key.slice(split + 1);
      const drafts = kinds.schedules.get(kind)?.fire(world, id, clock.now()) ?? [];
      // The timer that fired is gone: its resource gets its next instant whatever it did, so the schedule keeps going.
      apply(drafts, { timer: key }, { kind, id });
    },
  });

  /** Which kind applies each event type: committing it can move that kind's timers only. */
  const owners = new Map<string, string>();
  for (const kind of kinds.list) for (const type of Object.keys(kind.appliers ?? {})) owners.set(type, kind.name);
  /** The keys with a timer, by kind: what a kind's rescan cancels once their resource is gone or done. */
  const keyed = new Map<string, Set<string>>();

  /** Every timer of a kind worked out again, from its table: `ids` says which resources still have one. */
  const rescan = (kind: string, schedule: Schedule, now: number) => {
    if (!world) return;
    const before = keyed.get(kind);
    const live = new Set<string>();
    for (const id of schedule.ids(world)) {
      const key = `${kind}:${id}`;
      const at = schedule.next(world, id, now);
      clock.schedule(key, at);
      if (at !== undefined) live.add(key);
    }
    // A resource gone from its table takes its timer along, so creating and removing never piles timers up.
    if (before) for (const key of before) if (!live.has(key)) clock.schedule(key, undefined);
    keyed.set(kind, live);
  };

  /** One resource's timer worked out again (a kind with `touches` answers `next` for any id, gone ones too). */
  const refresh = (kind: string, schedule: Schedule, id: string, now: number) => {
    if (!world) return;
    const key = `${kind}:${id}`;
    const at = schedule.next(world, id, now);
    clock.schedule(key, at);
    let keys = keyed.get(kind);
    if (!keys) keyed.set(kind, (keys = new Set()));
    if (at === undefined) keys.delete(key);
    else keys.add(key);
  };

  /**
   * The timers the events may have moved, and the one that fired (if a timer made them): a kind's whole table
   * when it cannot tell which of its resources an event changed, else just the resources named. Kinds go in
   * the registry's order, so timers set at the same instant keep a fixed order.
   */
  const reschedule = (events: readonly DomainEvent[], fired?: { kind: string; id: string }) => {
    if (!world) return;
    let whole: Set<string> | undefined;
    let named: Map<string, Set<string>> | undefined;
    const note = (kind: string, id: string | undefined) => {
      if (id === undefined) {
        (whole ??= new Set()).add(kind);
        return;
      }
      named ??= new Map();
      const ids = named.get(kind);
      if (ids) ids.add(id);
      else named.set(kind, new Set([id]));
    };
    for (const event of events) {
      const kind = owners.get(event.type);
      const schedule = kind === undefined ? undefined : kinds.schedules.get(kind);
      if (kind !== undefined && schedule) note(kind, schedule.touches?.(event));
    }
    if (fired) note(fired.kind, kinds.schedules.get(fired.kind)?.touches ? fired.id : undefined);
    if (!whole && !named) return;
    const now = clock.now();
    for (const [kind, schedule] of kinds.schedules) {
      if (whole?.has(kind)) rescan(kind, schedule, now);
      else for (const id of named?.get(kind) ?? []) refresh(kind, schedule, id, now);
    }
  };

  /** Every timer from scratch: a new world. */
  const rescheduleAll = () => {
    keyed.clear();
    const now = clock.now();
    for (const [kind, schedule] of kinds.schedules) rescan(kind, schedule, now);
  };

  /** Commits the drafts (if any) and reschedules what they touched, and the timer that fired for them. */
  const apply = (drafts: readonly EventDraft[], cause: EventCause, fired?: { kind: string; id: string }) => {
    if (!world) return [];
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
      const applier = kinds.appliers[event.type] as
        ((w: World, e: DomainEvent) => DomainEvent['transition'] | void) | undefined;
      const transition = applier?.(world, event);
      if (transition) event.transition = transition;
      committed.push(log.append<DomainEvent>(event));
    }
    reschedule(committed, fired);
    return committed;
  };

  let advancing: Promise<unknown> | undefined;

  const start = () => {
    // A clock that follows the wall clock starts at its now, and the world with it: an instant "2 min before
    // the start" is then two minutes ago, as a frontend showing ages must read it.
    const now = clock.realTime ? wallClock() : undefined;
    scenario = chosen && now !== undefined && options.rebase ? options.rebase(chosen, now) : chosen;
    world = scenario ? createWorld(scenario, kinds) : undefined;
    eventIds = createIds(createRandom(`${scenario?.seed ?? options.seed}:events`));
    clock.reset(scenario?.start ?? now ?? DEFAULT_START, now);
    rescheduleAll();
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
      return drafts.length === 0 ? [] : apply(drafts, cause);
    },
    advance(ms) {
      const now = clock.advance(ms);
      engine.note('advance', `${ms} ms`);
      return now;
    },
    advanceInSlices(ms) {
      const run = clock.advanceInSlices(ms).then((now) => {
        engine.note('advance', `${ms} ms`);
        return now;
      });
      // Cleared by the last one queued, so a request arriving between two advances waits for both.
      const mark = run.then(
        () => {
          if (advancing === mark) advancing = undefined;
        },
        () => {
          if (advancing === mark) advancing = undefined;
        },
      );
      advancing = mark;
      return run;
    },
    get advancing() {
      return advancing;
    },
    useScenario(definition, why) {
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

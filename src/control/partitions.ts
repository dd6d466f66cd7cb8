/**
 * Partitions: isolated copies of the simulated world, so parallel test workers sharing one simulator never
 * meet. Each has its own engine (world, clock with timers, log), run-time rules and replay cursors, and the
 * readers of its log (journal, coverage, event stream) that the composition root attaches; a request picks one by `X-Sim-Partition: NAME` or a `/__partition/NAME/` path prefix, and
 * requests naming none use `default`. A partition is created from the default partition's current scenario
 * on first use; their number is capped because each holds a world.
 */
import { SimPartitionLimitError, SimPartitionNameError, SimPartitionNotFoundError } from '../errors/errors.js';
import type { KindCatalog } from '../kinds/catalog.js';
import type { ScenarioDefinition } from '../state/scenario.js';
import type { ProjectContext } from '../openapi/location.js';
import type { Coverage } from './coverage.js';
import type { Journal } from './journal.js';
import type { EventStream } from '../stream/event-stream.js';
import type { StreamQuota } from '../stream/stream-quota.js';
import { createEngine, type Engine } from '../state/engine.js';
import type { ControlAction } from '../state/log.js';
import { createRuleStore, type RuleStore } from '../state/rule-store.js';

export const DEFAULT_PARTITION = 'default';
export const DEFAULT_MAX_PARTITIONS = 256;
const NAME = /^[A-Za-z0-9._-]{1,64}$/;

/** A partition has an engine (its world, clock and log) and what it counts of its own beside it. */
export interface Partition {
  readonly name: string;
  readonly engine: Engine;
  readonly journal: Journal;
  readonly coverage: Coverage;
  readonly rules: RuleStore;
  /** The API's event stream (`GET /api/event`) as this partition publishes it. */
  readonly events: EventStream;
  /** Replay: how many times each recorded request has been answered here, so a poll sequence replays in order. */
  readonly replayCursors: Map<string, number>;
  /**
   * The project served now: the scenario's `project`, else the simulator's. Asked afresh each time, so a switch,
   * a reset or a hot reload changes it with the world.
   */
  project(): ProjectContext;
  /** `req_000001`, counted per partition so a worker's ids do not depend on what other workers send. */
  nextRequestId(): string;
  /** Back to the scenario's start: world, clock, run-time rules, replay cursors (coverage keeps counting). */
  reset(): void;
  /** Switches to another scenario (or none) and resets. */
  useScenario(definition: ScenarioDefinition | undefined, why?: { action: ControlAction; detail: string }): void;
  dispose(): void;
}

export interface Partitions {
  readonly default: Partition;
  /** The partition of that name, created on first use. */
  get(name: string): Partition;
  find(name: string): Partition | undefined;
  list(): Partition[];
  /** Removes a partition; the default one is reset instead, as it always exists. */
  delete(name: string): void;
  /** The caps on long-lived streams, over all partitions: API event subscribers and inspector pages. */
  readonly streams: { readonly subscribers: StreamQuota; readonly live: StreamQuota };
  /** Ends every open stream cleanly (a shutdown: what is queued still goes out, recordings are written). */
  endStreams(): void;
  dispose(): void;
}

/** What reads a partition's log: attached to each partition as it is created. */
export interface PartitionReaders {
  readonly journal: Journal;
  readonly coverage: Coverage;
  readonly events: EventStream;
}

export interface PartitionsOptions {
  kinds: KindCatalog;
  seed: string;
  realTime: boolean;
  /** A scenario as if it began at `at`: in real time each world starts at the wall clock's now (engine.ts). */
  rebase?: (definition: ScenarioDefinition, at: number) => ScenarioDefinition;
  initial: ScenarioDefinition | undefined;
  max?: number;
  /** The simulator's project, served by every partition whose scenario declares none. */
  project: ProjectContext;
  /** The caps on long-lived streams, over all partitions: API event subscribers and inspector pages. */
  streams: { readonly subscribers: StreamQuota; readonly live: StreamQuota };
  /** The readers of a new partition's log; `project` is the project it serves now, `name` the partition's. */
  readers(engine: Engine, project: () => ProjectContext, name: string): PartitionReaders;
}

export function createPartitions(options: PartitionsOptions): Partitions {
  const max = options.max ?? DEFAULT_MAX_PARTITIONS;
  const partitions = new Map<string, Partition>();
  const { streams } = options;

  const create = (name: string, definition: ScenarioDefinition | undefined): Partition => {
    const engine = createEngine({
      kinds: options.kinds,
      definition,
      realTime: options.realTime,
      rebase: options.rebase,
      seed: options.seed,
    });
    const rules = createRuleStore();
    const replayCursors = new Map<string, number>();
    let requests = 0;
    // Whatever a partition counted of its own goes with a reset: rules and their uses, replay positions, request ids.
    const forget = () => {
      rules.reset();
      replayCursors.clear();
      // Request ids start again at req_000001 (the log lets go of the old exchanges' details as the world resets).
      requests = 0;
    };
    const project = () => engine.scenario?.project ?? options.project;
    const readers = options.readers(engine, project, name);
    return {
      name,
      engine,
      ...readers,
      rules,
      replayCursors,
      project,
      nextRequestId: () => `req_${String(++requests).padStart(6, '0')}`,
      reset() {
        forget();
        engine.reset();
      },
      useScenario(next, why) {
        forget();
        engine.useScenario(next, why);
      },
      dispose() {
        readers.events.dispose();
        engine.dispose();
      },
    };
  };

  const defaultPartition = create(DEFAULT_PARTITION, options.initial);
  partitions.set(DEFAULT_PARTITION, defaultPartition);

  return {
    default: defaultPartition,
    get(name) {
      const found = partitions.get(name);
      if (found) return found;
      if (!NAME.test(name)) throw new SimPartitionNameError(name);
      if (partitions.size >= max) throw new SimPartitionLimitError(name, max);
      const partition = create(name, defaultPartition.engine.scenario);
      partitions.set(name, partition);
      return partition;
    },
    find: (name) => partitions.get(name),
    list: () => [...partitions.values()],
    delete(name) {
      const partition = partitions.get(name);
      if (!partition) throw new SimPartitionNotFoundError(name, [...partitions.keys()]);
      if (name === DEFAULT_PARTITION) {
        partition.reset();
        return;
      }
      partition.dispose();
      partitions.delete(name);
    },
    streams,
    endStreams() {
      streams.subscribers.endAll();
      streams.live.endAll();
    },
    dispose() {
      for (const partition of partitions.values()) partition.dispose();
    },
  };
}

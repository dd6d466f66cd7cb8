/**
 * A partition's log: everything that happened in it, in order: domain events (the world changed), exchanges
 * (a request was answered) and control actions (the clock was advanced, the world reset). It is the one
 * source the journal, coverage, the event stream and the inspector read: each is a reader that subscribes
 * and keeps what it needs. The log itself keeps only a bounded tail, so memory stays flat however long a
 * partition lives.
 */
import type { LayerName, NearMiss } from '../exchange/layer.js';
import type { DomainEvent } from './events.js';

export interface ExchangeEntry {
  kind: 'exchange';
  seq: number;
  /** The request id (`req_…`), also the `cause` of the events it made. */
  id: string;
  time: number;
  method: string;
  path: string;
  operationId?: string;
  /** Who answered: rule, scenario, fallback, validation, simulator, upstream, replay, record. */
  layer: LayerName;
  status: number;
  /** `_tag` (or ProjectCopyError's `name`) of an error answer. */
  tag?: string;
  /** The rule that answered, where it is written (`scenarios/x.yaml rules[0]`, `runtime rule rul_1`). */
  rule?: string;
  /** Spec violations of the request (proxy modes) or the answer. */
  violations?: string[];
  /** No rule answered though some were written for this operation: the closest, and why it did not answer. */
  nearMiss?: NearMiss;
}

/** `reload`: a watched scenario file changed and the world restarted from it; `reload.failed`: the edit was refused. */
export type ControlAction =
  'advance' | 'reset' | 'scenario' | 'reload' | 'reload.failed' | 'rule.added' | 'rule.removed';

/** The actions after which the world starts afresh: readers that keep what they saw of the old one let it go. */
export const WORLD_RESTARTS: ReadonlySet<ControlAction> = new Set<ControlAction>(['reset', 'scenario', 'reload']);

export interface ControlEntry {
  kind: 'control';
  seq: number;
  time: number;
  action: ControlAction;
  detail?: string;
}

export type LogEntry = DomainEvent | ExchangeEntry | ControlEntry;

/** What an entry is before the log numbers it. */
export type Unnumbered<E> = E extends unknown ? Omit<E, 'seq'> : never;

export type LogReader = (entry: LogEntry) => void;

export interface EventLog {
  append<E extends LogEntry>(entry: Unnumbered<E>): E;
  subscribe(reader: LogReader): () => void;
  /** The retained tail, oldest first; `after` keeps only entries with a larger seq. */
  entries(after?: number): LogEntry[];
  readonly lastSeq: number;
}

export const DEFAULT_LOG_CAPACITY = 5000;

export function createEventLog(capacity = DEFAULT_LOG_CAPACITY): EventLog {
  const ring: LogEntry[] = [];
  const readers = new Set<LogReader>();
  let seq = 0;
  return {
    append<E extends LogEntry>(entry: Unnumbered<E>): E {
      // Numbered in place: every caller hands over an entry made for the log, and a copy per entry is garbage.
      const numbered = entry as unknown as E;
      numbered.seq = ++seq;
      ring.push(numbered);
      // Dropping from the front in batches keeps appends O(1) amortised.
      if (ring.length > capacity + capacity / 10) ring.splice(0, ring.length - capacity);
      for (const reader of readers) reader(numbered);
      return numbered;
    },
    subscribe(reader) {
      readers.add(reader);
      return () => readers.delete(reader);
    },
    entries(after = 0) {
      const tail = ring.length > capacity ? ring.slice(ring.length - capacity) : ring;
      return after > 0 ? tail.filter((e) => e.seq > after) : [...tail];
    },
    get lastSeq() {
      return seq;
    },
  };
}

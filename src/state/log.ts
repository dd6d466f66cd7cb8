/**
 * A partition's log: everything that happened in it, in order: domain events (the world changed), exchanges
 * (a request was answered, with what was wrong with it and, for the most recent ones, the exchange whole)
 * and control actions (the clock was advanced, the world reset). It is the one source the journal, coverage,
 * the event stream, the exchange details and the inspector read: each is a reader that subscribes and keeps
 * what it needs. The log itself keeps only a bounded tail, and the whole exchange on fewer entries still, so
 * memory stays flat however long a partition lives.
 */
import type { Answer } from '../exchange/exchange.js';
import type { AnsweredBy, NearMiss } from '../exchange/answered-by.js';
import type { Violation } from '../openapi/violation.js';
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
  layer: AnsweredBy;
  status: number;
  /** `_tag` (or ProjectCopyError's `name`) of an error answer. */
  tag?: string;
  /** The rule that answered, where it is written (`scenarios/x.yaml rules[0]`, `runtime rule rul_1`). */
  rule?: string;
  /**
   * Answered by a rule that leaves the spec on purpose (`outsideSpec: true`): a path, status, headers or body
   * the spec may not have, so the answer was not checked against it.
   */
  outsideSpec?: true;
  /** Spec violations of the request (proxy modes) or the answer. */
  violations?: Violation[];
  /** No rule answered though some were written for this operation: the closest, and why it did not answer. */
  nearMiss?: NearMiss;
  /**
   * The exchange whole (`control/exchange-details.ts` makes it and shows it). Secrets are masked by the only
   * way out, `sides()`, and the rest is functions, which JSON leaves out. Only the most recent exchanges keep
   * it (`createEventLog`'s `details` bound); on older entries it is undefined. Readers that copy the entry
   * leave it out: it is not part of the journal line.
   */
  details?: ExchangeDetails | undefined;
}

/** A body as kept: its text (JSON text when `json`), cut at a limit. */
export interface KeptBody {
  /** Bytes as sent, before any cut (unknown for a body too large to read). */
  size?: number;
  text: string;
  json: boolean;
  truncated?: true;
}

/** Both sides of an exchange in full, with bodies as `B`: kept (`KeptBody`) or shown. */
export interface ExchangeSides<B = KeptBody> {
  request: {
    method: string;
    path: string;
    query: Record<string, string | string[]>;
    headers: Record<string, string>;
    body?: B;
  };
  response: {
    /** 0 for a dropped connection. */
    status: number;
    /** How it was sent: `json`, `raw`, `empty`, `stream` (written as it came, so no body here) or `drop`. */
    kind: Answer['kind'];
    headers: Record<string, string>;
    body?: B;
  };
}

export interface ExchangeDetails {
  /** Bytes of body it holds, counted against the log's bound. */
  readonly weight: number;
  /** Both sides, secrets masked: worked out when someone opens it, not for every request answered. */
  sides(): ExchangeSides;
}

/** `reload`: a watched scenario file changed and the world was reset from it; `reload.failed`: the edit was refused. */
export type ControlAction =
  'advance' | 'reset' | 'scenario' | 'reload' | 'reload.failed' | 'rule.added' | 'rule.removed';

/** The actions after which the world starts afresh: readers that keep what they saw of the old one let it go. */
export const WORLD_RESETS: ReadonlySet<ControlAction> = new Set<ControlAction>(['reset', 'scenario', 'reload']);

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

/** The most recent exchanges that still carry their details, by request id. */
export interface DetailedExchanges {
  get(id: string): ExchangeEntry | undefined;
  /** The request id of the newest one since the world last restarted: an older id not found was let go. */
  readonly newest: string | undefined;
  readonly capacity: number;
  readonly size: number;
}

export interface EventLog {
  append<E extends LogEntry>(entry: Unnumbered<E>): E;
  subscribe(reader: LogReader): () => void;
  /** The retained tail, oldest first; `after` keeps only entries with a larger seq. */
  entries(after?: number): LogEntry[];
  readonly lastSeq: number;
  readonly detailed: DetailedExchanges;
}

export const DEFAULT_LOG_CAPACITY = 5000;
/** Exchanges that keep their details, per partition. */
export const DEFAULT_DETAILS_CAPACITY = 200;
/** Bytes of body those details hold, all together: 200 large answers must not cost 25 MB in each of 256 partitions. */
export const DEFAULT_DETAILS_BYTES = 4 * 1024 * 1024;

export function createEventLog(
  capacity = DEFAULT_LOG_CAPACITY,
  bounds: { details?: number; detailBytes?: number } = {},
): EventLog {
  const ring: LogEntry[] = [];
  const readers = new Set<LogReader>();
  let seq = 0;
  const detailCapacity = bounds.details ?? DEFAULT_DETAILS_CAPACITY;
  const detailBytes = bounds.detailBytes ?? DEFAULT_DETAILS_BYTES;
  // A Map iterates in insertion order, so its first key is the oldest: eviction without a second index.
  const detailed = new Map<string, ExchangeEntry>();
  let bytes = 0;
  let newest: string | undefined;
  /** Lets go of an entry's details; the entry itself stays in the ring (assigned, not deleted: a delete slows every entry). */
  const release = (entry: ExchangeEntry) => {
    detailed.delete(entry.id);
    bytes -= entry.details?.weight ?? 0;
    entry.details = undefined;
  };
  const keepDetails = (entry: ExchangeEntry, details: ExchangeDetails) => {
    const earlier = detailed.get(entry.id);
    if (earlier) release(earlier);
    detailed.set(entry.id, entry);
    bytes += details.weight;
    newest = entry.id;
    // The newest always stays, however large: it is the one someone is about to open.
    while (detailed.size > 1 && (detailed.size > detailCapacity || bytes > detailBytes))
      release(detailed.values().next().value as ExchangeEntry);
  };
  return {
    append<E extends LogEntry>(entry: Unnumbered<E>): E {
      // Numbered in place: every caller hands over an entry made for the log, and a copy per entry is garbage.
      const numbered = entry as unknown as E;
      numbered.seq = ++seq;
      ring.push(numbered);
      // Dropping from the front in batches keeps appends O(1) amortised.
      if (ring.length > capacity + capacity / 10) ring.splice(0, ring.length - capacity);
      if (numbered.kind === 'exchange') {
        if (numbered.details) keepDetails(numbered, numbered.details);
      } else if (numbered.kind === 'control' && WORLD_RESETS.has(numbered.action)) {
        // Request ids start again with a new world: details kept under the old ones would answer for the new.
        for (const kept of [...detailed.values()]) release(kept);
        newest = undefined;
      }
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
    detailed: {
      get: (id) => detailed.get(id),
      get newest() {
        return newest;
      },
      capacity: detailCapacity,
      get size() {
        return detailed.size;
      },
    },
  };
}

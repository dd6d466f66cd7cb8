/**
 * The journal: a reader of a partition's log that keeps the recent exchanges, each with what it changed in
 * the world ("why" lines built from the domain events the request caused). The control API, the handle's
 * `journal()` and (later) the inspector read it; old entries fall off so memory stays flat. Switching or
 * resetting the scenario starts it afresh.
 */
import { wallClock } from '../state/clock.js';
import { describeEvent } from '../state/events.js';
import { WORLD_RESETS, type ControlEntry, type EventLog, type ExchangeEntry, type LogEntry } from '../state/log.js';

export type ExchangeJournalEntry = Omit<ExchangeEntry, 'kind' | 'details'> & {
  /**
   * Wall-clock ms when it was answered: beside the virtual `time`, which stands still unless advanced, it
   * says how far apart requests really came. A control-plane view only: answers, recordings, the world and
   * coverage never read it, so they stay the same from run to run; `seq` (the log's number) orders entries
   * the same way every run.
   */
  wall: number;
  /** What the request changed in the world, one line per domain event it caused. */
  changes?: string[];
  /** Only control entries have these: `entry.action` tells the two apart. */
  action?: undefined;
  detail?: undefined;
};

/**
 * A control action that explains the exchanges after it: a watched scenario file reloaded (`detail`: which),
 * or an edit refused (`detail`: its problems, `file:line:col: message`, one a line). It has none of an
 * exchange's fields, declared as absent so code reading `entry.status` or `entry.operationId` still compiles.
 */
export type ControlJournalEntry = ControlEntry & {
  [K in Exclude<keyof ExchangeJournalEntry, keyof ControlEntry>]?: undefined;
};

export type JournalEntry = ExchangeJournalEntry | ControlJournalEntry;

/** The control actions the journal shows; the others (advance, rules) are in `GET /__sim/events`. */
const SHOWN: ReadonlySet<ControlEntry['action']> = new Set(['reload', 'reload.failed']);

export interface Journal {
  entries(): JournalEntry[];
  clear(): void;
  /** Told of each line as it is journaled (the inspector's live view shows them as they come). */
  subscribe(listener: (line: JournalEntry) => void): () => void;
}

/**
 * What the ring keeps of an exchange until someone reads the journal: the log's own entry (which the log holds
 * anyway), when it was answered and what it changed. The line is made from it when read, so an answer costs
 * no copy of its entry.
 */
interface Kept {
  entry: ExchangeEntry;
  wall: number;
  changes: string[] | undefined;
}

function lineOf(kept: Kept | ControlJournalEntry): JournalEntry {
  if (!('entry' in kept)) return kept;
  // Every field but `kind` and the whole exchange (opened on its own, and let go of sooner), named rather
  // than copied and deleted (a delete makes each entry slow).
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { kind, details, ...rest } = kept.entry;
  const line = rest as ExchangeJournalEntry;
  line.wall = kept.wall;
  if (kept.changes) line.changes = kept.changes;
  return line;
}

export function createJournal(log: EventLog, capacity = 1000): Journal {
  const ring: (Kept | ControlJournalEntry)[] = [];
  let next = 0;
  /** Events arrive before the exchange that caused them is logged; they wait here for it, by request id. */
  let changes = new Map<string, string[]>();
  const clear = () => {
    ring.length = 0;
    next = 0;
    changes = new Map();
  };
  const listeners = new Set<(line: JournalEntry) => void>();
  const record = (kept: Kept | ControlJournalEntry) => {
    if (ring.length < capacity) ring.push(kept);
    else ring[next] = kept;
    next = (next + 1) % capacity;
    if (listeners.size) {
      const line = lineOf(kept);
      for (const listener of listeners) listener(line);
    }
  };
  log.subscribe((entry: LogEntry) => {
    if (entry.kind === 'event') {
      if ('request' in entry.cause)
        changes.set(entry.cause.request, [...(changes.get(entry.cause.request) ?? []), describeEvent(entry)]);
    } else if (entry.kind === 'exchange') {
      const caused = changes.size ? changes.get(entry.id) : undefined;
      if (caused) changes.delete(entry.id);
      record({ entry, wall: wallClock(), changes: caused });
    } else {
      // A new world starts the journal afresh; a reload (or a refused one) says so in it.
      if (WORLD_RESETS.has(entry.action)) clear();
      if (SHOWN.has(entry.action))
        record({
          kind: 'control',
          seq: entry.seq,
          time: entry.time,
          action: entry.action,
          ...(entry.detail === undefined ? {} : { detail: entry.detail }),
        });
    }
  });
  return {
    entries: () => (ring.length < capacity ? ring : [...ring.slice(next), ...ring.slice(0, next)]).map(lineOf),
    clear,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * The readers every partition's log gets (journal, coverage, the API's event stream, and the terminal's
 * exchange lines when asked for) and the caps on long-lived streams they share: what `createPartitions`
 * (./partitions.ts) is handed, so a partition is composed without knowing who reads it.
 */
import { DEFAULTS } from '../config/config.js';
import type { KindCatalog } from '../kinds/catalog.js';
import type { SpecIndex } from '../openapi/openapi.js';
import type { PartitionsOptions } from './partitions.js';
import { createEventStream } from '../stream/event-stream.js';
import { createStreamQuota } from '../stream/stream-quota.js';
import { createCoverage } from './coverage.js';
import { createJournal } from './journal.js';
import type { ExchangePrinter } from './exchange-printer.js';
import { createLiveQuota } from './live.js';

export interface ReaderOptions {
  spec: SpecIndex;
  kinds: KindCatalog;
  /** Seeds the ids of the frames the event stream makes itself. */
  seed: string;
  /** Event-stream subscribers open at once, over all partitions. */
  maxSubscribers?: number;
  /** Prints each partition's exchanges (the terminal's lines), when the simulator was asked to. */
  printer?: ExchangePrinter;
  /** The simulator's own event types on the public streams too (`--sim-events`). */
  simEvents?: boolean;
}

export function partitionReaders(options: ReaderOptions): Pick<PartitionsOptions, 'streams' | 'readers'> {
  const streams = {
    subscribers: createStreamQuota(
      'event-stream subscribers',
      options.maxSubscribers ?? DEFAULTS.maxSubscribers,
      'Close event streams you no longer read (each GET /api/event holds one until it disconnects), or start with a higher maxSubscribers',
    ),
    live: createLiveQuota(),
  };
  return {
    streams,
    readers: (engine, project, name) => {
      // Subscribed after the journal: a line printed is one the journal already holds.
      const journal = createJournal(engine.log);
      options.printer?.read(engine.log, name);
      return {
        journal,
        coverage: createCoverage(engine.log, options.spec, () => engine.scenario, options.kinds),
        events: createEventStream(engine, {
          project,
          seed: options.seed,
          kinds: options.kinds,
          quota: streams.subscribers,
          simEvents: options.simEvents,
        }),
      };
    },
  };
}

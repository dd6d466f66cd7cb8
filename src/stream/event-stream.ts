/**
 * A partition's event stream (`GET /api/event`): a reader of the partition's log that publishes each domain
 * event, at the virtual instant it happened, to every subscriber, whether a request or the clock caused it.
 * Durable sequence numbers are counted here, once per partition, so every subscriber sees the same numbers
 * and a reconnecting client sees them continue. A reset, a scenario switch or a hot reload ends the world the
 * client knew: subscribers are told with `global.disposed` and should fetch again.
 */
import type { Answer } from '../exchange/exchange.js';
import type { KindCatalog } from '../kinds/catalog.js';
import { createSseChannel, sseFrame, SSE_HEADERS, SUBSCRIBER_BUFFER, type SseChannel } from '../http/sse.js';
import type { ProjectContext } from '../openapi/location.js';
import type { Engine } from '../state/engine.js';
import { WORLD_RESETS, type LogEntry } from '../state/log.js';
import { createIds, createRandom } from '../state/random.js';
import { createDurableLog, type DurableLog } from './durable-log.js';
import { createSequenceCounter, followers, publish, type Envelope } from './publication.js';
import type { StreamQuota } from './stream-quota.js';

/** The real server's keep-alive period. */
export const HEARTBEAT_MS = 15_000;
/** However far the clock jumps, a subscriber gets at most this many heartbeats for it. */
const MAX_BEATS_PER_STEP = 100;

export interface EventStreamOptions {
  /**
   * The project served when an event happens: events carry its directory as their `location`, and the session
   * records of `session.created` / `session.updated` its id.
   */
  project: () => ProjectContext;
  seed: string;
  /** What the kinds say of their events: which are published, reshaped, followed, numbered. */
  kinds: KindCatalog;
  heartbeatMs?: number;
  maxQueued?: number;
  /** The cap on subscribers, shared with the other partitions' streams. */
  quota?: StreamQuota;
  /** The simulator's own event types (`simOnly`) on this stream and the sessions' too (`--sim-events`). */
  simEvents?: boolean;
}

export interface EventStream {
  /** A new subscriber: the answer to `GET /api/event`. */
  subscribe(): Answer;
  readonly subscribers: number;
  /** Subscribers dropped for not keeping up, since the partition was created. */
  readonly dropped: number;
  /** Each session's numbered events, as its history and its own event stream read them. */
  readonly durable: DurableLog;
  /** A stream of one aggregate's numbered events after `after`, under the same cap as subscribers. */
  follow(aggregate: string, after: number): Answer;
  dispose(): void;
}

interface Subscriber {
  channel: SseChannel;
  /** Virtual time of the next heartbeat; the clock's moves are what make it due. */
  nextBeat: number;
}

export function createEventStream(engine: Engine, options: EventStreamOptions): EventStream {
  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
  const simEvents = options.simEvents ?? false;
  const subscribers = new Set<Subscriber>();
  const sequence = createSequenceCounter(options.kinds);
  // Frames the stream makes itself (connected, disposed) get ids of their own, so how many clients
  // subscribe never shifts the ids of the world's events.
  let ids = createIds(createRandom(`${options.seed}:stream`));
  // Announcements derived from the world (session.updated) have their own ids, which only the world decides.
  let derivedIds = createIds(createRandom(`${options.seed}:derived`));
  let dropped = 0;
  const durable = createDurableLog();
  /** A new world: its sessions' histories are what their logs replay, numbered as the stream goes on numbering. */
  const reset = () => {
    sequence.reset(engine.world);
    durable.clear();
    if (!engine.world) return;
    const { directory, id: projectID } = options.project();
    const world = engine.world;
    const counts = new Map(options.kinds.sequences(world).map(([aggregate, last]) => [aggregate, last + 1]));
    durable.seed(counts, (aggregate, count) => {
      // Ids per aggregate, so they do not depend on which session is read first.
      const ids = createIds(createRandom(`${options.seed}:history:${aggregate}`));
      return options.kinds
        .history(world, aggregate, count, { directory, projectID, world })
        .map(({ type, data, time }, seq) => ({
          id: ids.ascending('evt_', time),
          type,
          durable: { aggregateID: aggregate, seq, version: 1 },
          data,
        }));
    });
  };
  reset();

  const beat = (subscriber: Subscriber, now: number) => {
    if (engine.clock.realTime) return; // the wall-clock keep-alive covers a clock that moves by itself
    let beats = 0;
    while (subscriber.nextBeat <= now && beats < MAX_BEATS_PER_STEP) {
      subscriber.channel.comment('heartbeat');
      subscriber.nextBeat += heartbeatMs;
      beats++;
    }
    if (subscriber.nextBeat <= now) subscriber.nextBeat = now + heartbeatMs;
  };

  const broadcast = (envelope: Envelope, now: number) => {
    // Encoded once for all: with a thousand subscribers, a copy of the text each was a good part of the cost.
    const frame = sseFrame(JSON.stringify(envelope));
    for (const subscriber of subscribers) {
      beat(subscriber, now);
      subscriber.channel.sendFrame(frame);
    }
  };

  const read = (entry: LogEntry) => {
    if (entry.kind === 'event') {
      // Sequence numbers advance with or without subscribers: they describe the world, not a connection.
      const { directory, id: projectID } = options.project();
      const around = { directory, projectID, world: engine.world };
      const envelope = publish(entry, around, sequence, options.kinds, simEvents);
      if (envelope) durable.add(envelope);
      if (envelope && subscribers.size) broadcast(envelope, entry.time);
      const derived = () => derivedIds.ascending('evt_', entry.time);
      for (const follower of followers(entry, around, sequence, options.kinds, derived, simEvents)) {
        durable.add(follower);
        if (subscribers.size) broadcast(follower, entry.time);
      }
      return;
    }
    if (entry.kind === 'control' && WORLD_RESETS.has(entry.action)) {
      reset();
      ids = createIds(createRandom(`${options.seed}:stream`));
      derivedIds = createIds(createRandom(`${options.seed}:derived`));
      for (const subscriber of subscribers) subscriber.nextBeat = entry.time + heartbeatMs;
      const metadata = { reason: entry.action, ...(entry.detail === undefined ? {} : { detail: entry.detail }) };
      broadcast({ id: ids.ascending('evt_', entry.time), type: 'global.disposed', data: {}, metadata }, entry.time);
      return;
    }
    for (const subscriber of subscribers) beat(subscriber, entry.time);
  };
  const unsubscribe = engine.log.subscribe(read);

  return {
    subscribe() {
      options.quota?.claim();
      const channel = createSseChannel({
        maxQueued: options.maxQueued ?? SUBSCRIBER_BUFFER,
        onDrop: () => dropped++,
      });
      const now = engine.clock.now();
      const subscriber: Subscriber = { channel, nextBeat: now + heartbeatMs };
      subscribers.add(subscriber);
      options.quota?.hold(channel);
      const keepAlive = setInterval(() => channel.comment('heartbeat'), heartbeatMs);
      keepAlive.unref();
      channel.onClose(() => {
        clearInterval(keepAlive);
        subscribers.delete(subscriber);
      });
      channel.send(JSON.stringify({ id: ids.ascending('evt_', now), type: 'server.connected', data: {} }));
      channel.comment('heartbeat');
      return { kind: 'stream', status: 200, headers: { ...SSE_HEADERS }, stream: channel.stream };
    },
    get subscribers() {
      return subscribers.size;
    },
    get dropped() {
      return dropped;
    },
    durable,
    follow: (aggregate, after) => durable.follow(aggregate, after, options.quota),
    dispose() {
      unsubscribe();
      durable.dispose();
      for (const subscriber of subscribers) subscriber.channel.close();
    },
  };
}

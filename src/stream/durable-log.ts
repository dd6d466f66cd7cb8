/**
 * A partition's sessions as the real server keeps them: each durable aggregate's events, numbered, to read a
 * page of (`GET /api/session/{id}/history`) or to follow from a sequence on (`GET /api/session/{id}/event`,
 * replay then live, gap-free). Fed by the event stream as it numbers what it publishes, so the three
 * readings always agree. What it keeps is bounded over the whole partition: past the bound the oldest events
 * of the partition go first.
 */
import type { Answer } from '../exchange/exchange.js';
import { createSseChannel, sseFrame, SSE_HEADERS, SUBSCRIBER_BUFFER, type SseChannel } from '../http/sse.js';
import type { Envelope } from './publication.js';
import type { StreamQuota } from './stream-quota.js';

/** Events kept over all of a partition's aggregates. */
export const DURABLE_EVENTS_KEPT = 50_000;
const HEARTBEAT_MS = 15_000;

/** As the real server's session log sends them: the numbered event without the location envelope. */
type Kept = Omit<Envelope, 'location'> & { durable: NonNullable<Envelope['durable']> };

interface Follower {
  channel: SseChannel;
  aggregate: string;
}

export interface DurableLog {
  /** Keeps a published event if it is numbered, and sends it to those following its aggregate. */
  add(envelope: Envelope): void;
  /** One page of an aggregate's events after `after` (exclusive), oldest first. */
  page(aggregate: string, after: number, limit: number): { data: Kept[]; hasMore: boolean };
  /** A stream of an aggregate's events after `after`: what is kept, then each as it happens. */
  follow(aggregate: string, after: number, quota?: StreamQuota): Answer;
  /** Forgets everything (the world restarted); followers are ended, their aggregate is gone. */
  clear(): void;
  /**
   * The events a new world's history stands for: `count` per aggregate, made by `make` the first time the
   * aggregate is read (most never are, and a partition should not pay for them).
   */
  seed(counts: ReadonlyMap<string, number>, make: (aggregate: string, count: number) => Envelope[]): void;
  readonly size: number;
  dispose(): void;
}

export function createDurableLog(max = DURABLE_EVENTS_KEPT): DurableLog {
  const byAggregate = new Map<string, Kept[]>();
  // Aggregates in the order their events were kept, one entry per event: which to evict from first.
  const order: string[] = [];
  let head = 0;
  let size = 0;
  const followers = new Set<Follower>();
  let unread = new Map<string, number>();
  let maker: ((aggregate: string, count: number) => Envelope[]) | undefined;

  /** An aggregate's history, made on its first reading and kept before what happened since. */
  const materialize = (aggregate: string) => {
    const count = unread.get(aggregate);
    if (count === undefined || !maker) return;
    unread.delete(aggregate);
    const made = maker(aggregate, count).map((e) => {
      const kept = { ...e } as Kept & { location?: unknown };
      delete kept.location;
      return kept;
    });
    byAggregate.set(aggregate, [...made, ...(byAggregate.get(aggregate) ?? [])]);
    for (let i = 0; i < made.length; i++) order.push(aggregate);
    size += made.length;
    evict();
  };

  const evict = () => {
    while (size > max && head < order.length) {
      const aggregate = order[head++]!;
      const kept = byAggregate.get(aggregate);
      kept?.shift();
      if (kept && !kept.length) byAggregate.delete(aggregate);
      size--;
    }
    // The eviction queue is compacted now and then, so it does not grow with everything ever kept.
    if (head > 4096 && head * 2 > order.length) {
      order.splice(0, head);
      head = 0;
    }
  };

  const after = (aggregate: string, seq: number) =>
    (byAggregate.get(aggregate) ?? []).filter((e) => e.durable.seq > seq);

  return {
    add(envelope) {
      if (!envelope.durable) return;
      const kept = { ...envelope } as Kept & { location?: unknown };
      delete kept.location;
      const aggregate = kept.durable.aggregateID;
      let list = byAggregate.get(aggregate);
      if (!list) byAggregate.set(aggregate, (list = []));
      list.push(kept);
      order.push(aggregate);
      size++;
      evict();
      let frame: Buffer | undefined;
      for (const follower of followers) {
        if (follower.aggregate !== aggregate) continue;
        frame ??= sseFrame(JSON.stringify(kept));
        follower.channel.sendFrame(frame);
      }
    },
    page(aggregate, from, limit) {
      materialize(aggregate);
      const rest = after(aggregate, from);
      return { data: rest.slice(0, limit), hasMore: rest.length > limit };
    },
    follow(aggregate, from, quota) {
      quota?.claim();
      materialize(aggregate);
      const channel = createSseChannel({ maxQueued: SUBSCRIBER_BUFFER });
      const follower = { channel, aggregate };
      followers.add(follower);
      quota?.hold(channel);
      // The real server's keep-alive, on the wall clock like the main stream's between events.
      const keepAlive = setInterval(() => channel.comment('heartbeat'), HEARTBEAT_MS);
      keepAlive.unref();
      channel.onClose(() => {
        clearInterval(keepAlive);
        followers.delete(follower);
      });
      for (const event of after(aggregate, from)) channel.send(JSON.stringify(event));
      return { kind: 'stream', status: 200, headers: { ...SSE_HEADERS }, stream: channel.stream };
    },
    seed(counts, make) {
      unread = new Map(counts);
      maker = make;
    },
    clear() {
      unread = new Map();
      maker = undefined;
      byAggregate.clear();
      order.length = 0;
      head = 0;
      size = 0;
      for (const follower of [...followers]) follower.channel.close();
    },
    get size() {
      return size;
    },
    dispose() {
      this.clear();
    },
  };
}

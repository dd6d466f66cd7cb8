/**
 * What the event stream says of a domain event: the v2 envelope the real server publishes, `{id, type, data,
 * location?, durable?}`. Most domain events are published as they are (their type and data already follow
 * `@opencode-ai/sdk`'s `V2Event` or the real-server notes); the kinds say which stay internal, which are
 * reshaped to the client's type, what follows them, which only `--sim-events` puts on the public streams (the
 * simulator's own types, which no real server announces), and which belong to a durable aggregate. spec/ lists every
 * published type with its source (`x-events` of `v2.event.subscribe`), and a test holds the kinds to it.
 */
import type { KindCatalog } from '../kinds/catalog.js';
import type { Surroundings } from '../kinds/kind.js';
import type { DomainEvent, EventType } from '../state/events.js';
import type { World } from '../state/world.js';

export type { Surroundings };

export interface Envelope {
  id: string;
  type: string;
  data: Record<string, unknown>;
  location?: { directory: string };
  durable?: { aggregateID: string; seq: number; version: number };
  metadata?: Record<string, unknown>;
}

type JsonObject = Record<string, unknown>;

export function isPublished(kinds: KindCatalog, type: EventType): boolean {
  return !kinds.internal.has(type);
}

/**
 * Whether a published type goes onto the public streams: every type the official client or the real server
 * knows does (its newer code line's form.* and shell.* too); the simulator's own (`simOnly`) only when asked
 * for (`--sim-events`).
 */
export function isPublic(kinds: KindCatalog, type: string, simEvents: boolean): boolean {
  return simEvents || !kinds.simOnly.has(type);
}

/**
 * Durable sequence numbers per aggregate. A scenario's history counts as already published: a session's
 * `session.created` was 0 and each message one event after it, so its first live event with N messages is N + 1.
 */
export interface SequenceCounter {
  next(aggregate: string): number;
  reset(world: World | undefined): void;
}

export function createSequenceCounter(kinds: KindCatalog): SequenceCounter {
  const last = new Map<string, number>();
  return {
    next(aggregate) {
      const seq = (last.get(aggregate) ?? -1) + 1;
      last.set(aggregate, seq);
      return seq;
    },
    reset(world) {
      last.clear();
      if (world) for (const [aggregate, seq] of kinds.sequences(world)) last.set(aggregate, seq);
    },
  };
}

/** The envelope of a published type and data, numbered in its aggregate if it has one. */
function envelopeOf(
  id: string,
  type: string,
  data: JsonObject,
  directory: string,
  sequence: SequenceCounter,
  kinds: KindCatalog,
): Envelope {
  const aggregate = kinds.aggregate(type, data);
  // Key order as the real server writes it: id, type, durable, location, data.
  return {
    id,
    type,
    ...(aggregate === undefined
      ? {}
      : { durable: { aggregateID: aggregate, seq: sequence.next(aggregate), version: 1 } }),
    location: { directory },
    data,
  };
}

/** The envelope a domain event is published as, or undefined for an internal one. */
export function publish(
  event: DomainEvent,
  around: Surroundings,
  sequence: SequenceCounter,
  kinds: KindCatalog,
  simEvents = false,
): Envelope | undefined {
  if (!isPublished(kinds, event.type)) return undefined;
  const reshape = kinds.reshape.get(event.type);
  const { type, data } = reshape ? reshape(event, around) : { type: event.type, data: event.data as JsonObject };
  // Left out before it is numbered, so a session's durable seq has no gap where a note would have been.
  if (!isPublic(kinds, type, simEvents)) return undefined;
  return envelopeOf(event.id, type, data, around.directory, sequence, kinds);
}

/**
 * What follows a domain event on the stream, derived from the world it left (`session.updated` after a
 * turn); `id` gives each its id, from a stream of ids only the world decides.
 */
export function followers(
  event: DomainEvent,
  around: Surroundings,
  sequence: SequenceCounter,
  kinds: KindCatalog,
  id: () => string,
  simEvents = false,
): Envelope[] {
  const follow = kinds.follow.get(event.type);
  if (!follow) return [];
  return follow(event, around)
    .filter(({ type }) => isPublic(kinds, type, simEvents))
    .map(({ type, data }) => envelopeOf(id(), type, data, around.directory, sequence, kinds));
}

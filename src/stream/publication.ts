/**
 * What the event stream says of a domain event: the v2 envelope the real server publishes, `{id, type, data,
 * location?, durable?}`. Most domain events are published as they are (their type and data already follow
 * `@opencode-ai/sdk`'s `V2Event` or the real-server notes); a few carry what only the world needs and are
 * kept internal, a few are reshaped to the client's type. spec/ lists every published type with its source
 * (`x-events` of `v2.event.subscribe`), and a test holds this table to it.
 */
import type { DomainEvent, EventType } from '../state/events.js';
import type { World } from '../state/world.js';
import { shellRecord } from '../resources/shells.js';

export interface Envelope {
  id: string;
  type: string;
  data: Record<string, unknown>;
  location?: { directory: string };
  durable?: { aggregateID: string; seq: number; version: number };
  metadata?: Record<string, unknown>;
}

type Json = Record<string, unknown>;

/** Domain events no client would see from the real server: the public event that follows says it all. */
const INTERNAL = new Set<EventType>([
  // integration.connection.updated follows it.
  'integration.credential.connected',
  // integration.updated follows it.
  'credential.relabelled',
  // A poll is a request, answered; nothing changed that a subscriber needs.
  'integration.attempt.polled',
  // project.directories.updated follows it.
  'project.copy.created',
  // A turn's plan, for the world; its steps are published one by one as they happen.
  'session.turn.started',
]);

/** What a reshape may read besides the event: where it happened, and the world as the event left it. */
export interface Surroundings {
  directory: string;
  projectID?: string;
  world?: World;
}

/** Reshapes where the domain event's data is not the client's. */
const RESHAPE: {
  [T in EventType]?: (event: Extract<DomainEvent, { type: T }>, around: Surroundings) => { type: string; data: Json };
} = {
  // The client is sent the session's record, as the real server sends it.
  'session.created': ({ data, time }, { world, directory, projectID }) => {
    const info = world && sessionInfo(world, data.sessionID, time, { directory, projectID: projectID ?? 'global' });
    return { type: 'session.created', data: { sessionID: data.sessionID, info: info ?? { id: data.sessionID } } };
  },
  // The world knows which command started; the client is sent the command's record, as the real server sends it.
  'shell.created': ({ data }, { world, directory }) => {
    const shell = world?.shells.get(data.id);
    return { type: 'shell.created', data: { info: shell ? shellRecord(shell, directory) : { id: data.id } } };
  },
  // The admission of a queued compaction is announced as its start: the simulator does not run compactions.
  'session.next.compaction.admitted': ({ data }) => ({
    type: 'session.next.compaction.started',
    data: { timestamp: data.timestamp, sessionID: data.sessionID, messageID: data.messageID, reason: 'manual' },
  }),
  // The client's RevertState lists FileDiffs (`path`, `status`); the operation's answer lists `file`.
  'session.next.revert.staged': ({ data }) => ({
    type: 'session.next.revert.staged',
    data: {
      timestamp: data.timestamp,
      sessionID: data.sessionID,
      revert: {
        messageID: data.revert.messageID,
        snapshot: data.revert.snapshot,
        files: (data.revert.files as Array<{ file: string; patch: string; additions: number; deletions: number }>).map(
          (f) => ({
            path: f.file,
            status: 'modified',
            additions: f.additions,
            deletions: f.deletions,
            patch: f.patch,
          }),
        ),
      },
    },
  }),
};

/** Events of a session's durable aggregate: numbered per session (`durable.seq`), as the real server does. */
export function sessionAggregate(type: string, data: Json): string | undefined {
  const durable =
    type.startsWith('session.next.') ||
    type === 'session.created' ||
    type === 'session.updated' ||
    type === 'session.deleted';
  return durable && typeof data.sessionID === 'string' ? data.sessionID : undefined;
}

export function isPublished(type: EventType): boolean {
  return !INTERNAL.has(type);
}

/**
 * Durable sequence numbers per session. A scenario's history counts as already published: `session.created`
 * was 0 and each message one event after it, so the first live event of a session with N messages is N + 1.
 */
export interface SequenceCounter {
  next(sessionID: string): number;
  reset(world: World | undefined): void;
}

export function createSequenceCounter(): SequenceCounter {
  const last = new Map<string, number>();
  return {
    next(sessionID) {
      const seq = (last.get(sessionID) ?? -1) + 1;
      last.set(sessionID, seq);
      return seq;
    },
    reset(world) {
      last.clear();
      // A session the scenario creates later starts its numbering with its session.created, at 0.
      for (const [id, session] of world?.sessions ?? [])
        if (session.status !== 'scheduled') last.set(id, session.messages.length);
    },
  };
}

/** Where events happen: the simulated project. */
export interface PublicationContext {
  directory: string;
  projectID: string;
}

/**
 * The session record `session.updated` carries, as the client types it (`Session`), built from the world:
 * the real server announces a session's new `time.updated` (and cost) when a turn ends.
 */
export function sessionInfo(
  world: World,
  sessionID: string,
  now: number,
  context: PublicationContext,
): Json | undefined {
  const session = world.sessions.get(sessionID);
  if (!session) return undefined;
  const { appears } = session.definition;
  const created =
    appears > world.scenario.start
      ? appears
      : ((session.messages[0]?.time.created as number | undefined) ?? world.scenario.start);
  return {
    id: sessionID,
    slug: slugOf(sessionID),
    projectID: context.projectID,
    directory: context.directory,
    title: session.definition.title ?? `New session - ${new Date(created).toISOString()}`,
    agent: session.agent,
    model: session.model,
    version: SESSION_VERSION,
    time: { created, updated: now },
  };
}

/** The version sessions report: the client's, whose event types the stream follows. */
const SESSION_VERSION = '1.19.3';
const SLUG_WORDS = [
  ['brave', 'calm', 'clever', 'eager', 'gentle', 'lucky', 'quiet', 'swift'],
  ['comet', 'falcon', 'harbor', 'meadow', 'otter', 'river', 'summit', 'willow'],
] as const;

/** A readable slug that is the same for the same session every time (`lucky-comet`, as the real server's). */
function slugOf(sessionID: string): string {
  let hash = 0;
  for (const char of sessionID) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return `${SLUG_WORDS[0][hash % 8]}-${SLUG_WORDS[1][(hash >>> 3) % 8]}`;
}

/** The envelope a domain event is published as, or undefined for an internal one. */
export function publish(event: DomainEvent, around: Surroundings, sequence: SequenceCounter): Envelope | undefined {
  if (!isPublished(event.type)) return undefined;
  const { directory } = around;
  const reshape = RESHAPE[event.type] as
    ((e: DomainEvent, around: Surroundings) => { type: string; data: Json }) | undefined;
  const { type, data } = reshape ? reshape(event, around) : { type: event.type, data: event.data as Json };
  const aggregate = sessionAggregate(type, data);
  // Key order as the real server writes it: id, type, durable, location, data.
  return {
    id: event.id,
    type,
    ...(aggregate === undefined
      ? {}
      : { durable: { aggregateID: aggregate, seq: sequence.next(aggregate), version: 1 } }),
    location: { directory },
    data,
  };
}

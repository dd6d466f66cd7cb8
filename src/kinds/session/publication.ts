/**
 * What the event stream says of a session: its record (`session.created`, `session.updated` after a turn),
 * the client's shapes where a domain event's data is not the client's, and the session's durable aggregate
 * (events numbered per session, a scenario's history counting as already published).
 */
import type { Publication } from '../kind.js';
import type { World } from '../../state/world.js';

type Json = Record<string, unknown>;

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

export const sessionPublication: Publication = {
  // A turn's plan, for the world; its steps are published one by one as they happen.
  internal: ['session.turn.started'],

  reshape: {
    // The client is sent the session's record, as the real server sends it.
    'session.created': ({ data, time }, { world, directory, projectID }) => {
      const info = world && sessionInfo(world, data.sessionID, time, { directory, projectID: projectID ?? 'global' });
      return { type: 'session.created', data: { sessionID: data.sessionID, info: info ?? { id: data.sessionID } } };
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
          files: (
            data.revert.files as Array<{ file: string; patch: string; additions: number; deletions: number }>
          ).map((f) => ({
            path: f.file,
            status: 'modified',
            additions: f.additions,
            deletions: f.deletions,
            patch: f.patch,
          })),
        },
      },
    }),
  },

  // A session going idle has finished its work: its record changed (time.updated), as the real server
  // announces after a turn. Derived from the world as the event left it.
  follow: {
    'session.status': ({ data, time }, { world, directory, projectID }) => {
      if (data.status.type !== 'idle' || !world) return [];
      const info = sessionInfo(world, data.sessionID, time, { directory, projectID: projectID ?? 'global' });
      return info ? [{ type: 'session.updated', data: { sessionID: data.sessionID, info } }] : [];
    },
  },

  aggregate(type, data) {
    const durable =
      type.startsWith('session.next.') ||
      type === 'session.created' ||
      type === 'session.updated' ||
      type === 'session.deleted';
    return durable && typeof data.sessionID === 'string' ? data.sessionID : undefined;
  },

  // A session the scenario creates later starts its numbering with its session.created, at 0.
  sequences: (world: World) =>
    [...world.sessions].flatMap(([id, session]) =>
      session.status === 'scheduled' ? [] : [[id, session.messages.length] as [string, number]],
    ),
};

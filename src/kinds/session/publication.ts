/**
 * What the event stream says of a session: its record (`session.created`, `session.updated` after a turn),
 * the client's shapes where a domain event's data is not the client's, and the session's durable aggregate
 * (events numbered per session, a scenario's history counting as already published).
 */
import type { Publication, Surroundings } from '../kind.js';
import type { World } from '../../state/world.js';
import { sessionHistory } from './history.js';
import { clientSession } from './info.js';

type JsonObject = Record<string, unknown>;

/** The session record events carry, as the client types it (`Session`), at the event's instant. */
function infoAt(
  world: World | undefined,
  sessionID: string,
  time: number,
  around: Surroundings,
): JsonObject | undefined {
  const session = world?.sessions.get(sessionID);
  if (!world || !session) return undefined;
  return clientSession(world, session, { directory: around.directory, id: around.projectID ?? 'global' }, time);
}

const EPHEMERAL = new Set([
  'session.next.text.delta',
  'session.next.reasoning.delta',
  'session.next.tool.input.delta',
  'session.next.compaction.delta',
]);

export const sessionPublication: Publication = {
  // A turn's plan, for the world; its steps are published one by one as they happen.
  // Its waits and its busy/idle too: the real server announces no status for a prompted turn.
  internal: [
    'session.turn.started',
    'session.turn.interrupted',
    'session.turn.waiting',
    'session.turn.answered',
    'session.turn.resumed',
    'session.turn.status',
    'session.prompt.held',
  ],
  // The real server tells the model at the next step boundary, not the stream.
  simOnly: ['session.instructions.entry.removed'],

  reshape: {
    // The client is sent the session's record, as the real server sends it.
    'session.created': ({ data, time }, around) => {
      const info = infoAt(around.world, data.sessionID, time, around);
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
    'session.status': ({ data, time }, around) => {
      if (data.status.type !== 'idle') return [];
      const info = infoAt(around.world, data.sessionID, time, around);
      return info ? [{ type: 'session.updated', data: { sessionID: data.sessionID, info } }] : [];
    },
  },

  // The real server numbers what it keeps of a session (its document's SessionDurableEvent, and the creation
  // at 0); streamed deltas and the record's updates are announcements, not history.
  aggregate(type, data) {
    const durable = type === 'session.created' || (type.startsWith('session.next.') && !EPHEMERAL.has(type));
    return durable && typeof data.sessionID === 'string' ? data.sessionID : undefined;
  },

  // A session the scenario creates later starts its numbering with its session.created, at 0.
  sequences: (world: World) =>
    [...world.sessions].flatMap(([id, session]) =>
      session.status === 'scheduled' ? [] : [[id, session.messages.length] as [string, number]],
    ),

  history(world, aggregate, count, around) {
    const session = world.sessions.get(aggregate);
    if (!session) return undefined;
    return sessionHistory(world, session, { directory: around.directory, id: around.projectID ?? 'global' }).slice(
      0,
      count,
    );
  },
};

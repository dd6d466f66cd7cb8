/**
 * What a session's own log answers, in the mock: a page of its numbered events (`history`), a stream of them
 * from a sequence on (`events`), and a request that is answered once the session is idle (`wait`). They read
 * the partition's log as the event stream numbers it, so all of them agree with `GET /api/event`.
 *
 * `wait` is answered when the session stops being busy: the virtual clock's advance (or, with --real-time,
 * wall time) plays its turn to the end, or an interrupt stops it. A reset or a scenario switch ends the wait
 * too: the world it waited in is gone.
 */
import { emptyAnswer, jsonAnswer, type Answer } from '../../exchange/exchange.js';
import { queryInteger } from '../../openapi/query-integer.js';
import type { StreamPartition, Streams } from '../kind.js';
import { SessionNotFoundError } from './errors.js';
import { ensureRoom } from '../limits.js';
import { SESSION_LIMITS } from './limits.js';

const DEFAULT_HISTORY_LIMIT = 100;
const MAX_HISTORY_LIMIT = 1000;

const waiting = new WeakMap<StreamPartition, number>();

/** A session of the partition's world that exists now, or SessionNotFoundError. */
function sessionOf(partition: StreamPartition, id: string | undefined) {
  const session = partition.engine.world?.sessions.get(id ?? '');
  if (!session || session.status === 'scheduled') throw new SessionNotFoundError(id ?? '');
  return session;
}

function untilIdle(partition: StreamPartition, sessionID: string): Promise<Answer> {
  ensureRoom(waiting.get(partition) ?? 0, SESSION_LIMITS.waiting, 'request waiting for a session');
  waiting.set(partition, (waiting.get(partition) ?? 0) + 1);
  return new Promise((resolve) => {
    const unsubscribe = partition.engine.log.subscribe(() => {
      const session = partition.engine.world?.sessions.get(sessionID);
      if (session?.status === 'busy') return;
      unsubscribe();
      waiting.set(partition, (waiting.get(partition) ?? 1) - 1);
      resolve(emptyAnswer(204));
    });
  });
}

export const streams: Streams = {
  'v2.session.history': ({ partition, pathParams, query }) => {
    if (!partition.engine.world) return undefined;
    const session = sessionOf(partition, pathParams.sessionID);
    const after = queryInteger(query.after, 'after', 0) ?? 0;
    const limit = Math.min(
      MAX_HISTORY_LIMIT,
      Math.max(1, queryInteger(query.limit, 'limit', 0) ?? DEFAULT_HISTORY_LIMIT),
    );
    return jsonAnswer(200, partition.events.durable.page(session.definition.id, after, limit));
  },
  'v2.session.events': ({ partition, pathParams, query }) => {
    if (!partition.engine.world) return undefined;
    const session = sessionOf(partition, pathParams.sessionID);
    return partition.events.follow(session.definition.id, queryInteger(query.after, 'after', 0) ?? 0);
  },
  'v2.session.wait': ({ partition, pathParams }) => {
    if (!partition.engine.world) return undefined;
    const session = sessionOf(partition, pathParams.sessionID);
    if (session.status !== 'busy') return emptyAnswer(204);
    return untilIdle(partition, session.definition.id);
  },
};

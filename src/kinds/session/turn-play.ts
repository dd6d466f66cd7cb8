/**
 * Agent turns, played: the session timeline's share of a turn. The playing turn's events fall due as the clock
 * reaches their instants; once it is over the next queued prompt's turn starts.
 *
 * Decision: a prompt admitted while the session is busy (a turn playing, or a scenario busy window) is queued
 * (`delivery: "queue"`), as the real server queues input behind a running loop rather than steering it; each
 * queued prompt plays its own turn once the one before it ends, without the session going idle between.
 * What waits is bounded, per session and per partition (`LIMITS.queuedPrompt`, `partitionQueuedPrompt`):
 * past either bound a prompt is refused with SimResourceLimitError, and nothing of it is kept.
 */
import { SimResourceLimitError } from '../../sim-errors.js';
import { draft, type EventDraft } from '../../state/events.js';
import type { World } from '../../state/world.js';
import { LIMITS } from '../limits.js';
import { inBusyWindow } from './state.js';
import { planTurn, turnEntries } from './turns.js';
import type { PlayingTurn, QueuedPrompt, SessionState } from './types.js';

/**
 * What a session's turns make happen by `now`: the playing turn's due events; once it is over, the next queued
 * prompt's turn (unless a scenario busy window holds it back), else the session's status as its windows say.
 */
function continueTurns(
  world: World,
  state: SessionState,
  now: number,
  playing: PlayingTurn | undefined,
  waiting: readonly QueuedPrompt[],
  busy: boolean,
): EventDraft[] {
  const out: EventDraft[] = [];
  // Read in place: a turn's every event passes here, and copying what waits each time would cost the queue's length.
  let taken = 0;
  let started = state.turnsStarted;
  let current = playing && { plan: playing.plan, position: playing.position };
  for (;;) {
    if (current) {
      const entries = turnEntries(current.plan);
      let i = current.position;
      for (let entry = entries[i]; entry && entry.at <= now; entry = entries[++i]) out.push(entry.draft);
      // Still playing: nothing after it can happen yet.
      if (i < entries.length) return out;
    }
    const next = waiting[taken];
    if (!next || inBusyWindow(state.definition, now)) break;
    taken += 1;
    const plan = planTurn(world, state, next, now, started++);
    // A client's prompt becomes the session's user message as its turn takes it up, as on the real server.
    if (next.prompt) out.push(prompted(state, next, now));
    out.push(draft('session.turn.started', plan));
    if (!busy) out.push(draft('session.status', { sessionID: state.definition.id, status: { type: 'busy' } }));
    busy = true;
    current = { plan, position: 0 };
  }
  // Adjacent windows share a boundary: only a real change of state is an event.
  const windowed = inBusyWindow(state.definition, now);
  if (windowed !== busy)
    out.push(draft('session.status', { sessionID: state.definition.id, status: { type: windowed ? 'busy' : 'idle' } }));
  return out;
}

function prompted(state: SessionState, prompt: QueuedPrompt, now: number): EventDraft {
  return draft('session.next.prompted', {
    timestamp: now,
    sessionID: state.definition.id,
    messageID: prompt.messageID,
    prompt: prompt.prompt ?? { text: prompt.text },
    delivery: prompt.delivery ?? 'steer',
  });
}

/**
 * A prompt admitted to run: a synthetic message with resume, or a client's prompt. It plays at once on an idle
 * session, or waits its turn on a busy one (a client's `steer` ahead of what is queued, `queue` behind it);
 * without resume it is only recorded. The caller commits these after the synthetic message itself.
 */
export function admitPrompt(
  world: World,
  state: SessionState,
  prompt: QueuedPrompt,
  now: number,
  resume = true,
): EventDraft[] {
  const waits = state.status === 'busy';
  const sessionID = state.definition.id;
  if (waits && resume) ensureQueueRoom(world, state);
  const admitted = draft('session.next.prompt.admitted', {
    timestamp: now,
    sessionID,
    messageID: prompt.messageID,
    prompt: prompt.prompt ?? { text: prompt.text },
    delivery: prompt.delivery ?? (waits ? 'queue' : 'steer'),
  });
  if (!resume) {
    const held = draft('session.prompt.held', { sessionID, messageID: prompt.messageID });
    return prompt.prompt ? [admitted, held, prompted(state, prompt, now)] : [admitted, held];
  }
  return waits ? [admitted] : [admitted, ...continueTurns(world, state, now, undefined, [prompt], false)];
}

/** The session timeline's share: what falls due at `now` (turn events, a queued turn, a window's edge). */
export function fireTurns(world: World, state: SessionState, now: number): EventDraft[] {
  return continueTurns(world, state, now, state.turn, state.queue, state.status === 'busy');
}

/** How a client makes room in a full queue: the queued turns play as the clock moves, or an interrupt drops them. */
const queueHint = (sessionID: string) =>
  `Let the queued turns play first (advance the clock: POST /__sim/clock/advance {"by": "5m"}), or drop what waits with POST /api/session/${sessionID}/interrupt; reset the partition (POST /__sim/reset) or give each test its own partition to start empty`;

/** Refuses a prompt that would wait behind more than a session's, or a partition's, bound of queued prompts. */
function ensureQueueRoom(world: World, state: SessionState): void {
  const sessionID = state.definition.id;
  const hint = queueHint(sessionID);
  if (state.queue.length >= LIMITS.queuedPrompt)
    throw new SimResourceLimitError('queued prompt', LIMITS.queuedPrompt, { holder: `session ${sessionID}`, hint });
  let held = 0;
  for (const session of world.sessions.values()) held += session.queue.length;
  if (held >= LIMITS.partitionQueuedPrompt)
    throw new SimResourceLimitError('queued prompt', LIMITS.partitionQueuedPrompt, { hint });
}

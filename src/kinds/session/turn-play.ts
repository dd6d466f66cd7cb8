/**
 * Agent turns, played: the session timeline's share of a turn. The playing turn's events fall due as the clock
 * reaches their instants; once it is over the next queued prompt's turn starts.
 *
 * Decision: a prompt admitted while the session is busy (a turn playing, or a scenario busy window) is queued
 * (`delivery: "queue"`), as the real server queues input behind a running loop rather than steering it; each
 * queued prompt plays its own turn once the one before it ends, without the session going idle between.
 * What waits is bounded, per session and per partition (`SESSION_LIMITS.queuedPrompt`, `partitionQueuedPrompt`):
 * past either bound a prompt is refused with SimResourceLimitError, and nothing of it is kept.
 */
import { SimResourceLimitError } from '../../errors/sim-errors.js';
import { draft, type EventCatalog, type EventDraft } from '../../state/events.js';
import type { World } from '../../state/world.js';
import { agentRules } from '../agent/agent.js';
import { SESSION_LIMITS } from './limits.js';
import { askPermission } from '../permission/ask.js';
import { askQuestion } from '../question/ask.js';
import type { QuestionInfo } from '../question/types.js';
import { inBusyWindow } from './state.js';
import { questionOutcome, toolPermission, TOOL_INTERRUPTED } from './tool-results.js';
import { turnEntries } from './turn-events.js';
import { planTurn } from './turns.js';
import type { PlannedPart, PlayingTurn, QueuedPrompt, SessionState, TurnPlan, TurnWait } from './types.js';

/**
 * What a session's turns make happen by `now`: the playing turn's due events (a turn waiting on answers goes
 * on once all are in); once it is over, the next queued prompt's turn (unless a scenario busy window holds it
 * back), else the session's status as its windows say. A turn's own busy and idle are the simulator's to
 * know (`session.turn.status`): the real server announces no status for a prompted turn.
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
  const sessionID = state.definition.id;
  // Read in place: a turn's every event passes here, and copying what waits each time would cost the queue's length.
  let taken = 0;
  let started = state.turnsStarted;
  let turned = playing !== undefined;
  let current = playing && {
    plan: playing.plan,
    position: playing.position,
    delay: playing.delay,
    answers: playing.answers ?? {},
    waits: playing.waits,
  };
  for (;;) {
    if (current) {
      const entries = turnEntries(current.plan);
      if (current.waits) {
        const settled = settle(current.waits);
        if (!settled) return out;
        const at = entries[current.position - 1]?.at ?? current.plan.start;
        current.delay = now - at;
        current.answers = { ...current.answers, ...settled.answers };
        const rejected = current.waits.filter((w) => settled.rejected.has(w.requestID));
        for (const wait of rejected) out.push(interruptedTool(current.plan, wait.callID, now));
        out.push(
          draft('session.turn.resumed', {
            sessionID,
            delay: current.delay,
            ends: rejected.length > 0,
            answers: settled.answers,
          }),
        );
        current.waits = undefined;
        // A rejection ends the turn where it stands, its step left unfinished, as on the real server.
        if (rejected.length) current = undefined;
      }
    }
    if (current) {
      const entries = turnEntries(current.plan);
      let i = current.position;
      for (let entry = entries[i]; entry && entry.at + current.delay <= now; entry = entries[++i]) {
        if (entry.asks) {
          const waits = ask(world, current.plan, entry.asks, entry.at + current.delay);
          out.push(...waits.events, draft('session.turn.waiting', { sessionID, waits: waits.waits }));
          if (waits.waits.length) return out;
          continue;
        }
        out.push(played(entry.draft, current.delay, current.answers, current.plan));
      }
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
    if (!busy) out.push(draft('session.turn.status', { sessionID, status: { type: 'busy' } }));
    busy = true;
    turned = true;
    current = { plan, position: 0, delay: 0, answers: {}, waits: undefined };
  }
  // Adjacent windows share a boundary: only a real change of state is an event; a turn's end is no window's.
  const windowed = inBusyWindow(state.definition, now);
  if (windowed !== busy)
    out.push(
      draft(turned && !windowed ? 'session.turn.status' : 'session.status', {
        sessionID,
        status: { type: windowed ? 'busy' : 'idle' },
      }),
    );
  return out;
}

/** A planned event as it happens: later by the time the turn waited, the question tool with its answers. */
function played(event: EventDraft, delay: number, answers: Record<string, string[][]>, plan: TurnPlan): EventDraft {
  if (event.type === 'session.next.tool.success') {
    const data = event.data as EventCatalog['session.next.tool.success'];
    const answer = answers[data.callID];
    if (answer) {
      const input = plan.steps.flatMap((s) => s.parts).find((p) => p.kind === 'tool' && p.callID === data.callID);
      const outcome = questionOutcome(input?.kind === 'tool' ? input.input : {}, answer);
      event = draft('session.next.tool.success', { ...data, ...outcome });
    }
  }
  if (!delay) return event;
  const data = event.data as { timestamp?: number };
  return data.timestamp === undefined
    ? event
    : ({ ...event, data: { ...data, timestamp: data.timestamp + delay } } as EventDraft);
}

/** The tool a rejected answer stops, failing as the real server fails it. */
function interruptedTool(plan: TurnPlan, callID: string, now: number): EventDraft {
  const step = plan.steps.find((s) => s.parts.some((p) => p.kind === 'tool' && p.callID === callID));
  const error = { type: 'unknown' as const, message: TOOL_INTERRUPTED };
  return draft('session.next.tool.failed', {
    timestamp: now,
    sessionID: plan.sessionID,
    assistantMessageID: step?.messageID ?? '',
    callID,
    error,
    provider: { executed: false },
  });
}

/**
 * The asks of a step's tools once they are called: the question tool's question, and the permission of a
 * call the agent's rules (or the script) leave asking. What the rules allow runs without a word.
 */
function ask(
  world: World,
  plan: TurnPlan,
  asks: { messageID: string; parts: ReadonlyArray<Extract<PlannedPart, { kind: 'tool' }>> },
  at: number,
): { events: EventDraft[]; waits: TurnWait[] } {
  const events: EventDraft[] = [];
  const waits: TurnWait[] = [];
  const sessionID = plan.sessionID;
  const directory = plan.directory ?? world.scenario.project?.directory ?? '/';
  for (const part of asks.parts) {
    const tool = { messageID: asks.messageID, callID: part.callID };
    if (part.asks === 'question') {
      const questions = Array.isArray(part.input.questions) ? (part.input.questions as QuestionInfo[]) : [];
      const asked = askQuestion(world, at, { sessionID, questions, tool });
      events.push(...asked.events);
      waits.push({ kind: 'question', requestID: asked.id, callID: part.callID });
      continue;
    }
    const { action, resource } = toolPermission(part.tool, part.input);
    const asked = askPermission(world, at, {
      sessionID,
      action,
      resources: [resource],
      save: [resource],
      source: { type: 'tool', ...tool },
      // The script's ask is an ask whatever the agent's rules say: the real runtime gets a rule that asks.
      rules: part.asks === 'permission' ? ASK : agentRules(world, directory, plan.agent),
    });
    // A call the rules deny plays as allowed: how the real runtime refuses one is not known here yet.
    events.push(...asked.events);
    if (asked.effect === 'ask') waits.push({ kind: 'permission', requestID: asked.id, callID: part.callID });
  }
  return { events, waits };
}

const ASK = [{ action: '*', resource: '*', effect: 'ask' as const }];

/** Whether every answer a turn waits on is in. */
export const answersIn = (waits: readonly TurnWait[]): boolean => waits.every((w) => w.answer !== undefined);

/** Once every answer is in: which were rejected, and what the questions were answered. */
function settle(
  waits: readonly TurnWait[],
): { rejected: Set<string>; answers: Record<string, string[][]> } | undefined {
  if (!answersIn(waits)) return undefined;
  const rejected = new Set<string>();
  const answers: Record<string, string[][]> = {};
  for (const wait of waits) {
    if (wait.answer?.rejected) rejected.add(wait.requestID);
    else if (wait.kind === 'question') answers[wait.callID] = wait.answer?.answers ?? [];
  }
  return { rejected, answers };
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
  if (state.queue.length >= SESSION_LIMITS.queuedPrompt)
    throw new SimResourceLimitError('queued prompt', SESSION_LIMITS.queuedPrompt, {
      holder: `session ${sessionID}`,
      hint,
    });
  let held = 0;
  for (const session of world.sessions.values()) held += session.queue.length;
  if (held >= SESSION_LIMITS.partitionQueuedPrompt)
    throw new SimResourceLimitError('queued prompt', SESSION_LIMITS.partitionQueuedPrompt, { hint });
}

/**
 * What stops a turn, as on the real server: before the model's first token nothing shows; mid-step, what
 * streams ends where it stands, the tools not done fail, and the step fails "interrupted". What waits behind
 * the turn is dropped, and the session is no longer running.
 */
export function interruptTurn(state: SessionState, now: number): EventDraft[] {
  const turn = state.turn;
  if (!turn) return [];
  const sessionID = state.definition.id;
  const events: EventDraft[] = [];
  const message = turn.message;
  if (message) {
    const assistantMessageID = message.id;
    const open = new Map<string, { type: string; text: string }>();
    for (const entry of turnEntries(turn.plan).slice(0, turn.position)) {
      const data = entry.draft?.data as Record<string, unknown> | undefined;
      if (!data || data.assistantMessageID !== assistantMessageID) continue;
      const id = (data.textID ?? data.reasoningID ?? data.callID) as string;
      const type = entry.draft?.type ?? '';
      if (/\.(text|reasoning|tool\.input)\.started$/.test(type)) open.set(id, { type, text: '' });
      else if (/\.(text|reasoning)\.delta$/.test(type)) {
        const part = open.get(id);
        if (part) part.text += data.delta as string;
      } else if (/\.(text\.ended|reasoning\.ended|tool\.success|tool\.failed)$/.test(type)) open.delete(id);
    }
    const base = { timestamp: now, sessionID, assistantMessageID };
    for (const [id, part] of open) {
      if (part.type.endsWith('text.started'))
        events.push(draft('session.next.text.ended', { ...base, textID: id, text: part.text }));
      else if (part.type.endsWith('reasoning.started'))
        events.push(draft('session.next.reasoning.ended', { ...base, reasoningID: id, text: part.text }));
      else events.push(interruptedTool(turn.plan, id, now));
    }
    events.push(
      draft('session.next.step.failed', { ...base, error: { type: 'unknown', message: 'Provider turn interrupted' } }),
    );
  }
  events.push(draft('session.turn.interrupted', { sessionID }));
  if (!inBusyWindow(state.definition, now))
    events.push(draft('session.turn.status', { sessionID, status: { type: 'idle' } }));
  return events;
}

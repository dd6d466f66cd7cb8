/**
 * Agent turns: what a session does after a synthetic message with resume. A turn is planned whole when it
 * starts (the scenario's next scripted turn for the session, else one generated from the seed), and its plan
 * is committed as a `session.turn.started` event; every event of the turn (steps, streamed text and
 * reasoning, tool calls, failures, retries) follows from that plan alone, each at its own virtual instant, and
 * the session timeline fires them as the clock reaches them. Appliers build the assistant messages from those
 * events, so a page of messages mid-turn shows what exists so far.
 *
 * Decisions:
 * - The turn captures agent and model when it starts; a switch mid-turn applies to the next turn.
 * - A prompt admitted while the session is busy (a turn playing, or a scenario busy window) is queued
 *   (`delivery: "queue"`), as the real server queues input behind a running loop rather than steering it; each
 *   queued prompt plays its own turn once the one before it ends, without the session going idle between.
 * - Deltas change nothing in the world (the real server does not persist them either): a text or reasoning
 *   part appears empty when it starts and holds its whole text once it ends.
 */
import { draft, type EventCatalog, type EventDraft } from '../../state/events.js';
import { createRandom } from '../../state/random.js';
import type { World } from '../../state/world.js';
import type { Applier, Appliers } from '../kind.js';
import { generateTurn, projectFiles } from './generated-turn.js';
import { inBusyWindow } from './state.js';
import type {
  MessageRecord,
  PlannedPart,
  PlannedStep,
  PlayingTurn,
  QueuedPrompt,
  SessionState,
  TokenUsage,
  TurnPlan,
  TurnStep,
} from './types.js';

type Json = Record<string, unknown>;

/** The model's time to first token, when a step does not say its own `after`. */
const FIRST_TOKEN = 700;
/** Pause between things a step does, when it does not say. */
const BETWEEN = 250;
const CHUNK = { text: 16, reasoning: 24, tool: 32 } as const;
const EVERY = { text: 50, reasoning: 40, tool: 20 } as const;
const TOOL_TAKES = 1500;
const RETRY_WAIT = 2000;
/** Dollars per million tokens, a mid-size model's: every input token is a cache read or a cache write. */
const PRICE = { output: 15, read: 0.3, write: 3.75 };

export interface TurnEntry {
  at: number;
  draft: EventDraft;
}

type IdMaker = (prefix: string, at: number) => string;
const NO_IDS: IdMaker = () => '';

/** Code points, so a chunk never splits a character. */
function chunks(text: string, size: number): string[] {
  const points = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < points.length; i += size) out.push(points.slice(i, i + size).join(''));
  return out.length ? out : [''];
}

const tokensOf = (text: string) => Math.ceil(text.length / 4);

/**
 * Where each step falls in time, from `start`, with ids made for the instants they name. A step opens a model
 * step (an assistant message) when none is open; a tool closes its step unless another tool follows; fail and
 * retry close it with their error; the end of the script closes what is still open.
 */
function layout(
  steps: readonly TurnStep[],
  start: number,
  ids: IdMaker,
  context: number,
): { steps: PlannedStep[]; end: number } {
  const out: PlannedStep[] = [];
  let t = start;
  let open: { messageID: string; at: number; parts: PlannedPart[] } | undefined;
  let retries = 0;
  let input = context;
  let added = 0;
  let output = 0;
  let reasoning = 0;
  let results = 0;
  const close = (end: PlannedStep['end']) => {
    if (open) out.push({ ...open, end });
    open = undefined;
  };
  const usage = (finish: 'stop' | 'tool-calls'): PlannedStep['end'] => {
    // A step reads the context its predecessor sent from the provider's cache and writes what is new.
    const read = out.length === 0 ? Math.floor(input * 0.6) : input - added;
    const tokens: TokenUsage = { input, output, reasoning, cache: { read, write: input - read } };
    const cost =
      Math.round(read * PRICE.read + (input - read) * PRICE.write + (output + reasoning) * PRICE.output) / 1e6;
    added = output + reasoning + results;
    input += added;
    output = reasoning = results = 0;
    return { kind: 'ended', at: t, finish, cost, tokens };
  };
  steps.forEach((step, i) => {
    const opens = open === undefined;
    if (!open) open = { messageID: ids('msg_', t), at: t, parts: [] };
    t += Math.round(step.after ?? (opens ? FIRST_TOKEN : BETWEEN));
    switch (step.kind) {
      case 'text':
      case 'reasoning': {
        const chunk = step.chunk ?? CHUNK[step.kind];
        const every = Math.round(step.every ?? EVERY[step.kind]);
        open.parts.push({ kind: step.kind, id: ids('prt_', t), at: t, text: step.text, chunk, every });
        t += every * chunks(step.text, chunk).length;
        if (step.kind === 'text') output += tokensOf(step.text);
        else reasoning += tokensOf(step.text);
        break;
      }
      case 'tool': {
        const chunk = step.chunk ?? CHUNK.tool;
        const every = Math.round(step.every ?? EVERY.tool);
        const takes = Math.round(step.takes ?? TOOL_TAKES);
        const args = { ...step.input };
        const part: PlannedPart = {
          kind: 'tool',
          callID: ids('call_', t),
          at: t,
          tool: step.tool,
          input: args,
          chunk,
          every,
          takes,
        };
        if (step.result !== undefined) part.result = step.result;
        if (step.error !== undefined) part.error = step.error;
        if (step.structured !== undefined) part.structured = { ...step.structured };
        open.parts.push(part);
        const json = JSON.stringify(args);
        t += every * chunks(json, chunk).length + takes;
        output += tokensOf(json);
        results += tokensOf(step.error ?? step.result ?? '');
        if (steps[i + 1]?.kind !== 'tool') close(usage('tool-calls'));
        break;
      }
      case 'fail':
        close({ kind: 'failed', at: t, message: step.message });
        break;
      case 'retry': {
        retries += 1;
        const end: PlannedStep['end'] = {
          kind: 'retried',
          at: t,
          attempt: step.attempt ?? retries,
          message: step.message,
        };
        if (step.statusCode !== undefined) end.statusCode = step.statusCode;
        close(end);
        t += Math.round(step.wait ?? RETRY_WAIT);
        output = reasoning = results = 0;
        break;
      }
    }
  });
  if (open) close(usage('stop'));
  return { steps: out, end: t };
}

/** Stretches (or shrinks) a generated turn to last `run` ms: the scenario's `busyAfterSynthetic`. */
function fitTo(steps: TurnStep[], run: number, context: number): TurnStep[] {
  const natural = layout(steps, 0, NO_IDS, context).end;
  const factor = natural > 0 ? run / natural : 0;
  const scale = (ms: number | undefined) => (ms === undefined ? undefined : Math.floor(ms * factor));
  const scaled = steps.map((step): TurnStep => {
    switch (step.kind) {
      case 'text':
      case 'reasoning':
      case 'tool':
        return {
          ...step,
          after: scale(step.after),
          every: scale(step.every),
          ...(step.kind === 'tool' ? { takes: scale(step.takes) } : {}),
        };
      case 'retry':
        return { ...step, after: scale(step.after), wait: scale(step.wait) };
      case 'fail':
        return { ...step, after: scale(step.after) };
    }
  });
  // Whole milliseconds lose a little; the last pause takes it up so the turn ends exactly on time.
  const last = scaled.length - 1;
  const slack = run - layout(scaled, 0, NO_IDS, context).end;
  scaled[last] = { ...(scaled[last] as TurnStep), after: (scaled[last]?.after ?? 0) + slack };
  return scaled;
}

/** The turn a prompt plays when it starts at `start`: the session's next scripted one, else a generated one. */
export function planTurn(
  world: World,
  state: SessionState,
  prompt: QueuedPrompt,
  start: number,
  number: number,
): TurnPlan {
  const script = state.definition.turns[number];
  // The history a step sends to the model: a believable context size for its token counts.
  const context = 2400 + 60 * Math.min(state.messages.length, 400);
  let steps =
    script?.steps ??
    generateTurn(
      createRandom(`${world.scenario.seed}:turn:${state.definition.id}:${number}`),
      prompt.text,
      projectFiles(world),
    );
  const run = state.definition.busyAfterSynthetic;
  if (!script && run !== undefined) steps = fitTo([...steps], run, context);
  const ids: IdMaker = (prefix, at) => world.ids.ascending(prefix, at);
  return {
    sessionID: state.definition.id,
    promptID: prompt.messageID,
    number,
    scripted: script !== undefined,
    agent: state.agent,
    model: { ...state.model },
    start,
    steps: layout(steps, start, ids, context).steps,
  };
}

const expanded = new WeakMap<TurnPlan, TurnEntry[]>();

/** Every event of a turn, in order, each with its instant (computed once per plan). */
export function turnEntries(plan: TurnPlan): readonly TurnEntry[] {
  const known = expanded.get(plan);
  if (known) return known;
  const out: TurnEntry[] = [];
  const sessionID = plan.sessionID;
  const push = <T extends keyof EventCatalog>(at: number, type: T, data: EventCatalog[T]) =>
    out.push({ at, draft: draft(type, data) });
  const provider = { executed: false };
  for (const step of plan.steps) {
    const base = { sessionID, assistantMessageID: step.messageID };
    push(step.at, 'session.next.step.started', {
      timestamp: step.at,
      ...base,
      agent: plan.agent,
      model: { ...plan.model },
    });
    for (const part of step.parts) {
      if (part.kind === 'tool') {
        const ref = { ...base, callID: part.callID };
        const json = JSON.stringify(part.input);
        const pieces = chunks(json, part.chunk);
        const called = part.at + part.every * pieces.length;
        const done = called + part.takes;
        push(part.at, 'session.next.tool.input.started', { timestamp: part.at, ...ref, name: part.tool });
        pieces.forEach((delta, k) =>
          push(part.at + part.every * (k + 1), 'session.next.tool.input.delta', {
            timestamp: part.at + part.every * (k + 1),
            ...ref,
            delta,
          }),
        );
        push(called, 'session.next.tool.input.ended', { timestamp: called, ...ref, text: json });
        push(called, 'session.next.tool.called', {
          timestamp: called,
          ...ref,
          tool: part.tool,
          input: part.input,
          provider,
        });
        if (part.error !== undefined) {
          push(done, 'session.next.tool.failed', {
            timestamp: done,
            ...ref,
            error: { type: 'unknown', message: part.error },
            provider,
          });
        } else {
          const content = part.result === undefined ? [] : [{ type: 'text' as const, text: part.result }];
          push(done, 'session.next.tool.success', {
            timestamp: done,
            ...ref,
            structured: part.structured ?? {},
            content,
            provider,
          });
        }
        continue;
      }
      const pieces = chunks(part.text, part.chunk);
      const end = part.at + part.every * pieces.length;
      if (part.kind === 'text') {
        const ref = { ...base, textID: part.id };
        push(part.at, 'session.next.text.started', { timestamp: part.at, ...ref });
        pieces.forEach((delta, k) =>
          push(part.at + part.every * (k + 1), 'session.next.text.delta', {
            timestamp: part.at + part.every * (k + 1),
            ...ref,
            delta,
          }),
        );
        push(end, 'session.next.text.ended', { timestamp: end, ...ref, text: part.text });
      } else {
        const ref = { ...base, reasoningID: part.id };
        push(part.at, 'session.next.reasoning.started', { timestamp: part.at, ...ref });
        pieces.forEach((delta, k) =>
          push(part.at + part.every * (k + 1), 'session.next.reasoning.delta', {
            timestamp: part.at + part.every * (k + 1),
            ...ref,
            delta,
          }),
        );
        push(end, 'session.next.reasoning.ended', { timestamp: end, ...ref, text: part.text });
      }
    }
    const end = step.end;
    if (end.kind === 'ended')
      push(end.at, 'session.next.step.ended', {
        timestamp: end.at,
        ...base,
        finish: end.finish,
        cost: end.cost,
        tokens: end.tokens,
      });
    else if (end.kind === 'failed')
      push(end.at, 'session.next.step.failed', {
        timestamp: end.at,
        ...base,
        error: { type: 'unknown', message: end.message },
      });
    else {
      const error = {
        message: end.message,
        isRetryable: true,
        ...(end.statusCode === undefined ? {} : { statusCode: end.statusCode }),
      };
      push(end.at, 'session.next.retried', { timestamp: end.at, sessionID, attempt: end.attempt, error });
    }
  }
  expanded.set(plan, out);
  return out;
}

/** When the playing turn next does something; undefined when none plays. */
export function nextTurnInstant(state: SessionState): number | undefined {
  return state.turn ? turnEntries(state.turn.plan)[state.turn.position]?.at : undefined;
}

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
  const queue = [...waiting];
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
    const next = queue[0];
    if (!next || inBusyWindow(state.definition, now)) break;
    queue.shift();
    const plan = planTurn(world, state, next, now, started++);
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

/**
 * A prompt admitted by a synthetic message with resume: it plays at once on an idle session, or waits its
 * turn on a busy one. The caller commits these after the synthetic message itself.
 */
export function admitPrompt(world: World, state: SessionState, prompt: QueuedPrompt, now: number): EventDraft[] {
  const waits = state.status === 'busy';
  const sessionID = state.definition.id;
  const admitted = draft('session.next.prompt.admitted', {
    timestamp: now,
    sessionID,
    messageID: prompt.messageID,
    prompt: { text: prompt.text },
    delivery: waits ? 'queue' : 'steer',
  });
  return waits ? [admitted] : [admitted, ...continueTurns(world, state, now, undefined, [prompt], false)];
}

/** The session timeline's share: what falls due at `now` (turn events, a queued turn, a window's edge). */
export function fireTurns(world: World, state: SessionState, now: number): EventDraft[] {
  return continueTurns(world, state, now, state.turn, state.queue, state.status === 'busy');
}

// --- appliers: the assistant messages a turn builds, and the turn's progress through its plan ---

type Part = Json & { type: string; id: string; time?: Json };
type TurnEventType = Exclude<
  Extract<keyof EventCatalog, `session.next.${string}`>,
  | 'session.next.agent.switched'
  | 'session.next.model.switched'
  | 'session.next.synthetic'
  | 'session.next.prompt.admitted'
  | 'session.next.compaction.admitted'
  | 'session.next.revert.staged'
>;

function partOf(turn: PlayingTurn, id: string): Part | undefined {
  return (turn.message?.content as Part[] | undefined)?.find((p) => p.id === id);
}

/**
 * An applier for one of a turn's own events: it changes the turn's messages, then moves the turn on by one
 * event (the plan says which comes next); after its last event the turn is over.
 */
function onTurn<T extends TurnEventType>(
  apply: (turn: PlayingTurn, data: EventCatalog[T], state: SessionState) => void,
): Applier<T> {
  return (world, event) => {
    const { data, type } = event as unknown as { data: EventCatalog[T] & { sessionID: string }; type: T };
    const state = world.sessions.get(data.sessionID);
    const turn = state?.turn;
    if (!state || !turn) return;
    apply(turn, data, state);
    const entries = turnEntries(turn.plan);
    if (entries[turn.position]?.draft.type === type) turn.position += 1;
    if (turn.position >= entries.length) state.turn = undefined;
  };
}

function finishMessage(turn: PlayingTurn, at: number, fields: Json): void {
  if (!turn.message) return;
  Object.assign(turn.message, fields);
  (turn.message.time as { completed?: number }).completed = at;
  turn.message = undefined;
}

const startPart = (part: Part) =>
  onTurn<'session.next.text.started' | 'session.next.reasoning.started' | 'session.next.tool.input.started'>((turn) => {
    (turn.message?.content as Part[] | undefined)?.push(part);
  });

export const turnAppliers: Appliers = {
  'session.next.prompt.admitted': (world, { data }) => {
    world.sessions.get(data.sessionID)?.queue.push({ messageID: data.messageID, text: data.prompt.text });
  },
  'session.turn.started': (world, { data }) => {
    const state = world.sessions.get(data.sessionID);
    if (!state) return;
    state.queue = state.queue.filter((p) => p.messageID !== data.promptID);
    state.turn = { plan: data, position: 0 };
    state.turnsStarted += 1;
  },
  'session.next.step.started': onTurn<'session.next.step.started'>((turn, data, state) => {
    const message: MessageRecord = {
      id: data.assistantMessageID,
      time: { created: data.timestamp },
      type: 'assistant',
      agent: data.agent,
      model: { ...data.model },
      content: [],
    };
    state.messages.push(message);
    turn.message = message;
  }),
  'session.next.text.started': (world, event) =>
    startPart({ type: 'text', id: event.data.textID, text: '' })(world, event),
  'session.next.text.delta': onTurn<'session.next.text.delta'>(() => {}),
  'session.next.text.ended': onTurn<'session.next.text.ended'>((turn, data) => {
    const part = partOf(turn, data.textID);
    if (part) part.text = data.text;
  }),
  'session.next.reasoning.started': (world, event) =>
    startPart({ type: 'reasoning', id: event.data.reasoningID, text: '', time: { created: event.data.timestamp } })(
      world,
      event,
    ),
  'session.next.reasoning.delta': onTurn<'session.next.reasoning.delta'>(() => {}),
  'session.next.reasoning.ended': onTurn<'session.next.reasoning.ended'>((turn, data) => {
    const part = partOf(turn, data.reasoningID);
    if (part) Object.assign(part, { text: data.text, time: { ...part.time, completed: data.timestamp } });
  }),
  'session.next.tool.input.started': (world, event) =>
    startPart({
      type: 'tool',
      id: event.data.callID,
      name: event.data.name,
      state: { status: 'pending', input: {} },
      time: { created: event.data.timestamp },
    })(world, event),
  'session.next.tool.input.delta': onTurn<'session.next.tool.input.delta'>(() => {}),
  'session.next.tool.input.ended': onTurn<'session.next.tool.input.ended'>(() => {}),
  'session.next.tool.called': onTurn<'session.next.tool.called'>((turn, data) => {
    const part = partOf(turn, data.callID);
    if (part)
      Object.assign(part, {
        state: { status: 'running', input: data.input },
        time: { ...part.time, ran: data.timestamp },
      });
  }),
  'session.next.tool.success': onTurn<'session.next.tool.success'>((turn, data) => {
    const part = partOf(turn, data.callID);
    const input = (part?.state as Json | undefined)?.input ?? {};
    if (part)
      Object.assign(part, {
        state: { status: 'completed', input, content: data.content, structured: data.structured },
        time: { ...part.time, completed: data.timestamp },
      });
  }),
  'session.next.tool.failed': onTurn<'session.next.tool.failed'>((turn, data) => {
    const part = partOf(turn, data.callID);
    const input = (part?.state as Json | undefined)?.input ?? {};
    if (part)
      Object.assign(part, {
        state: { status: 'error', input, error: data.error.message },
        time: { ...part.time, completed: data.timestamp },
      });
  }),
  'session.next.step.ended': onTurn<'session.next.step.ended'>((turn, data) =>
    finishMessage(turn, data.timestamp, { finish: data.finish, cost: data.cost, tokens: data.tokens }),
  ),
  'session.next.step.failed': onTurn<'session.next.step.failed'>((turn, data) =>
    finishMessage(turn, data.timestamp, { error: data.error }),
  ),
  // The attempt that is retried ends with the error that made it retry; the next attempt is a new step.
  'session.next.retried': onTurn<'session.next.retried'>((turn, data) =>
    finishMessage(turn, data.timestamp, { error: { type: 'unknown', message: data.error.message } }),
  ),
};

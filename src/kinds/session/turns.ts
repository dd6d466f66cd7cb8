/**
 * Agent turns, planned: what a session does after a synthetic message with resume. A turn is planned whole when
 * it starts (the scenario's next scripted turn for the session, else one generated from the seed), and its plan
 * is committed as a `session.turn.started` event; every event of the turn (steps, streamed text and
 * reasoning, tool calls, failures, retries) follows from that plan alone, each at its own virtual instant.
 * `turn-play.ts` fires them as the clock reaches them; `turn-appliers.ts` builds the assistant messages from
 * them, so a page of messages mid-turn shows what exists so far.
 *
 * Decisions:
 * - The turn captures agent and model when it starts; a switch mid-turn applies to the next turn.
 * - Deltas change nothing in the world (the real server does not persist them either): a text or reasoning
 *   part appears empty when it starts and holds its whole text once it ends.
 */
import { draft, type EventCatalog, type EventDraft } from '../../state/events.js';
import { createRandom } from '../../state/random.js';
import type { World } from '../../state/world.js';
import { generateTurn, projectFiles } from './generated-turn.js';
import type { PlannedPart, PlannedStep, QueuedPrompt, SessionState, TokenUsage, TurnPlan, TurnStep } from './types.js';

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

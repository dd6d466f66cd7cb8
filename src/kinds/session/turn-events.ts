/**
 * A turn's events, from its plan alone (./turns.ts): each at its instant, in the order the real runtime
 * publishes them. A step shows from its first token; its parts stream one after another; as the model's
 * stream ends its tool inputs end and the tools are called, then the text ends; the tools answer the
 * quickest first, and the step ends. Where a step's tools are called stands an entry with no event: there
 * they ask what they must (./turn-play.ts), and the turn waits for the answers.
 */
import { draft, type EventCatalog, type EventDraft } from '../../state/events.js';
import { toolOutcome, type ToolPart } from './tool-results.js';
import { chunks } from './turns.js';
import type { PlannedPart, SessionState, TurnPlan } from './types.js';

export type TurnEntry =
  | { at: number; draft: EventDraft; asks?: undefined }
  | {
      at: number;
      draft?: undefined;
      asks: { messageID: string; parts: Array<Extract<PlannedPart, { kind: 'tool' }>> };
    };

const expanded = new WeakMap<TurnPlan, TurnEntry[]>();

/**
 * Every event of a turn, in order, each with its instant (computed once per plan). An entry with `asks`
 * holds no event: there the turn's asking tools ask, and it waits for the answers.
 */
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
      snapshot: step.snapshot.start,
    });
    const tools: ToolPart[] = [];
    // Reasoning ends as the next part starts; text and tool inputs as the model's stream ends.
    const atEnd: Array<() => void> = [];
    step.parts.forEach((part, k) => {
      const pieces = chunks(part.kind === 'tool' ? JSON.stringify(part.input) : part.text, part.chunk);
      // Text and reasoning show with their first piece; a tool's input starts with its name, then streams.
      const deltaAt = (n: number) => part.at + part.every * (part.kind === 'tool' ? n + 1 : n);
      if (part.kind === 'tool') {
        tools.push(part);
        const ref = { ...base, callID: part.callID };
        push(part.at, 'session.next.tool.input.started', { timestamp: part.at, ...ref, name: part.tool });
        pieces.forEach((delta, n) =>
          push(deltaAt(n), 'session.next.tool.input.delta', { timestamp: deltaAt(n), ...ref, delta }),
        );
        return;
      }
      const next = step.parts[k + 1];
      const endsAt = part.kind === 'reasoning' && next ? next.at : step.streamed;
      if (part.kind === 'text') {
        const ref = { ...base, textID: part.id };
        push(part.at, 'session.next.text.started', { timestamp: part.at, ...ref });
        pieces.forEach((delta, n) =>
          push(deltaAt(n), 'session.next.text.delta', { timestamp: deltaAt(n), ...ref, delta }),
        );
        const ended = () => push(endsAt, 'session.next.text.ended', { timestamp: endsAt, ...ref, text: part.text });
        if (next && next.kind !== 'tool') ended();
        else atEnd.push(ended);
        return;
      }
      const ref = { ...base, reasoningID: part.id };
      push(part.at, 'session.next.reasoning.started', { timestamp: part.at, ...ref });
      pieces.forEach((delta, n) =>
        push(deltaAt(n), 'session.next.reasoning.delta', { timestamp: deltaAt(n), ...ref, delta }),
      );
      const ended = () => push(endsAt, 'session.next.reasoning.ended', { timestamp: endsAt, ...ref, text: part.text });
      if (next) ended();
      else atEnd.push(ended);
    });
    const streamed = step.streamed;
    for (const part of tools) {
      const ref = { ...base, callID: part.callID };
      push(streamed, 'session.next.tool.input.ended', {
        timestamp: streamed,
        ...ref,
        text: JSON.stringify(part.input),
      });
      push(streamed, 'session.next.tool.called', {
        timestamp: streamed,
        ...ref,
        tool: part.tool,
        input: part.input,
        provider,
      });
    }
    for (const ended of atEnd) ended();
    // Called, each tool asks what it must (a question; a permission the rules leave asking) before it runs.
    if (tools.length) out.push({ at: streamed, asks: { messageID: step.messageID, parts: tools } });
    // The tools run side by side: each answers when it is done, the quickest first.
    const finished = [...tools].sort((a, b) => a.takes - b.takes);
    for (const part of finished) {
      const done = streamed + part.takes;
      const ref = { ...base, callID: part.callID };
      if (part.error !== undefined && part.tool !== 'bash') {
        push(done, 'session.next.tool.failed', {
          timestamp: done,
          ...ref,
          error: { type: 'unknown', message: part.error },
          result: { type: 'error', value: part.error },
          provider,
        });
      } else {
        push(done, 'session.next.tool.success', {
          timestamp: done,
          ...ref,
          ...toolOutcome(part, plan.directory ?? '/'),
          outputPaths: [],
          provider,
        });
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
        snapshot: step.snapshot.end,
        files: step.snapshot.files,
      });
    else
      push(end.at, 'session.next.step.failed', {
        timestamp: end.at,
        ...base,
        error: { type: 'unknown', message: end.message },
      });
  }
  expanded.set(plan, out);
  return out;
}

/** When the playing turn next does something; undefined when none plays, or it waits on an answer. */
export function nextTurnInstant(state: SessionState): number | undefined {
  const turn = state.turn;
  if (!turn || turn.waits) return undefined;
  const entry = turnEntries(turn.plan)[turn.position];
  return entry && entry.at + turn.delay;
}

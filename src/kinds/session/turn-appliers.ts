/**
 * The appliers of a turn's events: the assistant messages a turn builds, and the turn's progress through its
 * plan (`turns.ts`). After its last event the turn is over.
 */
import type { EventCatalog } from '../../state/events.js';
import type { Applier, Appliers } from '../kind.js';
import { changeState } from '../answers.js';
import { turnEntries } from './turn-events.js';
import type { MessageRecord, PlayingTurn, SessionState } from './types.js';

type JsonObject = Record<string, unknown>;

type Part = JsonObject & { type: string; id: string; time?: JsonObject };
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
    if (entries[turn.position]?.draft?.type === type) turn.position += 1;
    if (turn.position >= entries.length) state.turn = undefined;
  };
}

function finishMessage(turn: PlayingTurn, at: number, fields: JsonObject): void {
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
    const state = world.sessions.get(data.sessionID);
    if (!state) return;
    // Prompts, synthetic messages and compactions are the session's inputs, numbered in admission order.
    state.inputSeq += 1;
    state.inputs.set(data.messageID, state.inputSeq);
    // A synthetic message is already in the session (its event comes first); a client's prompt is not yet.
    const synthetic = state.messages.some((m) => m.id === data.messageID);
    const waiting = {
      messageID: data.messageID,
      text: data.prompt.text,
      ...(synthetic ? {} : { prompt: data.prompt, delivery: data.delivery }),
    };
    // A client's steer goes ahead of what is queued: it is the next thing the agent takes up.
    const ahead = !synthetic && data.delivery === 'steer';
    if (ahead) state.queue.unshift(waiting);
    else state.queue.push(waiting);
  },
  'session.prompt.held': (world, { data }) => {
    const state = world.sessions.get(data.sessionID);
    if (state) state.queue = state.queue.filter((p) => p.messageID !== data.messageID);
  },
  'session.next.prompted': (world, { data }) => {
    const state = world.sessions.get(data.sessionID);
    state?.messages.push({
      id: data.messageID,
      time: { created: data.timestamp },
      type: 'user',
      text: data.prompt.text,
      ...(data.prompt.files ? { files: data.prompt.files } : {}),
      ...(data.prompt.agents ? { agents: data.prompt.agents } : {}),
    });
  },
  'session.turn.interrupted': (world, { data }) => {
    const state = world.sessions.get(data.sessionID);
    if (!state) return;
    state.turn = undefined;
    state.queue = [];
  },
  'session.turn.started': (world, { data }) => {
    const state = world.sessions.get(data.sessionID);
    if (!state) return;
    state.queue = state.queue.filter((p) => p.messageID !== data.promptID);
    state.turn = { plan: data, position: 0, delay: 0 };
    state.turnsStarted += 1;
  },
  'session.turn.waiting': (world, { data }) => {
    const turn = world.sessions.get(data.sessionID)?.turn;
    if (!turn) return;
    // Past the step's asks: what is asked waits; nothing asked, the tools run as planned.
    if (turnEntries(turn.plan)[turn.position]?.asks) turn.position += 1;
    if (data.waits.length) turn.waits = data.waits.map((w) => ({ ...w }));
  },
  'session.turn.answered': (world, { data }) => {
    const wait = world.sessions.get(data.sessionID)?.turn?.waits?.find((w) => w.requestID === data.requestID);
    if (wait) wait.answer = { rejected: data.rejected, ...(data.answers ? { answers: data.answers } : {}) };
  },
  'session.turn.resumed': (world, { data }) => {
    const state = world.sessions.get(data.sessionID);
    const turn = state?.turn;
    if (!state || !turn) return;
    turn.waits = undefined;
    turn.delay = data.delay;
    turn.answers = { ...turn.answers, ...data.answers };
    if (data.ends) state.turn = undefined;
  },
  'session.turn.status': (world, { data }) =>
    changeState('session', data.sessionID, world.sessions.get(data.sessionID), data.status.type),
  'session.next.step.started': onTurn<'session.next.step.started'>((turn, data, state) => {
    const message: MessageRecord = {
      id: data.assistantMessageID,
      time: { created: data.timestamp },
      type: 'assistant',
      agent: data.agent,
      model: { ...data.model },
      content: [],
      ...(data.snapshot === undefined ? {} : { snapshot: { start: data.snapshot } }),
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
  // A tool part's state per status is the real server's document's (SessionMessageToolState*): pending holds
  // the input as raw text (the whole of it once streamed), running, completed and error the parsed input
  // with content and structured, error its error as an object.
  'session.next.tool.input.started': (world, event) =>
    startPart({
      type: 'tool',
      id: event.data.callID,
      name: event.data.name,
      provider: { executed: false },
      state: { status: 'pending', input: '' },
      time: { created: event.data.timestamp },
    })(world, event),
  'session.next.tool.input.delta': onTurn<'session.next.tool.input.delta'>(() => {}),
  'session.next.tool.input.ended': onTurn<'session.next.tool.input.ended'>((turn, data) => {
    const part = partOf(turn, data.callID);
    if (part) part.state = { status: 'pending', input: data.text };
  }),
  'session.next.tool.called': onTurn<'session.next.tool.called'>((turn, data) => {
    const part = partOf(turn, data.callID);
    if (part)
      Object.assign(part, {
        state: { status: 'running', input: data.input, structured: {}, content: [] },
        time: { ...part.time, ran: data.timestamp },
      });
  }),
  'session.next.tool.success': onTurn<'session.next.tool.success'>((turn, data) => {
    const part = partOf(turn, data.callID);
    const input = (part?.state as JsonObject | undefined)?.input ?? {};
    if (part)
      Object.assign(part, {
        state: {
          status: 'completed',
          input,
          content: data.content,
          outputPaths: data.outputPaths ?? [],
          structured: data.structured,
        },
        time: { ...part.time, completed: data.timestamp },
      });
  }),
  'session.next.tool.failed': onTurn<'session.next.tool.failed'>((turn, data) => {
    const part = partOf(turn, data.callID);
    const input = (part?.state as JsonObject | undefined)?.input ?? {};
    if (part)
      Object.assign(part, {
        state: {
          status: 'error',
          input,
          content: [],
          structured: {},
          error: { ...data.error },
          ...(data.result === undefined ? {} : { result: data.result }),
        },
        time: { ...part.time, completed: data.timestamp },
      });
  }),
  'session.next.step.ended': onTurn<'session.next.step.ended'>((turn, data, state) => {
    const end = data.snapshot;
    const start = (turn.message?.snapshot as { start?: string } | undefined)?.start ?? end;
    if (end !== undefined) state.snapshot = end;
    finishMessage(turn, data.timestamp, {
      ...(end === undefined ? {} : { snapshot: { start, end, files: [...(data.files ?? [])] } }),
      finish: data.finish,
      cost: data.cost,
      tokens: data.tokens,
    });
  }),
  'session.next.step.failed': onTurn<'session.next.step.failed'>((turn, data) =>
    finishMessage(turn, data.timestamp, { finish: 'error', error: data.error }),
  ),
};

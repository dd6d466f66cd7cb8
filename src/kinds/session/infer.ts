/**
 * Sessions from traffic: which exist and since when, the messages their listings showed that the recorded
 * requests did not make, the questions answered, the revert staged, the windows in which they refused as
 * busy, and the agent turns their event streams carried (scenario-from, the session kind's part).
 */
import type { Step, TimedEvent, Timeline } from '../inference.js';
import {
  between,
  dataOf,
  formatDuration,
  isObject,
  tagOf,
  trusted,
  type Inferred,
  type JsonObject,
  type Part,
} from '../inference.js';

interface SessionSeen {
  id: string;
  from: Step[];
  events: TimedEvent[];
  title?: string;
  /** Offset at which it came to exist, when the recording saw that happen. */
  appears?: number;
  notFound: number[];
  known: number[];
  messages: Map<string, JsonObject>;
  questions: Set<string>;
  revert?: JsonObject;
  notes: string[];
}

/** Which request makes which message, so a listed message the replayed requests will make again is not kept. */
const MADE_BY: Record<string, string> = {
  'agent-switched': 'v2.session.switchAgent',
  'model-switched': 'v2.session.switchModel',
  synthetic: 'v2.session.synthetic',
};

export function inferSessions(timeline: Timeline): Inferred {
  const seen = new Map<string, SessionSeen>();
  const get = (id: string) => {
    let s = seen.get(id);
    if (!s)
      seen.set(
        id,
        (s = {
          id,
          from: [],
          events: [],
          notFound: [],
          known: [],
          messages: new Map(),
          questions: new Set(),
          notes: [],
        }),
      );
    return s;
  };

  for (const step of timeline.steps) {
    // A session created (the real server's POST /api/session; a recording made with an older spec has it
    // outside the spec): it appears then.
    const creates = step.operation
      ? step.operation.operationId === 'v2.session.create'
      : step.method === 'POST' && step.path === '/api/session';
    const created = creates && step.status === 200 ? dataOf(step) : undefined;
    if (isObject(created) && typeof created.id === 'string') {
      const s = get(created.id);
      s.appears = step.at;
      s.title = typeof created.title === 'string' ? created.title : s.title;
      s.from.push(step);
      continue;
    }
    if (!step.operation) continue;
    const id = step.params.sessionID;
    if (id === undefined) continue;
    if (step.status === 404 && tagOf(step) === 'SessionNotFoundError') {
      get(id).notFound.push(step.at);
      continue;
    }
    if (step.status === 400 && step.answer && isObject(step.answer) && step.answer.field === 'sessionID') continue;
    const s = get(id);
    s.known.push(step.at);
    s.from.push(step);
    const op = step.operation.operationId;
    if (op === 'v2.session.messages' && trusted(step)) {
      for (const m of (dataOf(step) as JsonObject[] | undefined) ?? [])
        if (typeof m.id === 'string' && !s.messages.has(m.id)) s.messages.set(m.id, m);
    }
    if (op === 'v2.session.question.reply' && step.status === 204 && step.params.requestID)
      s.questions.add(step.params.requestID);
    if (op === 'v2.session.revert.stage' && step.status === 200 && !s.revert) s.revert = revertOf(dataOf(step));
  }
  for (const event of timeline.events) {
    if (event.type !== 'session.created' || typeof event.data.sessionID !== 'string') continue;
    const s = get(event.data.sessionID);
    s.events.push(event);
    s.appears = Math.min(s.appears ?? event.at, event.at);
    const info = event.data.info;
    if (isObject(info) && typeof info.title === 'string') s.title ??= info.title;
  }

  const sessions: Part[] = [];
  const turns: Part[] = [];
  for (const s of seen.values()) {
    if (s.known.length === 0 && s.appears === undefined) continue; // only ever unknown: nothing to declare
    const firstKnown = Math.min(...s.known, s.appears ?? Infinity);
    // Unknown, then known, with no creation recorded: it appeared when it was first seen.
    if (s.appears === undefined && s.notFound.some((at) => at < firstKnown)) {
      s.appears = firstKnown;
      s.notes.push('appears: unknown (SessionNotFoundError) before, known from then on');
    }
    const steps = timeline.steps.filter((step) => step.params.sessionID === s.id && step.operation);
    const value: JsonObject = { id: s.id };
    if (s.title) value.title = s.title;
    if (s.appears !== undefined && s.appears > 0) value.appears = formatDuration(s.appears);
    const busy = busyWindows(s.id, steps, timeline.events);
    if (busy.windows.length) {
      value.busy = busy.windows;
      s.events.push(...busy.events);
      s.notes.push('busy: revert staging answered SessionBusyError then');
    }
    const messages = initialMessages(s, steps, timeline.origin);
    if (messages.length) value.messages = messages;
    if (s.revert) value.revert = s.revert;
    if (s.questions.size) value.questions = [...s.questions];
    sessions.push({ value, from: s.from, events: s.events, note: s.notes.join('\n') || undefined });
    turns.push(...turnsOf(s.id, steps, timeline.events));
  }
  return { sessions, turns };
}

/**
 * The listed messages the scenario must start with: all of them but those the replayed requests make again
 * (an agent switch's `agent-switched`, a synthetic message's own, and the agent's reply after it).
 */
function initialMessages(s: SessionSeen, steps: Step[], origin: number): JsonObject[] {
  const all = [...s.messages.values()].sort((a, b) => created(a) - created(b));
  const made = new Set<string>();
  for (const [type, operationId] of Object.entries(MADE_BY)) {
    const requests = steps.filter((step) => step.operation?.operationId === operationId && step.status === 204);
    const later = all.filter((m) => m.type === type && created(m) >= origin + (requests[0]?.at ?? Infinity));
    for (const m of later.slice(0, requests.length)) made.add(m.id as string);
  }
  const firstTurn = steps.find(
    (step) =>
      step.operation?.operationId === 'v2.session.synthetic' &&
      step.status === 204 &&
      (step.body as JsonObject | undefined)?.resume !== false,
  );
  for (const m of all)
    if (m.type === 'assistant' && firstTurn && created(m) >= origin + firstTurn.at) made.add(m.id as string);
  return all.filter((m) => !made.has(m.id as string));
}

function created(message: JsonObject): number {
  const time = message.time as { created?: number } | undefined;
  return time?.created ?? 0;
}

/** A staged revert as the scenario writes it (the real server names a file `path`; the spec, `file`). */
function revertOf(data: unknown): JsonObject | undefined {
  if (!isObject(data) || typeof data.snapshot !== 'string') return undefined;
  const files = Array.isArray(data.files) ? (data.files as JsonObject[]) : [];
  return {
    snapshot: data.snapshot,
    files: files.map((f) => ({
      file: f.file ?? f.path,
      patch: f.patch ?? '',
      additions: f.additions ?? 0,
      deletions: f.deletions ?? 0,
    })),
  };
}

/**
 * Windows in which revert staging answered SessionBusyError: from the `session.status` busy event before the
 * first refusal (else the start), until the idle event after the last (else between it and the next success;
 * open when nothing succeeded after it).
 */
function busyWindows(
  sessionID: string,
  steps: Step[],
  events: TimedEvent[],
): { windows: Array<{ from: string; until?: string }>; events: TimedEvent[] } {
  const stages = steps.filter(
    (s) => s.operation?.operationId === 'v2.session.revert.stage' && s.status !== 400 && s.status !== 404,
  );
  const status = events.filter((e) => e.type === 'session.status' && e.data.sessionID === sessionID);
  const windows: Array<{ from: string; until?: string }> = [];
  let previousUntil = 0;
  const used: TimedEvent[] = [];
  for (let i = 0; i < stages.length; i++) {
    if (tagOf(stages[i] as Step) !== 'SessionBusyError') continue;
    let j = i;
    while (j + 1 < stages.length && tagOf(stages[j + 1] as Step) === 'SessionBusyError') j++;
    const first = stages[i] as Step;
    const last = stages[j] as Step;
    const next = stages[j + 1];
    const busyEvent = status
      .filter((e) => e.at <= first.at && (e.data.status as JsonObject | undefined)?.type === 'busy')
      .pop();
    const idleEvent = status.find(
      (e) =>
        e.at >= last.at && (e.data.status as JsonObject | undefined)?.type === 'idle' && (!next || e.at <= next.at),
    );
    const from = busyEvent?.at ?? previousUntil;
    const until = idleEvent?.at ?? (next ? between(last.at + last.durationMs, next.at) : undefined);
    if (busyEvent) used.push(busyEvent);
    if (idleEvent) used.push(idleEvent);
    windows.push(
      until === undefined
        ? { from: formatDuration(from) }
        : { from: formatDuration(from), until: formatDuration(until) },
    );
    previousUntil = until ?? from;
    i = j;
  }
  return { windows, events: used };
}

/** The turns a session's recorded events show after each resumed synthetic message, as scripts. */
function turnsOf(sessionID: string, steps: Step[], events: TimedEvent[]): Part[] {
  // A prompt plays a turn, as a resumed synthetic message does.
  const synthetic = steps.filter(
    (s) =>
      (s.operation?.operationId === 'v2.session.synthetic' &&
        s.status === 204 &&
        (s.body as JsonObject | undefined)?.resume !== false) ||
      (s.operation?.operationId === 'v2.session.prompt' && s.status === 200),
  );
  const mine = events.filter((e) => e.data.sessionID === sessionID && e.type.startsWith('session.next.'));
  const parts: Part[] = [];
  synthetic.forEach((request, index) => {
    const until = synthetic[index + 1]?.at ?? Infinity;
    const turn = mine.filter((e) => e.at >= request.at && e.at < until);
    const script = scriptOf(turn);
    if (script.length)
      parts.push({
        value: { session: sessionID, steps: script },
        from: [request],
        events: turn.slice(0, 1).concat(turn.slice(-1)),
        note: 'steps: as the recorded events played them',
      });
  });
  return parts;
}

function scriptOf(events: TimedEvent[]): JsonObject[] {
  const steps: JsonObject[] = [];
  const called = new Map<string, TimedEvent>();
  for (const e of events) {
    const d = e.data;
    switch (e.type) {
      case 'session.next.reasoning.ended':
        steps.push({ reasoning: d.text });
        break;
      case 'session.next.text.ended':
        steps.push({ text: d.text });
        break;
      case 'session.next.tool.called':
        called.set(d.callID as string, e);
        break;
      case 'session.next.tool.success':
      case 'session.next.tool.failed': {
        const call = called.get(d.callID as string);
        if (!call) break;
        const step: JsonObject = { tool: call.data.tool, input: call.data.input ?? {} };
        if (e.type === 'session.next.tool.failed')
          step.error = (d.error as JsonObject | undefined)?.message ?? 'failed';
        else
          step.result =
            ((d.content as JsonObject[] | undefined) ?? []).map((c) => c.text ?? '').join('') ||
            (typeof d.result === 'string' ? d.result : '');
        if (e.at > call.at) step.takes = e.at - call.at;
        steps.push(step);
        break;
      }
      case 'session.next.retried': {
        const error = d.error as JsonObject;
        steps.push({
          retry: {
            message: error.message,
            ...(typeof error.statusCode === 'number' ? { statusCode: error.statusCode } : {}),
          },
        });
        break;
      }
      case 'session.next.step.failed':
        steps.push({ fail: (d.error as JsonObject | undefined)?.message ?? 'failed' });
        break;
    }
  }
  // The format's rules: nothing after a failure, and a retry must be followed by the retried attempt.
  const failed = steps.findIndex((s) => 'fail' in s);
  const kept = failed >= 0 ? steps.slice(0, failed + 1) : steps;
  while (kept.length && 'retry' in (kept[kept.length - 1] as JsonObject)) kept.pop();
  return kept;
}

/**
 * Forms from traffic (scenario-from, the form kind's part): those listed, when they appeared and were
 * cancelled between two listings without a reply, and those answered without ever being listed. The session
 * a form names must be declared: one the session kind did not infer is added here.
 */
import type { Step, TimedEvent, Timeline } from '../inference.js';
import {
  between,
  dataOf,
  formatDuration,
  trusted,
  type InferenceSoFar,
  type Inferred,
  type JsonObject,
  type Part,
  undeclaredSessions,
} from '../inference.js';

export function inferForms(timeline: Timeline, inference: InferenceSoFar): Inferred {
  const forms = formsOf(timeline);
  return { forms, sessions: undeclaredSessions(forms, inference.sessions ?? [], 'declared for its form') };
}

function formsOf(timeline: Timeline): Part[] {
  const listings = timeline.steps.filter((s) => s.operation?.operationId === 'v2.form.request.list' && trusted(s));
  const replies = timeline.steps.filter((s) => s.operation?.operationId === 'v2.session.form.reply');
  const records = new Map<string, { record: JsonObject; seenIn: number[] }>();
  listings.forEach((listing, index) => {
    for (const form of (dataOf(listing) as JsonObject[] | undefined) ?? []) {
      const entry = records.get(form.id as string) ?? { record: form, seenIn: [] };
      entry.seenIn.push(index);
      records.set(form.id as string, entry);
    }
  });
  const parts: Part[] = [];
  for (const [id, { record, seenIn }] of records) {
    const first = seenIn[0] as number;
    const last = seenIn[seenIn.length - 1] as number;
    const value: JsonObject = { ...record };
    const from = seenIn.map((i) => listings[i] as Step);
    const events: TimedEvent[] = [];
    const notes: string[] = [];
    const createdEvent = timeline.events.find(
      (e) => e.type === 'form.created' && (e.data.form as JsonObject | undefined)?.id === id,
    );
    if (first > 0 || (createdEvent && createdEvent.at > 0)) {
      const before = listings[first - 1];
      const at = createdEvent?.at ?? between(before ? before.at + before.durationMs : 0, (listings[first] as Step).at);
      value.appears = formatDuration(at);
      if (createdEvent) events.push(createdEvent);
      else notes.push(`appears: missing from #${(before as Step).seq}, listed in #${(listings[first] as Step).seq}`);
    }
    const gone = listings[last + 1];
    const replied = replies.find((r) => r.params.formID === id && r.status === 204);
    if (gone && !(replied && replied.at < gone.at)) {
      const cancelledEvent = timeline.events.find((e) => e.type === 'form.cancelled' && e.data.id === id);
      const lastSeen = listings[last] as Step;
      value.cancelled = formatDuration(cancelledEvent?.at ?? between(lastSeen.at + lastSeen.durationMs, gone.at));
      if (cancelledEvent) events.push(cancelledEvent);
      else notes.push(`cancelled: listed in #${lastSeen.seq}, gone from #${gone.seq} without a reply`);
      from.push(gone);
    }
    if (replied) from.push(replied);
    parts.push({ value, from, events, note: notes.join('\n') || undefined });
  }
  // A form answered without ever being listed: its fields are guessed from the answer.
  for (const reply of replies) {
    const id = reply.params.formID;
    if (!id || records.has(id) || reply.status !== 204 || parts.some((p) => (p.value as JsonObject).id === id))
      continue;
    const answer = ((reply.body as JsonObject | undefined)?.answer ?? {}) as JsonObject;
    const fields = Object.entries(answer).map(([key, v]) => ({
      key,
      type: Array.isArray(v)
        ? 'multiselect'
        : typeof v === 'boolean'
          ? 'boolean'
          : typeof v === 'number'
            ? 'number'
            : 'string',
      required: true,
    }));
    parts.push({
      value: { id, sessionID: reply.params.sessionID, title: `Form ${id}`, mode: 'form', fields },
      from: [reply],
      note: 'never listed: fields guessed from the answer',
    });
  }
  return parts;
}

/**
 * Resources whose lifecycles the traffic shows changing: forms that appear and get cancelled between two
 * listings, shell commands seen running and then finished or timed out, OAuth attempts polled until they
 * settle. Events from a recorded stream place a change exactly; without them it is put between the two
 * observations that show it.
 */
import { between, dataOf, formatDuration, instant, isObject, trusted, type Json, type Part } from './parts.js';
import type { Step, TimedEvent, Timeline } from './timeline.js';

const ATTEMPT_LIFETIME = 600_000;

export function inferForms(timeline: Timeline): Part[] {
  const listings = timeline.steps.filter((s) => s.operation?.operationId === 'v2.form.request.list' && trusted(s));
  const replies = timeline.steps.filter((s) => s.operation?.operationId === 'v2.session.form.reply');
  const records = new Map<string, { record: Json; seenIn: number[] }>();
  listings.forEach((listing, index) => {
    for (const form of (dataOf(listing) as Json[] | undefined) ?? []) {
      const entry = records.get(form.id as string) ?? { record: form, seenIn: [] };
      entry.seenIn.push(index);
      records.set(form.id as string, entry);
    }
  });
  const parts: Part[] = [];
  for (const [id, { record, seenIn }] of records) {
    const first = seenIn[0] as number;
    const last = seenIn[seenIn.length - 1] as number;
    const value: Json = { ...record };
    const from = seenIn.map((i) => listings[i] as Step);
    const events: TimedEvent[] = [];
    const notes: string[] = [];
    const createdEvent = timeline.events.find(
      (e) => e.type === 'form.created' && (e.data.form as Json | undefined)?.id === id,
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
    if (!id || records.has(id) || reply.status !== 204 || parts.some((p) => (p.value as Json).id === id)) continue;
    const answer = ((reply.body as Json | undefined)?.answer ?? {}) as Json;
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

export function inferShells(timeline: Timeline): Part[] {
  const reads = timeline.steps.filter(
    (s) =>
      (s.operation?.operationId === 'v2.shell.get' || s.operation?.operationId === 'v2.shell.timeout') &&
      trusted(s) &&
      s.status === 200,
  );
  const ids = [...new Set(reads.map((s) => s.params.id as string))];
  return ids.map((id): Part => {
    const mine = reads.filter((s) => s.params.id === id);
    const records = mine.map((s) => dataOf(s) as Json);
    const first = records[0] as Json;
    const last = records[records.length - 1] as Json;
    const started = (first.time as Json).started as number;
    const value: Json = { id, command: first.command, cwd: first.cwd, shell: first.shell };
    if (typeof first.pid === 'number') value.pid = first.pid;
    if (typeof first.file === 'string') value.file = first.file;
    if (isObject(first.metadata) && Object.keys(first.metadata).length) value.metadata = first.metadata;
    value.starts = instant(started, timeline.origin);
    const events: TimedEvent[] = [];
    const notes: string[] = [];
    const exited = timeline.events.find((e) => e.type === 'shell.exited' && e.data.id === id);
    const completed =
      ((last.time as Json).completed as number | undefined) ?? (exited ? timeline.origin + exited.at : undefined);
    const status = last.status !== 'running' ? last.status : exited?.data.status;
    if (exited) events.push(exited);
    if (completed !== undefined && status === 'exited') {
      value.completes = {
        after: formatDuration(completed - started),
        exit: (last.exit as number | undefined) ?? (exited?.data.exit as number | undefined) ?? 0,
      };
    } else if (completed !== undefined && status === 'timeout') {
      // A timeout the client set is replayed by its own PATCH; one the command had from the start is the scenario's.
      const patched = mine.some(
        (s) => s.operation?.operationId === 'v2.shell.timeout' && timeline.origin + s.at < completed,
      );
      if (!patched) {
        value.timeout = Math.max(1, completed - started);
        notes.push(
          `timeout: seen running${records.findIndex((r) => r.status !== 'running') > 0 ? ', then timeout' : ''}; it fired at ${formatDuration(completed - timeline.origin)}`,
        );
      }
    }
    return { value, from: mine, events, note: notes.join('\n') || undefined };
  });
}

export function inferAttempts(timeline: Timeline): Part[] {
  const polls = timeline.steps.filter(
    (s) => s.operation?.operationId === 'v2.integration.attempt.status' && trusted(s) && s.status === 200,
  );
  const ids = [...new Set(polls.map((s) => s.params.attemptID as string))];
  return ids.map((id): Part => {
    const mine = polls.filter((s) => s.params.attemptID === id);
    const answers = mine.map((s) => dataOf(s) as Json);
    const time = (answers[0] as Json).time as { created: number; expires: number };
    const { integrationID, from: startedBy } = integrationOf(timeline, id, mine);
    const value: Json = { id, integrationID: integrationID ?? '', created: instant(time.created, timeline.origin) };
    if (time.expires - time.created !== ATTEMPT_LIFETIME) value.expires = formatDuration(time.expires - time.created);
    const settled = answers.findIndex((a) => a.status === 'complete' || a.status === 'failed');
    const notes = [`polled: ${answers.map((a) => a.status as string).join(', ')}`];
    const from = [...startedBy, ...mine];
    if (settled >= 0) {
      const outcome = answers[settled] as Json;
      const settles: Json = { as: outcome.status, poll: settled + 1 };
      if (outcome.status === 'failed' && typeof outcome.message === 'string') settles.message = outcome.message;
      const credential =
        outcome.status === 'complete' && integrationID
          ? credentialAfter(timeline, integrationID, mine[settled] as Step)
          : undefined;
      if (credential) {
        settles.credential = credential.value;
        from.push(credential.step);
      }
      value.settles = settles;
    }
    return { value, from, note: notes.join('\n') };
  });
}

/** The integration an attempt belongs to: from the request that started it, or what announced its outcome. */
function integrationOf(timeline: Timeline, attemptID: string, polls: Step[]): { integrationID?: string; from: Step[] } {
  const start = timeline.steps.find(
    (s) =>
      s.method === 'POST' &&
      /^\/api\/integration\/[^/]+\/connect\/oauth$/.test(s.path) &&
      (dataOf(s) as Json | undefined)?.attemptID === attemptID,
  );
  if (start) return { integrationID: decodeURIComponent(start.path.split('/')[3] as string), from: [start] };
  const settled = timeline.events.find(
    (e) => e.type === 'integration.attempt.settled' && e.data.attemptID === attemptID,
  );
  if (settled) return { integrationID: settled.data.integrationID as string, from: [] };
  const completing = polls.find((p) => (dataOf(p) as Json).status === 'complete');
  const announced =
    completing && timeline.events.find((e) => e.type === 'integration.connection.updated' && e.at >= completing.at);
  return { integrationID: announced ? (announced.data.integrationID as string) : undefined, from: [] };
}

function credentialAfter(
  timeline: Timeline,
  integrationID: string,
  poll: Step,
): { value: Json; step: Step } | undefined {
  for (const step of timeline.steps) {
    if (step.at < poll.at || step.operation?.operationId !== 'v2.integration.list' || !trusted(step)) continue;
    const integration = ((dataOf(step) as Json[] | undefined) ?? []).find((i) => i.id === integrationID);
    const credential = ((integration?.connections as Json[] | undefined) ?? []).find((c) => c.type === 'credential');
    if (credential)
      return {
        value: { id: credential.id, ...(typeof credential.label === 'string' ? { label: credential.label } : {}) },
        step,
      };
  }
  return undefined;
}

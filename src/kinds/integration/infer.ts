/**
 * The integrations listed before anything changed them (scenario-from, the integration kind's part), and how
 * an OAuth attempt started with each method went: the first recorded start of a method becomes its `attempt`
 * (mode, address, instructions, and the poll or code that settled it), so the world starts the next one alike.
 */
import type { Step, Timeline } from '../inference.js';
import {
  dataOf,
  firstAnswer,
  formatDuration,
  trusted,
  type Inferred,
  type JsonObject,
  type Part,
} from '../inference.js';
import { ATTEMPT_LIFETIME } from './flows.js';

/** How far a recorded `time.created` may lie from its request and still be the moment the world stamps. */
const SAME_INSTANT_MS = 1000;

interface RecordedStart {
  step: Step;
  integrationID: string;
  methodID: string;
  label?: string;
  attempt: {
    attemptID: string;
    url: string;
    instructions: string;
    mode: string;
    time: { created: number; expires: number };
  };
}

export function inferIntegrations(timeline: Timeline): Inferred {
  const listing = firstAnswer(timeline, 'v2.integration.list');
  if (!listing) return {};
  const parts: Part[] = ((dataOf(listing) as JsonObject[] | undefined) ?? []).map((value) => ({
    value,
    from: [listing],
  }));
  const seen = new Set<string>();
  // A start whose recorded creation is not its request's moment could not be the world's: a rule answers it.
  for (const start of recordedStarts(timeline).filter((s) => onTime(timeline, s))) {
    const key = `${start.integrationID}\n${start.methodID}`;
    if (seen.has(key)) continue;
    seen.add(key);
    annotate(parts, start, timeline);
  }
  return { integrations: parts };
}

/** OAuth attempts a recorded request started, in order. */
export function recordedStarts(timeline: Timeline): RecordedStart[] {
  return timeline.steps.flatMap((step): RecordedStart[] => {
    if (step.operation?.operationId !== 'v2.integration.connect.oauth' || !trusted(step) || step.status !== 200)
      return [];
    const body = (step.body ?? {}) as { methodID?: string; label?: string };
    const attempt = dataOf(step) as RecordedStart['attempt'] | undefined;
    if (!attempt || typeof body.methodID !== 'string') return [];
    return [
      {
        step,
        integrationID: step.params.integrationID ?? '',
        methodID: body.methodID,
        ...(typeof body.label === 'string' ? { label: body.label } : {}),
        attempt,
      },
    ];
  });
}

/**
 * The attempts the world will start itself when the recording is played: those whose method has an inferred
 * `attempt` and whose recorded creation is the moment of their request (as the world stamps it). Any other is
 * declared as the scenario's own, for the rule that answers its start as recorded.
 */
export function attemptsTheWorldStarts(timeline: Timeline, integrations: readonly Part[]): Set<string> {
  const started = new Set<string>();
  for (const start of recordedStarts(timeline)) {
    const integration = integrations.find((p) => (p.value as JsonObject).id === start.integrationID)
      ?.value as JsonObject;
    const methods = (integration?.methods as JsonObject[] | undefined) ?? [];
    const flowed = methods.some((m) => m.id === start.methodID && m.type === 'oauth' && m.attempt !== undefined);
    if (flowed && onTime(timeline, start)) started.add(start.attempt.attemptID);
  }
  return started;
}

/** Whether the recorded attempt was created while its request was handled, as the world creates one. */
function onTime(timeline: Timeline, start: RecordedStart): boolean {
  const begun = timeline.origin + start.step.at;
  const created = start.attempt.time.created;
  return created >= begun - SAME_INSTANT_MS && created <= begun + start.step.durationMs + SAME_INSTANT_MS;
}

function annotate(parts: Part[], start: RecordedStart, timeline: Timeline): void {
  const part = parts.find((p) => (p.value as JsonObject).id === start.integrationID);
  const original = part?.value as JsonObject | undefined;
  const index = ((original?.methods as JsonObject[] | undefined) ?? []).findIndex(
    (m) => m.type === 'oauth' && m.id === start.methodID,
  );
  if (!part || !original || index < 0) return;
  const { attemptID, url, instructions, mode, time } = start.attempt;
  const polls = timeline.steps.filter(
    (s) =>
      s.operation?.operationId === 'v2.integration.attempt.status' &&
      s.params.attemptID === attemptID &&
      trusted(s) &&
      s.status === 200,
  );
  const completions = timeline.steps.filter(
    (s) => s.operation?.operationId === 'v2.integration.attempt.complete' && s.params.attemptID === attemptID,
  );
  const flow: JsonObject = { ...(mode === 'code' ? { mode } : {}), url, instructions };
  if (time.expires - time.created !== ATTEMPT_LIFETIME) flow.expires = formatDuration(time.expires - time.created);
  const statuses = polls.map((s) => dataOf(s) as { status: string; message?: string });
  const outcome = outcomeOf(mode, polls, completions);
  if (outcome) {
    const settles: JsonObject = { as: outcome.as, ...(outcome.poll ? { poll: outcome.poll } : {}) };
    const failed = statuses.find((s) => s.status === 'failed');
    if (outcome.as === 'failed' && failed?.message) settles.message = failed.message;
    const label = outcome.as === 'complete' ? labelAfter(timeline, start, outcome.at) : undefined;
    if (label !== undefined && start.label === undefined && label !== 'default') settles.label = label;
    flow.settles = settles;
  }
  // A copy: the recorded answer stays as it was recorded, for the comparison that follows.
  const methods = [...(original.methods as JsonObject[])];
  methods[index] = { ...methods[index], attempt: flow };
  part.value = { ...original, methods };
  part.from.push(start.step, ...polls, ...completions);
  const seen = statuses.map((s) => s.status).join(', ');
  part.note = [part.note, `${start.methodID}: ${seen ? `polled: ${seen}` : 'started'}`].filter(Boolean).join('\n');
}

/** How the recorded attempt ended, and the step that shows it (its poll, for an auto one). */
function outcomeOf(
  mode: string,
  polls: Step[],
  completions: Step[],
): { as: string; poll?: number; at: number } | undefined {
  if (mode === 'code') {
    const done = completions.find((s) => s.status === 204);
    if (done) return { as: 'complete', at: done.at };
    const refused = completions.find(
      (s) => s.status === 400 && (s.answer as JsonObject | undefined)?.kind === 'integration_authorization',
    );
    return refused ? { as: 'failed', at: refused.at } : undefined;
  }
  const status = (s: Step) => (dataOf(s) as { status: string }).status;
  const settled = polls.findIndex((s) => status(s) === 'complete' || status(s) === 'failed');
  const poll = polls[settled];
  if (poll) return { as: status(poll), poll: settled + 1, at: poll.at };
  // Never finished while recorded: it stays pending until it expires.
  return polls.length ? { as: 'expired', at: 0 } : undefined;
}

/** The label of the credential the integration listed after the attempt completed. */
function labelAfter(timeline: Timeline, start: RecordedStart, after: number): string | undefined {
  for (const step of timeline.steps) {
    if (step.at < Math.max(after, start.step.at) || step.operation?.operationId !== 'v2.integration.list') continue;
    if (!trusted(step)) continue;
    const integration = ((dataOf(step) as JsonObject[] | undefined) ?? []).find((i) => i.id === start.integrationID);
    const credential = ((integration?.connections as JsonObject[] | undefined) ?? []).find(
      (c) => c.type === 'credential',
    );
    if (typeof credential?.label === 'string') return credential.label;
  }
  return undefined;
}

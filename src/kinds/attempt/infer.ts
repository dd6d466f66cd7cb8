/**
 * OAuth attempts from traffic (scenario-from, the attempt kind's part): polled until they settle, with the
 * credential the integration listed after. Those a recorded request started are the integration kind's to
 * infer (its method's `attempt`: the world starts them alike), unless the world's start could not match the
 * recorded one; such an attempt is the scenario's own, and a rule answers its start as recorded, once. The
 * integration an attempt belongs to must be declared: when the integration kind did not infer it, the first
 * with an OAuth method is taken, or a stand-in is added here.
 */
import type { Step, Timeline } from '../inference.js';
import { ATTEMPT_LIFETIME } from '../integration/flows.js';
import { attemptsTheWorldStarts, recordedStarts } from '../integration/infer.js';
import {
  dataOf,
  formatDuration,
  instant,
  trusted,
  type InferenceSoFar,
  type Inferred,
  type JsonObject,
  type Part,
} from '../inference.js';

export function inferAttempts(timeline: Timeline, inference: InferenceSoFar): Inferred {
  // Those the world starts itself, from their method's inferred `attempt`, are not the scenario's.
  const started = attemptsTheWorldStarts(timeline, inference.integrations ?? []);
  const attempts = attemptsOf(timeline).filter((p) => !started.has((p.value as JsonObject).id as string));
  const kept = new Set(attempts.map((p) => (p.value as JsonObject).id));
  const rules = recordedStarts(timeline)
    .filter((start) => kept.has(start.attempt.attemptID))
    .map(({ step }): Part => {
      const when: JsonObject = { operation: 'v2.integration.connect.oauth', params: step.params };
      if (step.at > 0) when.after = formatDuration(step.at);
      return {
        value: { when, then: { status: step.status, body: step.answer }, times: 1 },
        from: [step],
        note: "its attempt is the scenario's own (the world would stamp another id and time): started as recorded",
      };
    });
  return {
    attempts,
    integrations: undeclaredIntegrations(attempts, inference.integrations ?? []),
    ...(rules.length ? { rules } : {}),
  };
}

/** Gives each attempt an integration the inference declares; returns the stand-ins it had to declare. */
function undeclaredIntegrations(attempts: Part[], listed: readonly Part[]): Part[] {
  const integrations = listed.map((p) => p.value as JsonObject);
  const added: Part[] = [];
  for (const attempt of attempts) {
    const value = attempt.value as JsonObject;
    if (integrations.some((i) => i.id === value.integrationID)) continue;
    // Nothing recorded said whose attempt it was: the first integration with an OAuth method, else a stand-in.
    const oauth = integrations.find((i) =>
      ((i.methods as JsonObject[] | undefined) ?? []).some((m) => m.type === 'oauth'),
    );
    if (oauth && !value.integrationID) {
      value.integrationID = oauth.id;
      attempt.note =
        `${attempt.note ?? ''}\nintegrationID: not recorded; the first integration with an OAuth method`.trim();
      continue;
    }
    const id = (value.integrationID as string) || 'oauth-provider';
    value.integrationID = id;
    const standIn = { id, name: id, methods: [{ type: 'oauth', id: 'browser', label: 'Browser' }], connections: [] };
    added.push({ value: standIn, from: attempt.from, note: 'not listed in the recording: declared for its attempt' });
    integrations.push(standIn);
  }
  return added;
}

function attemptsOf(timeline: Timeline): Part[] {
  const polls = timeline.steps.filter(
    (s) => s.operation?.operationId === 'v2.integration.attempt.status' && trusted(s) && s.status === 200,
  );
  const ids = [...new Set(polls.map((s) => s.params.attemptID as string))];
  return ids.map((id): Part => {
    const mine = polls.filter((s) => s.params.attemptID === id);
    const answers = mine.map((s) => dataOf(s) as JsonObject);
    const time = (answers[0] as JsonObject).time as { created: number; expires: number };
    const { integrationID, from: startedBy } = integrationOf(timeline, id, mine);
    const value: JsonObject = {
      id,
      integrationID: integrationID ?? '',
      created: instant(time.created, timeline.origin),
    };
    if (time.expires - time.created !== ATTEMPT_LIFETIME) value.expires = formatDuration(time.expires - time.created);
    const settled = answers.findIndex((a) => a.status === 'complete' || a.status === 'failed');
    const notes = [`polled: ${answers.map((a) => a.status as string).join(', ')}`];
    const from = [...startedBy, ...mine];
    if (settled >= 0) {
      const outcome = answers[settled] as JsonObject;
      const settles: JsonObject = { as: outcome.status, poll: settled + 1 };
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
      (dataOf(s) as JsonObject | undefined)?.attemptID === attemptID,
  );
  if (start) return { integrationID: decodeURIComponent(start.path.split('/')[3] as string), from: [start] };
  const settled = timeline.events.find(
    (e) => e.type === 'integration.attempt.settled' && e.data.attemptID === attemptID,
  );
  if (settled) return { integrationID: settled.data.integrationID as string, from: [] };
  const completing = polls.find((p) => (dataOf(p) as JsonObject).status === 'complete');
  const announced =
    completing && timeline.events.find((e) => e.type === 'integration.connection.updated' && e.at >= completing.at);
  return { integrationID: announced ? (announced.data.integrationID as string) : undefined, from: [] };
}

function credentialAfter(
  timeline: Timeline,
  integrationID: string,
  poll: Step,
): { value: JsonObject; step: Step } | undefined {
  for (const step of timeline.steps) {
    if (step.at < poll.at || step.operation?.operationId !== 'v2.integration.list' || !trusted(step)) continue;
    const integration = ((dataOf(step) as JsonObject[] | undefined) ?? []).find((i) => i.id === integrationID);
    const credential = ((integration?.connections as JsonObject[] | undefined) ?? []).find(
      (c) => c.type === 'credential',
    );
    if (credential)
      return {
        value: { id: credential.id, ...(typeof credential.label === 'string' ? { label: credential.label } : {}) },
        step,
      };
  }
  return undefined;
}

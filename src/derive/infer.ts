/**
 * A recording's world, inferred: what its traffic shows existing becomes initial state, what it shows
 * changing becomes a lifecycle. Each part keeps the interactions it came from. What no lifecycle explains is
 * left to scenario-from, which holds the result against the recording and scripts the rest as rules.
 */
import { inferAttempts, inferForms, inferShells } from './infer-lifecycles.js';
import { inferLocation } from './infer-location.js';
import { inferSessions } from './infer-sessions.js';
import { emptyDraft, SECTIONS, type Draft, type Json, type Part } from './parts.js';
import type { Timeline } from './timeline.js';

export function inferDraft(timeline: Timeline): Draft {
  const draft = emptyDraft();
  Object.assign(draft, inferLocation(timeline));
  const { sessions, turns } = inferSessions(timeline);
  draft.sessions = sessions;
  draft.turns = turns;
  draft.forms = inferForms(timeline);
  draft.shells = inferShells(timeline);
  draft.attempts = inferAttempts(timeline);
  closeReferences(draft);
  return draft;
}

/** What parts name must be declared: a form's session, an attempt's integration. */
function closeReferences(draft: Draft): void {
  const sessionIds = new Set(draft.sessions.map((p) => (p.value as Json).id));
  for (const form of draft.forms) {
    const sessionID = (form.value as Json).sessionID as string;
    if (sessionIds.has(sessionID)) continue;
    draft.sessions.push({ value: { id: sessionID }, from: form.from, note: 'declared for its form' });
    sessionIds.add(sessionID);
  }
  const integrations = draft.integrations.map((p) => p.value as Json);
  for (const attempt of draft.attempts) {
    const value = attempt.value as Json;
    if (integrations.some((i) => i.id === value.integrationID)) continue;
    // Nothing recorded said whose attempt it was: the first integration with an OAuth method, else a stand-in.
    const oauth = integrations.find((i) => ((i.methods as Json[] | undefined) ?? []).some((m) => m.type === 'oauth'));
    if (oauth && !value.integrationID) {
      value.integrationID = oauth.id;
      attempt.note =
        `${attempt.note ?? ''}\nintegrationID: not recorded; the first integration with an OAuth method`.trim();
      continue;
    }
    const id = (value.integrationID as string) || 'oauth-provider';
    value.integrationID = id;
    const standIn = { id, name: id, methods: [{ type: 'oauth', id: 'browser', label: 'Browser' }], connections: [] };
    draft.integrations.push({
      value: standIn,
      from: attempt.from,
      note: 'not listed in the recording: declared for its attempt',
    });
    integrations.push(standIn);
  }
}

/** The draft as a scenario object, in the format's order. */
export function scenarioOf(draft: Draft, name: string, origin: number, extra: { description?: string } = {}): Json {
  const scenario: Json = { name };
  if (extra.description) scenario.description = extra.description;
  scenario.seed = name;
  scenario.start = new Date(origin).toISOString();
  for (const section of SECTIONS) {
    const parts = draft[section];
    if (!parts.length) continue;
    scenario[section] = SINGLE.has(section) ? (parts[0] as Part).value : parts.map((p) => p.value);
  }
  return scenario;
}

/** Sections whose one part is the whole value (a list of names, a record), not one item each. */
export const SINGLE = new Set(['project', 'references', 'plugins', 'files', 'model', 'projectCopy']);

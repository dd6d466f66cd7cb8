/**
 * Permissions from traffic (scenario-from, the permission kind's part): the requests listed pending that no
 * recorded request created, asked later when an event or an earlier listing says so, and the permissions
 * saved before the recording began. The sessions they name must be declared: one the session kind did not
 * infer is added here.
 */
import type { Step, Timeline } from '../inference.js';
import {
  between,
  dataOf,
  firstAnswer,
  formatDuration,
  trusted,
  type InferenceSoFar,
  type Inferred,
  type JsonObject,
  type Part,
  undeclaredSessions,
} from '../inference.js';

const LISTINGS = new Set(['v2.session.permission.list', 'v2.permission.request.list', 'v2.session.permission.get']);

export function inferPermissions(timeline: Timeline, inference: InferenceSoFar): Inferred {
  const requests = pendingRequests(timeline, 'v2.session.permission.create', LISTINGS, 'permission.v2.asked');
  const savedStep = firstAnswer(timeline, 'v2.permission.saved.list');
  const projectID = (inference.project[0]?.value as JsonObject | undefined)?.id;
  const saved = ((savedStep && (dataOf(savedStep) as JsonObject[] | undefined)) ?? []).map((s) => ({
    id: s.id,
    // The recording's own project is the one the scenario serves: no need to name it.
    ...(s.projectID === projectID ? {} : { projectID: s.projectID }),
    action: s.action,
    resource: s.resource,
  }));
  if (!requests.length && !saved.length) return {};
  const value: JsonObject = {};
  if (requests.length) value.requests = requests.map((p) => p.value);
  if (saved.length) value.saved = saved;
  const from = [...requests.flatMap((p) => p.from), ...(savedStep ? [savedStep] : [])];
  return {
    permissions: [{ value, from, events: requests.flatMap((p) => p.events ?? []), whole: true }],
    sessions: undeclaredSessions(requests, inference.sessions ?? [], 'declared for its pending request'),
  };
}

/**
 * Requests (permission or question) seen pending in listings and not created by a recorded request, in the
 * order first seen; `appears` when their asking event, or an earlier listing without them, puts it later.
 */
export function pendingRequests(
  timeline: Timeline,
  create: string,
  listings: ReadonlySet<string>,
  asked: string,
): Part[] {
  const created = new Set(
    timeline.steps
      .filter((s) => s.operation?.operationId === create && s.status === 200)
      .map((s) => (dataOf(s) as JsonObject | undefined)?.id),
  );
  const seen = timeline.steps.filter(
    (s) => listings.has(s.operation?.operationId ?? '') && trusted(s) && s.status === 200,
  );
  const records = new Map<string, { record: JsonObject; first: Step }>();
  for (const step of seen) {
    const data = dataOf(step);
    for (const record of (Array.isArray(data) ? data : [data]) as JsonObject[]) {
      const id = record?.id as string | undefined;
      if (id && !created.has(id) && !records.has(id)) records.set(id, { record, first: step });
    }
  }
  return [...records.values()].map(({ record, first }): Part => {
    const value: JsonObject = { ...record };
    const event = timeline.events.find((e) => e.type === asked && e.data.id === record.id);
    // The last listing before it that would have shown it (every session's, or its session's), without it.
    const missing = seen
      .filter((s) => s.at < first.at && Array.isArray(dataOf(s)))
      .filter((s) => s.params.sessionID === undefined || s.params.sessionID === record.sessionID)
      .pop();
    if (event && event.at > 0) value.appears = formatDuration(event.at);
    else if (missing) value.appears = formatDuration(between(missing.at + missing.durationMs, first.at));
    return {
      value,
      from: [first, ...(missing ? [missing] : [])],
      events: event ? [event] : [],
      note: !event && missing ? `appears: missing from #${missing.seq}, listed in #${first.seq}` : undefined,
    };
  });
}

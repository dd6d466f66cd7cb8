/** The workspaces a project had before the recording (scenario-from, the workspace kind's part). */
import type { Timeline } from '../inference.js';
import { firstAnswer, isObject, type Inferred, type JsonObject, type Part } from '../inference.js';

export function inferWorkspaces(timeline: Timeline): Inferred {
  const listed = firstAnswer(timeline, 'experimental.workspace.list');
  if (!listed || !Array.isArray(listed.answer)) return {};
  const earlier = (operationId: string) =>
    timeline.steps.filter((s) => s.operation?.operationId === operationId && s.seq < listed.seq);
  // Workspaces the recording created before it listed them are created again when it is played.
  const made = new Set(earlier('experimental.workspace.create').map((s) => (isObject(s.answer) ? s.answer.id : '')));
  const status = firstAnswer(timeline, 'experimental.workspace.status');
  const statusOf = new Map(
    (Array.isArray(status?.answer) ? (status.answer as JsonObject[]) : []).map((s) => [s.workspaceID, s.status]),
  );
  const parts: Part[] = [];
  for (const space of listed.answer as JsonObject[]) {
    if (!isObject(space) || typeof space.id !== 'string' || made.has(space.id)) continue;
    const value: JsonObject = { id: space.id, type: space.type, name: space.name };
    if (space.branch !== null && space.branch !== undefined) value.branch = space.branch;
    if (typeof space.directory === 'string') value.directory = space.directory;
    if (space.extra !== null && space.extra !== undefined) value.extra = space.extra;
    const known = statusOf.get(space.id);
    if (typeof known === 'string' && known !== 'connected') value.status = known;
    parts.push({ value, from: status && statusOf.has(space.id) ? [listed, status] : [listed] });
  }
  return parts.length ? { workspaces: parts } : {};
}

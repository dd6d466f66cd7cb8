/** PTYs the recording shows existing before it created any (scenario-from, the pty kind's part). */
import type { Timeline } from '../../derive/timeline.js';
import { dataOf, isObject, type Inferred, type Json, type Part } from '../draft.js';

export function inferPtys(timeline: Timeline): Inferred {
  return { ptys: ptysOf(timeline) };
}

/** PTYs the real server listed (outside the spec: GET /api/pty, GET /api/pty/{id}) that the recording did not create. */
function ptysOf(timeline: Timeline): Part[] {
  const created = new Set(
    timeline.steps
      .filter((s) => s.operation?.operationId === 'v2.pty.create')
      .map((s) => (dataOf(s) as Json | undefined)?.id),
  );
  const parts = new Map<string, Part>();
  for (const step of timeline.steps) {
    if (step.operation || step.method !== 'GET' || !/^\/api\/pty(\/pty[^/]+)?$/.test(step.path) || step.status !== 200)
      continue;
    const data = dataOf(step);
    for (const pty of Array.isArray(data) ? (data as Json[]) : isObject(data) ? [data] : []) {
      const id = pty.id as string;
      if (typeof id !== 'string' || created.has(id) || parts.has(id)) continue;
      const value: Json = { id };
      for (const key of ['title', 'command', 'args', 'cwd', 'pid'] as const)
        if (pty[key] !== undefined) value[key] = pty[key];
      parts.set(id, { value, from: [step] });
    }
  }
  return [...parts.values()];
}

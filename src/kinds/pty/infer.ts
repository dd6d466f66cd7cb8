/**
 * PTYs the recording shows existing before it created any (scenario-from, the pty kind's part): each as the
 * first trusted list or get answer shows it, in the location it was listed in.
 */
import type { Step, Timeline } from '../inference.js';
import { dataOf, isObject, trusted, type Inferred, type JsonObject, type Part } from '../inference.js';

export function inferPtys(timeline: Timeline): Inferred {
  return { ptys: ptysOf(timeline) };
}

const READS = new Set(['v2.pty.list', 'v2.pty.get', 'v2.pty.update']);

/** The location's directory an answer names, where it is one of its own (absolute, not the project's root). */
function directoryOf(step: Step): string | undefined {
  const location = isObject(step.answer) ? step.answer.location : undefined;
  if (!isObject(location) || typeof location.directory !== 'string' || !location.directory.startsWith('/'))
    return undefined;
  const project = isObject(location.project) ? location.project.directory : undefined;
  return location.directory === project ? undefined : location.directory;
}

function ptysOf(timeline: Timeline): Part[] {
  const created = new Set(
    timeline.steps
      .filter((s) => s.operation?.operationId === 'v2.pty.create')
      .map((s) => (dataOf(s) as JsonObject | undefined)?.id),
  );
  const parts = new Map<string, Part>();
  for (const step of timeline.steps) {
    if (!READS.has(step.operation?.operationId ?? '') || !trusted(step) || step.status !== 200) continue;
    const data = dataOf(step);
    for (const pty of Array.isArray(data) ? (data as JsonObject[]) : isObject(data) ? [data] : []) {
      const id = pty.id as string;
      if (typeof id !== 'string' || created.has(id) || parts.has(id)) continue;
      const value: JsonObject = { id };
      for (const key of ['title', 'command', 'args', 'cwd', 'pid'] as const)
        if (pty[key] !== undefined) value[key] = pty[key];
      const directory = directoryOf(step);
      if (directory) value.directory = directory;
      if (pty.status === 'exited') Object.assign(value, { status: 'exited', exitCode: pty.exitCode ?? 0 });
      parts.set(id, { value, from: [step] });
    }
  }
  return [...parts.values()];
}

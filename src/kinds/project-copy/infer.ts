/**
 * Project copies from a recording (scenario-from, the project copy kind's part): a copy failure every
 * creation met, and the copies that existed before it (removed without being created in it; dirty when a
 * removal asked for force).
 */
import { posix } from 'node:path';
import type { Step, Timeline } from '../inference.js';
import { isObject, type Inferred, type JsonObject } from '../inference.js';

const isCopyError = (s: Step) => isObject(s.answer) && s.answer.name === 'ProjectCopyError';

export function inferProjectCopy(timeline: Timeline): Inferred {
  const value: JsonObject = {};
  const from: Step[] = [];
  const copies = timeline.steps.filter((s) => s.operation?.operationId === 'v2.projectCopy.create');
  const failed = copies.filter((s) => s.status === 400 && isCopyError(s));
  // The scenario's copy error answers every copy: it says so only when every recorded copy failed alike.
  if (failed.length && failed.length === copies.length) {
    const data = (failed[0] as Step).answer as { data: { message: string; forceRequired?: boolean | null } };
    value.error = { message: data.data.message, forceRequired: data.data.forceRequired ?? false };
    from.push(...failed);
  }
  const existing = existingCopies(timeline, copies);
  if (existing.copies.length) {
    value.copies = existing.copies;
    from.push(...existing.from);
  }
  return Object.keys(value).length ? { projectCopy: [{ value, from, whole: true }] } : {};
}

/** Copies a removal found (204, or refused for changes) that no creation of the recording made before it. */
function existingCopies(timeline: Timeline, creations: Step[]): { copies: JsonObject[]; from: Step[] } {
  const made = new Set(
    creations.flatMap((s) =>
      s.status === 200 && isObject(s.answer) && typeof s.answer.directory === 'string' ? [s.answer.directory] : [],
    ),
  );
  const found = new Map<string, { dirty: boolean; from: Step[] }>();
  for (const step of timeline.steps) {
    if (step.operation?.operationId !== 'v2.projectCopy.remove' || !isObject(step.body)) continue;
    const directory = step.body.directory;
    if (typeof directory !== 'string' || !directory.startsWith('/')) continue;
    const path = posix.resolve(directory);
    const dirty =
      step.status === 400 && isCopyError(step) && (step.answer as JsonObject & { data: JsonObject }).data.forceRequired;
    if (made.has(path) || (step.status !== 204 && dirty !== true)) continue;
    const known = found.get(path) ?? { dirty: false, from: [] };
    found.set(path, { dirty: known.dirty || dirty === true, from: [...known.from, step] });
  }
  return {
    copies: [...found].map(([directory, c]) => (c.dirty ? { directory, dirty: true } : { directory })),
    from: [...found.values()].flatMap((c) => c.from),
  };
}

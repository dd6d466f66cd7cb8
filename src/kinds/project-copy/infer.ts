/** A project copy that fails (scenario-from, the project copy kind's part). */
import type { Step, Timeline } from '../../derive/timeline.js';
import { isObject, type Inferred } from '../draft.js';

export function inferProjectCopy(timeline: Timeline): Inferred {
  const copies = timeline.steps.filter((s) => s.operation?.operationId === 'v2.projectCopy.create');
  const failed = copies.filter((s) => s.status === 400 && isObject(s.answer) && s.answer.name === 'ProjectCopyError');
  // The scenario's copy error answers every copy: it says so only when every recorded copy failed alike.
  if (!failed.length || failed.length !== copies.length) return {};
  const data = (failed[0] as Step).answer as { data: { message: string; forceRequired?: boolean | null } };
  const error = { message: data.data.message, forceRequired: data.data.forceRequired ?? false };
  return { projectCopy: [{ value: { error }, from: failed, whole: true }] };
}

/** The worktrees a project had before the recording (scenario-from, the worktree kind's part). */
import { posix } from 'node:path';
import type { Timeline } from '../inference.js';
import { firstAnswer, isObject, type Inferred, type Part } from '../inference.js';

export function inferWorktrees(timeline: Timeline): Inferred {
  const listed = firstAnswer(timeline, 'worktree.list');
  if (!listed || !Array.isArray(listed.answer)) return {};
  // Those the recording made before it listed them are made again when it is played.
  const made = new Set(
    timeline.steps.flatMap((s) =>
      s.operation?.operationId === 'worktree.create' && s.seq < listed.seq && isObject(s.answer)
        ? [s.answer.directory]
        : [],
    ),
  );
  const parts: Part[] = [];
  for (const directory of listed.answer as unknown[]) {
    if (typeof directory !== 'string' || made.has(directory)) continue;
    parts.push({ value: { name: posix.basename(directory), directory }, from: [listed] });
  }
  return parts.length ? { worktrees: parts } : {};
}

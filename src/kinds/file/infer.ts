/**
 * The project's file tree from its directory listings (scenario-from, the file kind's part), relative to the
 * project the draft declares (else to each listing's own directory).
 */
import { posix } from 'node:path';
import type { Timeline } from '../../derive/timeline.js';
import { dataOf, trusted, type DraftSoFar, type Inferred, type Part } from '../draft.js';

export function inferFiles(timeline: Timeline, draft: DraftSoFar): Inferred {
  const files = filesOf(timeline, draft.project[0]?.value as { directory: string } | undefined);
  return files ? { files: [files] } : {};
}

/** Every directory listing, its entries made relative to the project, as one list of paths. */
function filesOf(timeline: Timeline, project: { directory: string } | undefined): Part | undefined {
  const listings = timeline.steps.filter(
    (s) => s.operation?.operationId === 'v2.fs.list' && trusted(s) && s.status === 200,
  );
  const paths = new Set<string>();
  for (const step of listings) {
    const location = (step.answer as { location: { directory: string } }).location;
    const root = project?.directory ?? location.directory;
    const base = posix.relative(root, posix.resolve(root, location.directory));
    if (base.startsWith('..')) continue; // outside the project: not part of its tree
    for (const entry of (dataOf(step) as Array<{ path: string }> | undefined) ?? [])
      paths.add(base ? `${base}/${entry.path}` : entry.path);
  }
  if (!paths.size) return undefined;
  // A directory listed with its contents is implied by them.
  const list = [...paths].filter((p) => !(p.endsWith('/') && [...paths].some((q) => q !== p && q.startsWith(p))));
  return { value: list.sort(), from: listings, whole: true };
}

/**
 * The project's file tree from what a recording shows of it (scenario-from, the file kind's part): directory
 * listings and searches name paths, reads give a file its contents. Paths are made relative to the project the
 * inference declares (else to each answer's own directory).
 */
import { posix } from 'node:path';
import type { Step, Timeline } from '../inference.js';
import { dataOf, isObject, trusted, type InferenceSoFar, type Inferred, type Part } from '../inference.js';

export function inferFiles(timeline: Timeline, inference: InferenceSoFar): Inferred {
  const files = filesOf(timeline, inference.project[0]?.value as { directory: string } | undefined);
  return files ? { files: [files] } : {};
}

type Item = string | { path: string; content: string };

/** Text a recording keeps of a file (a recording holds answers as text: a binary file's bytes are not kept). */
const TEXT = /^(text\/|application\/(json|xml|toml|sql|node|x-sh)|image\/svg\+xml|video\/mp2t)/;

/** The directory an answer's paths are relative to, relative to the project; undefined outside it. */
function baseOf(step: Step, root: string | undefined): string | undefined {
  const location = step.query['location[directory]'];
  const answered = isObject(step.answer) ? (step.answer.location as { directory?: string } | undefined) : undefined;
  const directory = answered?.directory ?? (typeof location === 'string' ? location : undefined);
  const from = root ?? directory ?? '/';
  const base = posix.relative(from, posix.resolve(from, directory ?? from));
  return base.startsWith('..') ? undefined : base;
}

/** A read file's text: as recorded, or a JSON file the recording kept parsed. */
function textOf(answer: unknown): string | undefined {
  if (typeof answer === 'string') return answer;
  return answer !== null && typeof answer === 'object' ? `${JSON.stringify(answer, null, 2)}\n` : undefined;
}

function filesOf(timeline: Timeline, project: { directory: string } | undefined): Part | undefined {
  const root = project?.directory;
  const from: Step[] = [];
  const paths = new Set<string>();
  const contents = new Map<string, string>();
  for (const step of timeline.steps) {
    const id = step.operation?.operationId;
    if (step.status !== 200) continue;
    if ((id === 'v2.fs.list' || id === 'v2.fs.find') && trusted(step)) {
      const base = baseOf(step, root);
      if (base === undefined) continue; // outside the project: not part of its tree
      from.push(step);
      for (const entry of (dataOf(step) as Array<{ path: string }> | undefined) ?? [])
        if (entry.path !== '/') paths.add(base ? `${base}/${entry.path}` : entry.path);
    } else if (id === 'v2.fs.read') {
      const type = step.interaction.response.headers['content-type'] ?? '';
      const text = textOf(step.answer);
      const base = baseOf(step, root);
      const name = step.params['*'];
      if (base === undefined || !name || text === undefined || !TEXT.test(type)) continue;
      const path = posix.join(base, name);
      if (path.startsWith('..')) continue;
      from.push(step);
      paths.add(path);
      contents.set(path, text);
    }
  }
  if (!paths.size) return undefined;
  // A directory listed with its contents is implied by them.
  const list = [...paths].filter((p) => !(p.endsWith('/') && [...paths].some((q) => q !== p && q.startsWith(p))));
  const items: Item[] = list.sort().map((path) => {
    const content = contents.get(path);
    return content === undefined ? path : { path, content };
  });
  return { value: items, from, whole: true };
}

/**
 * What the traffic shows of the place the server runs in: the project, the integrations it lists before
 * anything changed them, references, plugins, the file tree behind its directory listings, the default model,
 * a project copy that fails, and PTYs that existed before the recording created any.
 */
import { posix } from 'node:path';
import { dataOf, isObject, trusted, type Json, type Part } from './parts.js';
import type { Step, Timeline } from './timeline.js';

type Found = Partial<
  Record<'project' | 'integrations' | 'references' | 'plugins' | 'files' | 'model' | 'projectCopy' | 'ptys', Part[]>
>;

const first = (timeline: Timeline, operationId: string) =>
  timeline.steps.find((s) => s.operation?.operationId === operationId && trusted(s) && s.status === 200);

export function inferLocation(timeline: Timeline): Found {
  const found: Found = {};
  const project = projectOf(timeline);
  if (project) found.project = [project];
  const integrations = first(timeline, 'v2.integration.list');
  if (integrations)
    found.integrations = ((dataOf(integrations) as Json[] | undefined) ?? []).map((value) => ({
      value,
      from: [integrations],
    }));
  const references = first(timeline, 'v2.reference.list');
  if (references) found.references = [{ value: dataOf(references) ?? [], from: [references] }];
  const plugins = pluginsOf(timeline);
  if (plugins) found.plugins = [plugins];
  const files = filesOf(timeline, project?.value as { directory: string } | undefined);
  if (files) found.files = [files];
  const model = first(timeline, 'v2.model.default');
  if (model && isObject(dataOf(model))) found.model = [{ value: dataOf(model), from: [model] }];
  const copies = timeline.steps.filter((s) => s.operation?.operationId === 'v2.projectCopy.create');
  const failed = copies.filter((s) => s.status === 400 && isObject(s.answer) && s.answer.name === 'ProjectCopyError');
  // The scenario's copy error answers every copy: it says so only when every recorded copy failed alike.
  if (failed.length && failed.length === copies.length) {
    const data = (failed[0] as Step).answer as { data: { message: string; forceRequired?: boolean | null } };
    found.projectCopy = [
      {
        value: { error: { message: data.data.message, forceRequired: data.data.forceRequired ?? false } },
        from: failed,
      },
    ];
  }
  const ptys = ptysOf(timeline);
  if (ptys.length) found.ptys = ptys;
  return found;
}

/** The project: `location.project` of an answer about the project itself. */
function projectOf(timeline: Timeline): Part | undefined {
  for (const step of timeline.steps) {
    if (!step.operation || step.stream || !isObject(step.answer)) continue;
    const location = step.answer.location as
      { directory?: string; project?: { id: string; directory: string } } | undefined;
    const project = location?.project;
    if (project && project.id !== 'global' && project.directory.startsWith('/'))
      return { value: { directory: project.directory, id: project.id }, from: [step] };
  }
  return undefined;
}

/** GET /api/plugin's list, else the `plugin.added` events a fresh server announces its plugins with. */
function pluginsOf(timeline: Timeline): Part | undefined {
  const listed = first(timeline, 'v2.plugin.list');
  if (listed) return { value: ((dataOf(listed) as Json[] | undefined) ?? []).map((p) => p.id), from: [listed] };
  const added = timeline.events.filter((e) => e.type === 'plugin.added' && typeof e.data.id === 'string');
  if (!added.length) return undefined;
  return {
    value: [...new Set(added.map((e) => e.data.id as string))],
    from: [],
    events: added.slice(0, 1),
    note: `from ${added.length} plugin.added events (GET /api/plugin was not recorded)`,
  };
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
  return { value: list.sort(), from: listings };
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

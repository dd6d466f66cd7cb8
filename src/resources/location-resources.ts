/**
 * Resources of a location that a scenario declares as plain data: PTYs started on request, references,
 * plugins, the project's file tree, the default model and project copies. An operation whose data the
 * scenario leaves out falls through to the spec's examples, except where an empty answer is the truth.
 */
import { posix } from 'node:path';
import { InvalidRequestError, ProjectCopyError } from '../errors.js';
import { resolveLocation, type LocationInfo, type ProjectContext } from '../openapi/location.js';
import { createRandom } from '../state/random.js';
import type { AcceptedRequest } from '../exchange/layer.js';
import type { World } from '../state/world.js';
import { jsonAnswer } from '../exchange/exchange.js';
import { draft } from '../state/events.js';
import { answered, locationAnswer, type ResourceModule } from './resource.js';

/** Shells the real server starts as login shells (it appends `-l` to their args). */
const POSIX_SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh']);
/** Commands that wait for a person at the terminal rather than end by themselves. */
const INTERACTIVE_SHELLS = new Set([...POSIX_SHELLS, 'fish', 'nu', 'pwsh']);
const DEFAULT_COMMAND = '/bin/bash';
/**
 * How long a command that is not an interactive shell runs in a PTY before it exits 0. The real server's PTY
 * ends when its command does (`true` at once); the simulator cannot run the command, so it gives every one
 * the same short, deterministic life, and keeps shells running until the PTY is removed.
 */
export const PTY_COMMAND_RUN_MS = 1000;
/** Scenario PTYs take pids from 7400 on; new ones continue the run. */
const FIRST_PID = 7400;

const ADJECTIVES = ['kind', 'quiet', 'brave', 'calm', 'bright', 'swift', 'gentle', 'bold'] as const;
const NOUNS = ['harbor', 'river', 'otter', 'falcon', 'meadow', 'forest', 'comet', 'summit'] as const;

/** The location's directory as an absolute path; a relative one is taken from the project directory, as the real server takes it from its cwd. */
function absoluteDirectory(project: ProjectContext, location: LocationInfo): string {
  return posix.resolve(project.directory, location.directory);
}

function within(parent: string, path: string): boolean {
  return path === parent || path.startsWith(parent === '/' ? '/' : `${parent}/`);
}

function nextPid(world: World): number {
  const taken = new Set([...world.ptys.values()].map((p) => p.definition.record.pid));
  let pid = FIRST_PID + world.ptys.size;
  // Scenario PTYs may carry their own pids; two live processes never share one.
  while (taken.has(pid)) pid++;
  return pid;
}

/** The key of a directory in the scenario's file tree: relative to the project, '' for its root, else ending in '/'. */
function treeKey(project: ProjectContext, absolute: string): string {
  const relative = posix.relative(project.directory, absolute);
  return relative === '' ? '' : `${relative}/`;
}

function listDirectory(world: World, project: ProjectContext, request: AcceptedRequest, location: LocationInfo) {
  const base = absoluteDirectory(project, location);
  // Another directory is another project, whose files the scenario does not describe.
  if (!within(project.directory, base)) return [];
  const files = world.scenario.files;
  const path = request.query.path as string | undefined;
  const target = posix.resolve(base, path ?? '.');
  // Without a path the location itself is what does not exist, so the error points there.
  const [field, shown] = path === undefined ? ['location[directory]', location.directory] : ['path', path];
  if (!within(base, target)) throw new InvalidRequestError(`Path is outside the location: ${shown}`, 'Query', field);
  const key = treeKey(project, target);
  const entries = files.get(key);
  if (!entries) {
    const siblings = files.get(treeKey(project, posix.dirname(target))) ?? [];
    const isFile = siblings.some((e) => e.type === 'file' && `${e.path}/` === key);
    throw new InvalidRequestError(`${isFile ? 'Not a directory' : 'No such directory'}: ${shown}`, 'Query', field);
  }
  // Entries are stored relative to the project; the real server answers relative to the location.
  const strip = treeKey(project, base).length;
  return entries.map((e) => ({ path: e.path.slice(strip), type: e.type }));
}

/** An adjective-noun name like the real server's, from the scenario's seed so a replay names copies alike. */
function copyName(world: World): string {
  const random = createRandom(`${world.scenario.seed}:copy:${world.copies.size}`);
  return `${random.pick(ADJECTIVES)}-${random.pick(NOUNS)}`;
}

export const locationResources: ResourceModule = {
  handlers: {
    'v2.pty.create': (request, context) => {
      const { world, now, project } = context;
      const body = (request.body ?? {}) as { command?: string; args?: string[]; cwd?: string; title?: string };
      const id = world.ids.ascending('pty_', now);
      // An empty command could not be started; treat it like an omitted one rather than record a PTY running nothing.
      const command = body.command || DEFAULT_COMMAND;
      const args = [...(body.args ?? [])];
      if (POSIX_SHELLS.has(posix.basename(command))) args.push('-l');
      const record = {
        id,
        title: body.title ?? `Terminal ${id.slice(-4)}`,
        command,
        args,
        cwd: body.cwd ?? absoluteDirectory(project, resolveLocation(project, request.query.location)),
        status: 'running',
        pid: nextPid(world),
      };
      // A shell stays open for its user, unless it was given a command to run (`sh -c "…"`), as the real server's PTYs do.
      const interactive = INTERACTIVE_SHELLS.has(posix.basename(command)) && !args.includes('-c');
      const exits = interactive ? undefined : { exitsAt: now + PTY_COMMAND_RUN_MS };
      const created = draft('pty.created', { info: record }, exits);
      return answered(locationAnswer(request, context, record), created);
    },

    'v2.reference.list': (request, context) => {
      const location = resolveLocation(context.project, request.query.location);
      // References are project configuration: a directory outside the project has none.
      const here = within(context.project.directory, absoluteDirectory(context.project, location));
      return answered(jsonAnswer(200, { location, data: here ? context.world.scenario.references : [] }));
    },

    'v2.plugin.list': (request, context) => {
      const { plugins } = context.world.scenario;
      if (plugins.length === 0) return undefined;
      return answered(
        locationAnswer(
          request,
          context,
          plugins.map((id) => ({ id })),
        ),
      );
    },

    'v2.fs.list': (request, context) => {
      const { world, project } = context;
      if (world.scenario.files.get('')?.length === 0) return undefined;
      const location = resolveLocation(project, request.query.location);
      return answered(jsonAnswer(200, { location, data: listDirectory(world, project, request, location) }));
    },

    'v2.model.default': (request, context) => {
      const { model } = context.world.scenario;
      return model ? answered(locationAnswer(request, context, model)) : undefined;
    },

    'v2.projectCopy.create': (request, { world, project }) => {
      const scripted = world.scenario.projectCopy.error;
      if (scripted) throw new ProjectCopyError(scripted.message, scripted.forceRequired ?? false);
      const location = resolveLocation(project, request.query.location);
      const source = absoluteDirectory(project, location);
      // Only the simulated project is a repository; anything else has no HEAD to copy.
      if (request.pathParams.projectID !== project.id || location.project.id !== project.id) {
        throw new ProjectCopyError(`Project copy source not found: ${source}`);
      }
      const body = request.body as { directory: string; name?: string };
      const base = posix.join(posix.resolve(source, body.directory), body.name || copyName(world));
      const taken = (directory: string) => world.copies.has(directory) || directory === project.directory;
      let directory = base;
      for (let n = 2; taken(directory); n++) directory = `${base}-${n}`;
      const projectID = project.id;
      return answered(
        jsonAnswer(200, { directory }),
        draft('project.copy.created', { projectID, directory }),
        draft('project.directories.updated', { projectID }),
      );
    },
  },

  appliers: {
    'pty.created': (world, { data, metadata }) => {
      const exitsAt = typeof metadata?.exitsAt === 'number' ? metadata.exitsAt : undefined;
      world.ptys.set(data.info.id, {
        definition: { record: data.info },
        status: 'running',
        ...(exitsAt === undefined ? {} : { exitsAt }),
      });
    },
    'pty.exited': (world, { data }) => {
      const pty = world.ptys.get(data.id);
      if (pty) Object.assign(pty, { status: 'exited', exitCode: data.exitCode });
    },
    'project.copy.created': (world, { data }) => {
      world.copies.add(data.directory);
    },
  },

  timeline: {
    kind: 'pty',
    ids: (world) => world.ptys.keys(),
    next(world, id) {
      const pty = world.ptys.get(id);
      return pty?.status === 'running' ? pty.exitsAt : undefined;
    },
    fire(world, id, now) {
      const pty = world.ptys.get(id);
      if (pty?.status !== 'running' || pty.exitsAt === undefined || pty.exitsAt > now) return [];
      return [draft('pty.exited', { id, exitCode: 0 })];
    },
  },
};

/**
 * Shell command lifecycles: running until the scripted completion (with its exit code) or until the timeout
 * passes on the virtual clock, whichever comes first; a timeout update replaces the deadline counted from now
 * (milliseconds, 0 clears it) and is a no-op on a command that is no longer running.
 */
import { parseDuration } from '../../text/duration.js';
import { ShellNotFoundError } from './errors.js';
import { draft } from '../../state/events.js';
import type { World } from '../../state/world.js';
import { answered, changeState, locationAnswer, reportDuplicates } from '../answers.js';
import type { JsonObject, Kind } from '../kind.js';
import { condition, format } from './format.js';
import type { ShellSection } from './section.generated.js';
import type { ShellDefinition, ShellState, ShellStatus } from './types.js';

/** The command as the API shows it (`ShellCommand`); a command with no `cwd` runs in the project directory. */
export function shellRecord(shell: ShellState, projectDirectory: string): JsonObject {
  const { definition, status, completed, exit } = shell;
  return {
    id: definition.id,
    status,
    command: definition.command,
    cwd: definition.cwd ?? projectDirectory,
    shell: definition.shell,
    file: definition.file ?? `/tmp/session-agent/shell/${definition.id}.log`,
    metadata: definition.metadata ?? {},
    time: completed === undefined ? { started: definition.started } : { started: definition.started, completed },
    pid: definition.pid,
    ...(exit === undefined ? {} : { exit }),
  };
}

function shellOrThrow(world: World, id: string | undefined): ShellState {
  const shell = world.shells.get(id ?? '');
  // A command scheduled to start later does not exist yet.
  if (!shell || shell.status === 'scheduled') throw new ShellNotFoundError(id ?? '');
  return shell;
}

/** The command as it stands at `start`: it may not have started yet, or have ended already. */
function seedShell(definition: ShellDefinition, start: number): ShellState {
  // A command that starts later does not exist until then (the timeline starts it).
  const state: ShellState = {
    definition,
    status: definition.started > start ? 'scheduled' : 'running',
    deadline: definition.deadline,
  };
  // One started before the start may have ended by then: whichever came first, as the timeline decides later.
  const { completes: done, deadline } = definition;
  if (done && done.at <= start && (deadline === undefined || done.at < deadline))
    Object.assign(state, { status: 'exited', completed: done.at, exit: done.exit });
  else if (deadline !== undefined && deadline <= start)
    Object.assign(state, { status: 'timeout', completed: deadline });
  return state;
}

const STATES: readonly ShellStatus[] = ['scheduled', 'running', 'exited', 'timeout'];

export const shell: Kind<ShellSection> = {
  name: 'shell',
  format,
  // A bare `id` is safe to claim: the error is answered only where an operation declares ShellNotFoundError.
  notFound: { param: 'id', error: (id) => new ShellNotFoundError(id) },
  condition,
  states: STATES,
  transitions: [
    ['scheduled', 'running'],
    ['running', 'exited'],
    ['running', 'timeout'],
  ],

  read(source, context) {
    const shells = (source.shells ?? []).map((sh, i): ShellDefinition => {
      const timeout = sh.timeout;
      const completes = sh.completes;
      const started = sh.starts === undefined ? context.start : context.instant(sh.starts, ['shells', i, 'starts']);
      // A command's times are its own: its timeout and completion count from when it starts.
      const after = (value: string | number) => started + (parseDuration(value) ?? 0);
      return {
        id: sh.id,
        command: sh.command,
        cwd: sh.cwd,
        shell: sh.shell ?? '/bin/bash',
        pid: sh.pid ?? 4100 + i,
        file: sh.file,
        metadata: sh.metadata,
        started,
        deadline: timeout ? started + timeout : undefined,
        completes: completes ? { at: after(completes.after), exit: completes.exit ?? 0 } : undefined,
      };
    });
    reportDuplicates(
      shells.map((s) => s.id),
      'shells',
      'shell',
      context,
    );
    return { shells };
  },

  ids: (scenario) => scenario.shells.map((s) => s.id),

  possible(scenario) {
    return scenario.shells.flatMap((sh) => {
      if (sh.completes && sh.completes.at <= scenario.start) return [];
      return [
        ...(sh.started > scenario.start ? [{ id: sh.id, from: 'scheduled', to: 'running' }] : []),
        ...(sh.completes ? [{ id: sh.id, from: 'running', to: 'exited' }] : []),
        // A timeout update can give any running command a deadline.
        { id: sh.id, from: 'running', to: 'timeout' },
      ];
    });
  },

  seed: (scenario) => ({
    shells: new Map(scenario.shells.map((definition) => [definition.id, seedShell(definition, scenario.start)])),
  }),

  stateOf: (world, id) => world.shells.get(id)?.status,

  snapshot: (world) => ({
    shells: [...world.shells.values()].map((sh) => ({
      id: sh.definition.id,
      state: sh.status,
      deadline: sh.deadline ?? null,
    })),
  }),

  handlers: {
    'v2.shell.get': (request, context) =>
      answered(
        locationAnswer(
          request,
          context,
          shellRecord(shellOrThrow(context.world, request.pathParams.id), context.project.directory),
        ),
      ),

    'v2.shell.timeout': (request, context) => {
      const found = shellOrThrow(context.world, request.pathParams.id);
      const answer = locationAnswer(request, context, shellRecord(found, context.project.directory));
      if (found.status !== 'running') return answered(answer);
      const timeout = (request.body as { timeout: number }).timeout;
      return answered(answer, draft('shell.timeout.updated', { id: found.definition.id, timeout }));
    },
  },

  appliers: {
    'shell.created': (world, { data }) => changeState('shell', data.id, world.shells.get(data.id), 'running'),
    'shell.timeout.updated': (world, { data, time }) => {
      const found = world.shells.get(data.id);
      if (found) found.deadline = data.timeout === 0 ? undefined : time + data.timeout;
    },
    'shell.exited': (world, { data, time }) =>
      changeState('shell', data.id, world.shells.get(data.id), data.status, { completed: time, exit: data.exit }),
  },

  schedule: {
    ids: (world) => world.shells.keys(),
    next(world, id) {
      const found = world.shells.get(id);
      if (found?.status === 'scheduled') return found.definition.started;
      if (found?.status !== 'running') return undefined;
      const times = [found.definition.completes?.at, found.deadline].filter((t): t is number => t !== undefined);
      return times.length ? Math.min(...times) : undefined;
    },
    fire(world, id, now) {
      const found = world.shells.get(id);
      if (found?.status === 'scheduled') return found.definition.started <= now ? [draft('shell.created', { id })] : [];
      if (found?.status !== 'running') return [];
      const done = found.definition.completes;
      // Whichever comes first on the virtual clock wins: the command finishing, or its timeout firing.
      if (done && done.at <= now && (found.deadline === undefined || done.at < found.deadline))
        return [draft('shell.exited', { id, status: 'exited', exit: done.exit })];
      if (found.deadline !== undefined && found.deadline <= now)
        return [draft('shell.exited', { id, status: 'timeout' })];
      return [];
    },
  },

  publication: {
    // shell.created and shell.exited are the real server's newer code line's (the one the interface describes),
    // published by default though the official client does not type them; nothing there announces a timeout
    // changed, so that one is the simulator's own.
    simOnly: ['shell.timeout.updated'],
    reshape: {
      // The world knows which command started; the client is sent the command's record, as the real server sends it.
      'shell.created': ({ data }, { world, directory }) => {
        const found = world?.shells.get(data.id);
        return { type: 'shell.created', data: { info: found ? shellRecord(found, directory) : { id: data.id } } };
      },
    },
  },

  infer: () => import('./infer.js').then((m) => m.inferShells),
};

/**
 * Shell command lifecycles: running until the scripted completion (with its exit code) or until the timeout
 * passes on the virtual clock, whichever comes first; a timeout update replaces the deadline counted from now
 * (milliseconds, 0 clears it) and is a no-op on a command that is no longer running.
 */
import { ShellNotFoundError } from '../errors.js';
import { draft } from '../state/events.js';
import type { ShellState, World } from '../state/world.js';
import { answered, changeState, locationAnswer, type ResourceModule } from './resource.js';

/** The command as the API shows it (`ShellCommand`); a command with no `cwd` runs in the project directory. */
export function shellRecord(shell: ShellState, projectDirectory: string): Record<string, unknown> {
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

export const shells: ResourceModule = {
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
      const shell = shellOrThrow(context.world, request.pathParams.id);
      const answer = locationAnswer(request, context, shellRecord(shell, context.project.directory));
      if (shell.status !== 'running') return answered(answer);
      const timeout = (request.body as { timeout: number }).timeout;
      return answered(answer, draft('shell.timeout.updated', { id: shell.definition.id, timeout }));
    },
  },

  appliers: {
    'shell.created': (world, { data }) => changeState('shell', data.id, world.shells.get(data.id), 'running'),
    'shell.timeout.updated': (world, { data, time }) => {
      const shell = world.shells.get(data.id);
      if (shell) shell.deadline = data.timeout === 0 ? undefined : time + data.timeout;
    },
    'shell.exited': (world, { data, time }) =>
      changeState('shell', data.id, world.shells.get(data.id), data.status, { completed: time, exit: data.exit }),
  },

  timeline: {
    kind: 'shell',
    ids: (world) => world.shells.keys(),
    next(world, id) {
      const shell = world.shells.get(id);
      if (shell?.status === 'scheduled') return shell.definition.started;
      if (shell?.status !== 'running') return undefined;
      const times = [shell.definition.completes?.at, shell.deadline].filter((t): t is number => t !== undefined);
      return times.length ? Math.min(...times) : undefined;
    },
    fire(world, id, now) {
      const shell = world.shells.get(id);
      if (shell?.status === 'scheduled') return shell.definition.started <= now ? [draft('shell.created', { id })] : [];
      if (shell?.status !== 'running') return [];
      const done = shell.definition.completes;
      // Whichever comes first on the virtual clock wins: the command finishing, or its timeout firing.
      if (done && done.at <= now && (shell.deadline === undefined || done.at < shell.deadline))
        return [draft('shell.exited', { id, status: 'exited', exit: done.exit })];
      if (shell.deadline !== undefined && shell.deadline <= now)
        return [draft('shell.exited', { id, status: 'timeout' })];
      return [];
    },
  },
};

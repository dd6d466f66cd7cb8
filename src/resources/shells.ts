/**
 * Shell command lifecycles: running until the scripted completion (with its exit code) or until the timeout
 * passes on the virtual clock; a timeout update replaces the deadline counted from now (milliseconds, 0
 * clears it) and is a no-op on a command that is no longer running.
 */
import { ShellNotFoundError } from '../errors.js';
import type { ShellState, World } from '../state/world.js';
import { locationAnswer, type Handlers } from './handler.js';

function record(world: World, shell: ShellState, now: number, projectDirectory: string): Record<string, unknown> {
  const { definition } = shell;
  const { status, completed, exit } = world.shellStatus(shell, now);
  return {
    id: definition.id,
    status,
    command: definition.command,
    cwd: definition.cwd ?? projectDirectory,
    shell: definition.shell,
    file: `/tmp/session-agent/shell/${definition.id}.log`,
    metadata: {},
    time: completed === undefined ? { started: definition.started } : { started: definition.started, completed },
    pid: definition.pid,
    ...(exit === undefined ? {} : { exit }),
  };
}

function shellOrThrow(world: World, id: string | undefined): ShellState {
  const shell = world.shells.get(id ?? '');
  if (!shell) throw new ShellNotFoundError(id ?? '');
  return shell;
}

export const shellHandlers: Handlers = {
  'v2.shell.get': (request, context) => locationAnswer(request, context, record(context.world, shellOrThrow(context.world, request.pathParams.id), context.now, context.project.directory)),

  'v2.shell.timeout': (request, context) => {
    const shell = shellOrThrow(context.world, request.pathParams.id);
    if (context.world.shellStatus(shell, context.now).status === 'running') {
      const timeout = (request.body as { timeout: number }).timeout;
      shell.deadline = timeout === 0 ? undefined : context.now + timeout;
    }
    return locationAnswer(request, context, record(context.world, shell, context.now, context.project.directory));
  },
};

/**
 * PTY sessions: the scenario's terminals, and those started on request (a shell stays open; another command
 * runs for a moment and exits 0).
 */
import { posix } from 'node:path';
import { DEFAULTS } from '../../config.js';
import { resolveLocation } from '../../openapi/location.js';
import { draft } from '../../state/events.js';
import type { World } from '../../state/world.js';
import { answered, itemsOf, locationAnswer } from '../answers.js';
import type { Kind } from '../kind.js';
import { absoluteDirectory } from '../location.js';
import { format } from './format.js';
import { inferPtys } from './infer.js';
import type { PtyDefinition, PtyState } from './types.js';

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

function nextPid(world: World): number {
  const taken = new Set([...world.ptys.values()].map((p) => p.definition.record.pid));
  let pid = FIRST_PID + world.ptys.size;
  // Scenario PTYs may carry their own pids; two live processes never share one.
  while (taken.has(pid)) pid++;
  return pid;
}

export const pty: Kind = {
  name: 'pty',
  format,

  read(source, context) {
    const ptys = itemsOf(source, 'ptys').map((p, i): PtyDefinition => {
      const id = p.id as string;
      const record = {
        id,
        title: (p.title as string | undefined) ?? `Terminal ${id.slice(-4)}`,
        command: (p.command as string | undefined) ?? DEFAULT_COMMAND,
        args: (p.args as string[] | undefined) ?? ['-l'],
        cwd: (p.cwd as string | undefined) ?? context.project?.directory ?? DEFAULTS.projectDir,
        status: 'running',
        pid: (p.pid as number | undefined) ?? FIRST_PID + i,
      };
      context.checkRecord('PtySession', record, ['ptys', i], `pty ${id}`);
      return { record };
    });
    return { ptys };
  },

  ids: (scenario) => scenario.ptys.map((p) => p.record.id),

  seed: (scenario) => ({
    ptys: new Map(
      scenario.ptys.map((definition): [string, PtyState] => [
        definition.record.id,
        { definition, status: definition.record.status === 'exited' ? 'exited' : 'running' },
      ]),
    ),
  }),

  snapshot: (world) => ({
    ptys: [...world.ptys.values()].map((p) => ({
      id: p.definition.record.id,
      state: p.status,
      ...(p.exitCode === undefined ? {} : { exitCode: p.exitCode }),
    })),
  }),

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
  },

  timeline: {
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

  infer: inferPtys,
};

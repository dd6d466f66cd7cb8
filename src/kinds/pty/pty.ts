/**
 * PTY sessions: the scenario's terminals, and those started on request (a shell stays open until it exits or
 * is removed; another command runs for a moment and exits 0). Each keeps what its terminal printed, for the
 * clients that connect to it over its WebSocket (./connection.ts) and type into it (./terminal.ts).
 */
import { DEFAULTS } from '../../config/config.js';
import { draft } from '../../state/events.js';
import { changeState, reportDuplicates } from '../answers.js';
import type { Kind } from '../kind.js';
import { PTY_LIMITS } from './limits.js';
import { condition, format } from './format.js';
import { FIRST_PID, handlers } from './handlers.js';
import { freshTerminal, scriptFor, startingOutput } from './script.js';
import type { PtySection } from './section.generated.js';
import type { PtyDefinition, PtyReply, PtyState, PtyStatus } from './types.js';

const DEFAULT_COMMAND = '/bin/bash';

/** A PTY's live state as it starts: its starting output kept within the bound, nobody connected. */
function startState(definition: PtyDefinition, extra: Partial<PtyState> = {}): PtyState {
  const { record } = definition;
  const excess = Math.max(0, definition.output.length - PTY_LIMITS.ptyOutput);
  return {
    definition,
    title: record.title as string,
    status: definition.exitCode === undefined ? 'running' : 'exited',
    ...(definition.exitCode === undefined ? {} : { exitCode: definition.exitCode }),
    output: definition.output.slice(excess),
    dropped: excess,
    terminal: freshTerminal(record.cwd as string),
    connections: 0,
    tickets: new Map(),
    ...extra,
  };
}

const STATES: readonly PtyStatus[] = ['running', 'exited'];

export const pty: Kind<PtySection> = {
  name: 'pty',
  // The real server lets a browser, which cannot send an Authorization header on a WebSocket, in by ticket.
  ticketed: ['v2.pty.connect'],
  limits: PTY_LIMITS,
  format,
  condition,
  states: STATES,
  transitions: [['running', 'exited']],

  read(source, context) {
    const ptys = (source.ptys ?? []).map((p, i): PtyDefinition => {
      const id = p.id;
      const command = p.command ?? DEFAULT_COMMAND;
      const args = p.args ?? ['-l'];
      const cwd = p.cwd ?? context.project?.directory ?? DEFAULTS.projectDir;
      const exited = p.status === 'exited';
      const exitCode = p.exitCode ?? 0;
      const replies = (p.replies ?? []).map((r, j): PtyReply => {
        const match = r.match;
        if (match !== undefined)
          try {
            new RegExp(match);
          } catch (error) {
            context.problem(
              ['ptys', i, 'replies', j, 'match'],
              `match ${JSON.stringify(match)} is not a regular expression (${(error as Error).message})`,
            );
          }
        return {
          ...(r.input === undefined ? {} : { input: r.input }),
          ...(match === undefined ? {} : { match }),
          output: r.output,
          exitCode: r.exitCode ?? 0,
        };
      });
      const script = scriptFor(command, args, { prompt: p.prompt, replies });
      const record = {
        id,
        title: p.title ?? `Terminal ${id.slice(-4)}`,
        command,
        args,
        cwd,
        status: exited ? 'exited' : 'running',
        pid: p.pid ?? FIRST_PID + i,
        ...(exited ? { exitCode } : {}),
      };
      context.checkRecord('PtySession', record, ['ptys', i], `pty ${id}`);
      const output = startingOutput(script, cwd, {
        banner: p.banner,
        transcript: p.transcript,
        running: !exited,
      });
      return {
        record,
        ...(p.directory === undefined ? {} : { directory: p.directory }),
        script,
        output,
        ...(exited ? { exitCode } : {}),
      };
    });
    reportDuplicates(
      ptys.map((p) => p.record.id),
      'ptys',
      'pty',
      context,
    );
    return { ptys };
  },

  ids: (scenario) => scenario.ptys.map((p) => p.record.id),

  possible: (scenario) =>
    scenario.ptys
      .filter((p) => p.exitCode === undefined)
      .map((p) => ({ id: p.record.id, from: 'running', to: 'exited' })),

  seed: (scenario) => ({
    ptys: new Map(
      scenario.ptys.map((definition): [string, PtyState] => [definition.record.id, startState(definition)]),
    ),
  }),

  stateOf: (world, id) => world.ptys.get(id)?.status,

  snapshot: (world) => ({
    ptys: [...world.ptys.values()].map((p) => ({
      id: p.definition.record.id,
      state: p.status,
      ...(p.exitCode === undefined ? {} : { exitCode: p.exitCode }),
      ...(p.connections ? { connections: p.connections } : {}),
    })),
  }),

  handlers,

  appliers: {
    'pty.created': (world, { data, metadata }) => {
      const record = data.info;
      const command = record.command as string;
      const args = record.args as string[];
      const script = scriptFor(command, args);
      const directory = typeof metadata?.directory === 'string' ? metadata.directory : undefined;
      const definition: PtyDefinition = {
        record,
        ...(directory === undefined ? {} : { directory }),
        script,
        output: startingOutput(script, record.cwd as string, { running: true }),
      };
      const exitsAt = typeof metadata?.exitsAt === 'number' ? metadata.exitsAt : undefined;
      world.ptys.set(record.id, startState(definition, exitsAt === undefined ? {} : { exitsAt }));
    },
    'pty.updated': (world, { data, metadata }) => {
      const found = world.ptys.get(data.info.id);
      if (!found) return;
      found.title = data.info.title as string;
      const size = metadata?.size as PtyState['size'];
      if (size) found.size = size;
    },
    'pty.exited': (world, { data }) =>
      changeState('pty', data.id, world.ptys.get(data.id), 'exited', { exitCode: data.exitCode }),
    'pty.deleted': (world, { data }) => {
      world.ptys.delete(data.id);
    },
    'pty.output': (world, { data }) => {
      const found = world.ptys.get(data.id);
      if (!found) return;
      const output = found.output + data.output;
      // Only the most recent output is kept for replay; a cursor still counts from the first character.
      const excess = Math.max(0, output.length - PTY_LIMITS.ptyOutput);
      found.output = excess ? output.slice(excess) : output;
      found.dropped += excess;
      found.terminal = data.terminal;
    },
    'pty.connected': (world, { data }) => {
      const found = world.ptys.get(data.id);
      if (found) found.connections++;
    },
    'pty.disconnected': (world, { data }) => {
      const found = world.ptys.get(data.id);
      if (found) found.connections = Math.max(0, found.connections - 1);
    },
    'pty.ticket.issued': (world, { data, time }) => {
      const found = world.ptys.get(data.id);
      if (!found) return;
      // Expired tickets are let go of as new ones come: nothing opens with them any more.
      for (const [ticket, expires] of found.tickets) if (expires <= time) found.tickets.delete(ticket);
      found.tickets.set(data.ticket, data.expires);
    },
    'pty.ticket.used': (world, { data }) => {
      world.ptys.get(data.id)?.tickets.delete(data.ticket);
    },
  },

  schedule: {
    ids: (world) => world.ptys.keys(),
    next(world, id) {
      const found = world.ptys.get(id);
      return found?.status === 'running' ? found.exitsAt : undefined;
    },
    fire(world, id, now) {
      const found = world.ptys.get(id);
      if (found?.status !== 'running' || found.exitsAt === undefined || found.exitsAt > now) return [];
      return [draft('pty.exited', { id, exitCode: 0 })];
    },
  },

  publication: {
    // What a terminal prints reaches its WebSocket clients, never the event stream; connections and tickets
    // are the simulator's bookkeeping.
    internal: ['pty.output', 'pty.connected', 'pty.disconnected', 'pty.ticket.issued', 'pty.ticket.used'],
  },

  infer: () => import('./infer.js').then((m) => m.inferPtys),
};

/**
 * The PTY operations answered by the world. PTYs are held per location, as on the real server: one created
 * under a directory is listed, found, changed and connected to under that directory only.
 */
import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import { ForbiddenError, InvalidRequestError } from '../../errors/errors.js';
import { PtyNotFoundError } from './errors.js';
import { resolveLocation } from '../../openapi/location.js';
import { draft } from '../../state/events.js';
import type { World } from '../../state/world.js';
import { NO_CONTENT, answered, locationAnswer } from '../answers.js';
import type { HandlerContext, Handlers, HandlerRequest } from '../kind.js';
import { ensureRoom } from '../limits.js';
import { PTY_LIMITS } from './limits.js';
import { absoluteDirectory } from '../location.js';
import { connectAnswer } from './connection.js';
import { POSIX_SHELLS, isInteractive } from './script.js';
import type { PtyState } from './types.js';

const DEFAULT_COMMAND = '/bin/bash';
/**
 * How long a command that is not an interactive shell runs in a PTY before it exits 0. The real server's PTY
 * ends when its command does (`true` at once); the simulator cannot run the command, so it gives every one
 * the same short, deterministic life, and keeps shells running until they exit or the PTY is removed.
 */
export const PTY_COMMAND_RUN_MS = 1000;
/** Scenario PTYs take pids from 7400 on; new ones continue the run. */
export const FIRST_PID = 7400;
/** A connect ticket's life, in seconds, as the real server gives it. */
export const TICKET_SECONDS = 60;

/** The PTY as the API shows it (`Pty`): its record as it started, with its title and status now. */
export function ptyRecord(pty: PtyState): Record<string, unknown> & { id: string } {
  const { exitCode } = pty;
  return {
    ...pty.definition.record,
    title: pty.title,
    status: pty.status,
    ...(exitCode === undefined ? {} : { exitCode }),
  };
}

/** The absolute directory of the location a request names (`location[directory]`, as a deep object or flat). */
function locationOf(request: HandlerRequest, context: HandlerContext): string {
  const { query } = request;
  const location = query.location ?? {
    directory: query['location[directory]'],
    workspace: query['location[workspace]'],
  };
  return absoluteDirectory(context.project, resolveLocation(context.project, location));
}

function belongs(pty: PtyState, directory: string, context: HandlerContext): boolean {
  return (pty.definition.directory ?? context.project.directory) === directory;
}

function ptyAt(request: HandlerRequest, context: HandlerContext): PtyState {
  const id = request.pathParams.ptyID ?? '';
  const found = context.world.ptys.get(id);
  if (!found || !belongs(found, locationOf(request, context), context)) throw new PtyNotFoundError(id);
  return found;
}

function nextPid(world: World): number {
  const taken = new Set([...world.ptys.values()].map((p) => p.definition.record.pid));
  let pid = FIRST_PID + world.ptys.size;
  // Scenario PTYs may carry their own pids; two live processes never share one.
  while (taken.has(pid)) pid++;
  return pid;
}

/**
 * Origins the real server issues tickets to: none (a native client), its own host, loopback on any port, its
 * desktop app (`tauri://`) and opencode.ai; anything else (a page on another site, `null`) is refused.
 */
export function ticketOrigin(origin: string | undefined, host: string | undefined): boolean {
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  const { hostname } = url;
  return (
    url.protocol === 'tauri:' ||
    url.host === host ||
    ['localhost', '127.0.0.1', '[::1]'].includes(hostname) ||
    hostname === 'opencode.ai' ||
    hostname.endsWith('.opencode.ai')
  );
}

/** A UUID (version 4 in form) from one of the world's seeded ids: tickets look like the real server's, and repeat. */
function uuidOf(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex');
  const variant = ((Number.parseInt(hex[16] as string, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export const handlers: Handlers = {
  'v2.pty.list': (request, context) => {
    const directory = locationOf(request, context);
    const ptys = [...context.world.ptys.values()].filter((p) => belongs(p, directory, context));
    return answered(locationAnswer(request, context, ptys.map(ptyRecord)));
  },

  'v2.pty.get': (request, context) => answered(locationAnswer(request, context, ptyRecord(ptyAt(request, context)))),

  'v2.pty.create': (request, context) => {
    const { world, now, project } = context;
    ensureRoom(world.ptys.size, PTY_LIMITS.pty, 'PTY');
    const body = (request.body ?? {}) as { command?: string; args?: string[]; cwd?: string; title?: string };
    const id = world.ids.ascending('pty_', now);
    // An empty command could not be started; treat it like an omitted one rather than record a PTY running nothing.
    const command = body.command || DEFAULT_COMMAND;
    const args = [...(body.args ?? [])];
    if (POSIX_SHELLS.has(posix.basename(command))) args.push('-l');
    const directory = absoluteDirectory(project, resolveLocation(project, request.query.location));
    const record = {
      id,
      title: body.title ?? `Terminal ${id.slice(-4)}`,
      command,
      args,
      cwd: body.cwd ?? directory,
      status: 'running',
      pid: nextPid(world),
    };
    // A shell stays open for its user, unless it was given a command to run (`sh -c "…"`), as the real server's PTYs do.
    const exits = isInteractive(command, args) ? {} : { exitsAt: now + PTY_COMMAND_RUN_MS };
    const created = draft('pty.created', { info: record }, { directory, ...exits });
    return answered(locationAnswer(request, context, record), created);
  },

  'v2.pty.update': (request, context) => {
    const found = ptyAt(request, context);
    const body = (request.body ?? {}) as { title?: string; size?: { rows: number; cols: number } };
    const info = { ...ptyRecord(found), ...(body.title === undefined ? {} : { title: body.title }) };
    // The real server announces every update, a size change or an empty one too.
    const updated = draft('pty.updated', { info }, body.size ? { size: body.size } : undefined);
    return answered(locationAnswer(request, context, info), updated);
  },

  'v2.pty.remove': (request, context) => {
    const found = ptyAt(request, context);
    // Removing a running PTY ends its process, but the real server announces only the removal.
    return answered(NO_CONTENT, draft('pty.deleted', { id: found.definition.record.id }));
  },

  'v2.pty.connectToken': (request, context) => {
    const { headers } = request.exchange;
    const host = typeof headers.host === 'string' ? headers.host : undefined;
    // Asked before the PTY is looked for, as on the real server: a request without the header learns nothing.
    if (headers['x-opencode-ticket'] !== '1' || !ticketOrigin(headers.origin, host)) throw new ForbiddenError();
    const found = ptyAt(request, context);
    const { world, now } = context;
    let outstanding = 0;
    for (const pty of world.ptys.values()) for (const expires of pty.tickets.values()) if (expires > now) outstanding++;
    ensureRoom(outstanding, PTY_LIMITS.ptyTicket, 'PTY connect ticket');
    const ticket = uuidOf(world.ids.ascending('tkt_', now));
    const issued = draft('pty.ticket.issued', {
      id: found.definition.record.id,
      ticket,
      expires: now + TICKET_SECONDS * 1000,
    });
    return answered(locationAnswer(request, context, { ticket, expires_in: TICKET_SECONDS }), issued);
  },

  'v2.pty.connect': (request, context) => {
    const found = ptyAt(request, context);
    const id = found.definition.record.id;
    if (request.exchange.upgrade !== 'websocket')
      throw new InvalidRequestError(
        'GET /api/pty/{ptyID}/connect opens a WebSocket: send it as a WebSocket handshake (Upgrade: websocket)',
        undefined,
        'upgrade',
      );
    const ticket = request.query.ticket as string | undefined;
    const used = [];
    if (ticket !== undefined) {
      const expires = found.tickets.get(ticket);
      // A ticket of another PTY, used already, or expired opens nothing (and a valid one is not spent by that).
      if (expires === undefined || expires <= context.now) throw new ForbiddenError('Invalid PTY connect ticket');
      used.push(draft('pty.ticket.used', { id, ticket }));
    }
    if (found.status === 'running') {
      let open = 0;
      for (const pty of context.world.ptys.values()) open += pty.connections;
      ensureRoom(open, PTY_LIMITS.ptyConnection, 'PTY connection');
    }
    return answered(connectAnswer(request.partition, id, request.query.cursor, request.exchange.id), ...used);
  },
};

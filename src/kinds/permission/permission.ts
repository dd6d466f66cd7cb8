/**
 * Permission requests and saved permissions: a session's agent asks and its rules decide (`allow` or `deny`
 * settle it at once; `ask` leaves a request pending until replied to, `permission.v2.asked`), a reply answers
 * it (`permission.v2.replied`; ./ask.ts says what each reply does), an `always` reply saves patterns that
 * later requests are allowed by, and saved permissions are listed and removed. Requests the scenario declares
 * may be asked later (`appears`).
 */
import { posix } from 'node:path';
import { InvalidRequestError } from '../../errors/errors.js';
import { PermissionNotFoundError } from './errors.js';
import { SessionNotFoundError } from '../session/errors.js';
import { jsonAnswer } from '../../exchange/exchange.js';
import { resolveLocation } from '../../openapi/location.js';
import { draft } from '../../state/events.js';
import type { World } from '../../state/world.js';
import { agentRules } from '../agent/agent.js';
import { answered, changeState, NO_CONTENT } from '../answers.js';
import type { HandlerContext, Kind } from '../kind.js';
import { PERMISSION_LIMITS } from './limits.js';
import { askPermission, pendingRequests, replyPermission } from './ask.js';
import { condition, format } from './format.js';
import { readPermissions } from './read.js';
import type { PermissionSection } from './section.generated.js';
import type { PermissionReply, PermissionState, PermissionStatus } from './types.js';

type Body = Record<string, unknown>;

/** A session that exists now: one the scenario creates later is unknown until then. */
function sessionOrThrow(world: World, id: string | undefined): string {
  const found = world.sessions.get(id ?? '');
  if (!found || found.status === 'scheduled') throw new SessionNotFoundError(id ?? '');
  return found.definition.id;
}

/**
 * The rules a request is evaluated by: those of the agent it names, else of the session's agent now (as the
 * real server does for a request without one), as listed where the session runs.
 */
function rulesFor(context: HandlerContext, sessionID: string, named: unknown) {
  const session = context.world.sessions.get(sessionID);
  const agent = typeof named === 'string' ? named : (session?.agent ?? 'build');
  const directory = posix.resolve(context.project.directory, session?.location?.directory ?? '.');
  return agentRules(context.world, directory, agent);
}

/** The session's pending request, or PermissionNotFoundError (another session's is not found either). */
function pendingOf(world: World, sessionID: string, requestID: string): PermissionState {
  const state = world.permissions.get(requestID);
  if (state?.status !== 'pending' || state.record.sessionID !== sessionID) throw new PermissionNotFoundError(requestID);
  return state;
}

/** Whether a session exists, so its requests are listed (those of a session created later are not, yet). */
function sessionExists(world: World, id: string): boolean {
  const found = world.sessions.get(id);
  return found !== undefined && found.status !== 'scheduled';
}

const STATES: readonly PermissionStatus[] = ['scheduled', 'pending', 'allowed', 'rejected'];

export const permission: Kind<PermissionSection> = {
  name: 'permission',
  limits: PERMISSION_LIMITS,
  format,
  condition,
  states: STATES,
  transitions: [
    ['scheduled', 'pending'],
    ['pending', 'allowed'],
    ['pending', 'rejected'],
  ],

  read: (source, context) => ({ permissions: readPermissions(source, context) }),

  ids: (scenario) => scenario.permissions.requests.map((r) => r.record.id),

  possible: (scenario) =>
    scenario.permissions.requests.flatMap(({ record, appears }) => [
      ...(appears > scenario.start ? [{ id: record.id, from: 'scheduled', to: 'pending' }] : []),
      { id: record.id, from: 'pending', to: 'allowed' },
      { id: record.id, from: 'pending', to: 'rejected' },
    ]),

  seed: ({ permissions, start }) => ({
    permissions: new Map(
      permissions.requests.map(({ record, appears }): [string, PermissionState] => [
        record.id,
        appears > start ? { record, status: 'scheduled', appears } : { record, status: 'pending' },
      ]),
    ),
    savedPermissions: new Map(permissions.saved.map((s) => [s.id, { ...s }])),
  }),

  stateOf: (world, id) => world.permissions.get(id)?.status,

  snapshot: (world) => ({
    permissions: [...world.permissions.values()].map((p) => ({
      id: p.record.id,
      sessionID: p.record.sessionID,
      state: p.status,
      ...(p.reply ? { reply: p.reply } : {}),
    })),
    savedPermissions: [...world.savedPermissions.values()],
  }),

  handlers: {
    'v2.session.permission.create': (request, context) => {
      const { world, now, project } = context;
      const sessionID = sessionOrThrow(world, request.pathParams.sessionID);
      const body = request.body as Body;
      const id = typeof body.id === 'string' ? body.id : undefined;
      const open = id === undefined ? undefined : world.permissions.get(id);
      if (open?.status === 'pending' || open?.status === 'scheduled')
        throw new InvalidRequestError(`Permission request already pending: ${id}`, 'Payload', 'id');
      const asked = askPermission(
        world,
        now,
        {
          sessionID,
          id,
          action: body.action as string,
          resources: body.resources as string[],
          ...(Array.isArray(body.save) ? { save: body.save as string[] } : {}),
          ...(body.metadata && typeof body.metadata === 'object' ? { metadata: body.metadata as Body } : {}),
          ...(body.source && typeof body.source === 'object' ? { source: body.source as never } : {}),
          rules: rulesFor(context, sessionID, body.agent),
        },
        project.id,
      );
      return answered(jsonAnswer(200, { data: { id: asked.id, effect: asked.effect } }), ...asked.events);
    },

    'v2.session.permission.list': (request, { world }) => {
      const sessionID = sessionOrThrow(world, request.pathParams.sessionID);
      return answered(jsonAnswer(200, { data: pendingRequests(world, sessionID) }));
    },

    'v2.session.permission.get': (request, { world }) => {
      const sessionID = sessionOrThrow(world, request.pathParams.sessionID);
      const state = pendingOf(world, sessionID, request.pathParams.requestID ?? '');
      return answered(jsonAnswer(200, { data: state.record }));
    },

    'v2.session.permission.reply': (request, { world, now, project }) => {
      const sessionID = sessionOrThrow(world, request.pathParams.sessionID);
      const state = pendingOf(world, sessionID, request.pathParams.requestID ?? '');
      const reply = (request.body as { reply: PermissionReply }).reply;
      return answered(NO_CONTENT, ...replyPermission(world, now, state.record, reply, project.id));
    },

    'v2.permission.request.list': (request, { world, project }) => {
      const location = resolveLocation(project, request.query.location);
      // The sessions live in the project's own location; another directory has none waiting.
      const here = location.directory === project.directory;
      const data = here ? pendingRequests(world).filter((r) => sessionExists(world, r.sessionID)) : [];
      return answered(jsonAnswer(200, { location, data }));
    },

    'v2.permission.saved.list': (request, { world, project }) => {
      const only = request.query.projectID as string | undefined;
      const data = [...world.savedPermissions.values()]
        .map((s) => ({ id: s.id, projectID: s.projectID ?? project.id, action: s.action, resource: s.resource }))
        .filter((s) => only === undefined || s.projectID === only);
      return answered(jsonAnswer(200, { data }));
    },

    'v2.permission.saved.remove': (request, { world }) => {
      const id = request.pathParams.id ?? '';
      // Removing what is not saved is no error, as on the real server.
      return world.savedPermissions.has(id)
        ? answered(NO_CONTENT, draft('permission.saved.removed', { id }))
        : answered(NO_CONTENT);
    },
  },

  appliers: {
    'permission.v2.asked': (world, { data }) => {
      const known = world.permissions.get(data.id);
      if (known?.status === 'scheduled') return changeState('permission', data.id, known, 'pending', { record: data });
      if (!known) makeRoom(world);
      world.permissions.set(data.id, { record: data, status: 'pending' });
      return undefined;
    },
    'permission.v2.replied': (world, { data }) =>
      changeState(
        'permission',
        data.requestID,
        world.permissions.get(data.requestID),
        data.reply === 'reject' ? 'rejected' : 'allowed',
        { reply: data.reply },
      ),
    'permission.saved': (world, { data }) => {
      world.savedPermissions.set(data.id, { ...data });
    },
    'permission.saved.removed': (world, { data }) => {
      world.savedPermissions.delete(data.id);
    },
  },

  schedule: {
    ids: (world) => [...world.permissions.values()].filter((p) => p.status === 'scheduled').map((p) => p.record.id),
    next: (world, id) => world.permissions.get(id)?.appears,
    fire(world, id, now) {
      const state = world.permissions.get(id);
      if (state?.status !== 'scheduled' || (state.appears ?? 0) > now) return [];
      return [draft('permission.v2.asked', state.record)];
    },
  },

  // The real server announces neither saving nor removing a saved permission.
  publication: { internal: ['permission.saved', 'permission.saved.removed'] },

  infer: () => import('./infer.js').then((m) => m.inferPermissions),
};

/** Keeps the table within its bound: answered requests are forgotten oldest first once open ones need the room. */
function makeRoom(world: World): void {
  if (world.permissions.size < PERMISSION_LIMITS.permission) return;
  const settled = [...world.permissions.values()].find((p) => p.status === 'allowed' || p.status === 'rejected');
  if (settled) world.permissions.delete(settled.record.id);
}

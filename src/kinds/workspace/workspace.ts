/**
 * The project's workspaces (`/experimental/workspace`): the worktree adapter, workspaces created on a
 * worktree of their own (connected at once, as a local worktree is), listed, synced from the worktrees no
 * workspace stands on yet, removed with their worktree, and sessions warped into them or back out. The real
 * server does all this only with its experimental workspaces flag; offline without it, a creation times out.
 */
import { InvalidRequestError, NotFoundError } from '../../errors/errors.js';
import { WorkspaceCreateError } from './errors.js';
import { jsonAnswer } from '../../exchange/exchange.js';
import type { ProjectContext } from '../../openapi/location.js';
import { draft, type EventDraft } from '../../state/events.js';
import type { World } from '../../state/world.js';
import { answered, NO_CONTENT, reportDuplicates } from '../answers.js';
import type { Kind } from '../kind.js';
import { ensureRoom } from '../limits.js';
import { MAX_WORKTREES } from '../worktree/limits.js';
import { freeWorktreeName, seededSlug, worktreeDirectory } from '../worktree/names.js';
import { format } from './format.js';
import { MAX_WORKSPACES } from './limits.js';
import type { WorkspaceSection } from './section.generated.js';
import { warpPublication } from './warp.js';
import type { WorkspaceDefinition } from './types.js';

export const ADAPTERS = [{ type: 'worktree', name: 'Worktree', description: 'Create a git worktree' }] as const;

/** A workspace as the real server answers it: its project, and a worktree workspace's directory. */
export function workspaceRecord(world: World, project: ProjectContext, space: WorkspaceDefinition) {
  const worktree = world.worktrees.get(space.name);
  const directory =
    space.directory !== undefined
      ? space.directory
      : space.type === 'worktree' && worktree
        ? worktreeDirectory(project, worktree)
        : null;
  return {
    id: space.id,
    type: space.type,
    name: space.name,
    branch: space.branch,
    directory,
    extra: space.extra,
    projectID: project.id,
    timeUsed: space.timeUsed,
  };
}

/** A workspace registered and connected: what a creation and a sync both announce. */
function registered(info: WorkspaceDefinition): EventDraft[] {
  return [
    draft('workspace.created', { info }),
    draft('workspace.status', { workspaceID: info.id, status: 'connected' }),
  ];
}

const byId = (a: WorkspaceDefinition, b: WorkspaceDefinition) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export const workspace: Kind<WorkspaceSection> = {
  name: 'workspace',
  limits: { workspace: MAX_WORKSPACES },
  format,

  read(source, context) {
    const workspaces = (source.workspaces ?? []).map((w, i): WorkspaceDefinition => {
      const id = w.id;
      return {
        id,
        type: w.type ?? 'worktree',
        name: w.name ?? seededSlug(`workspace:${id}`),
        branch: w.branch ?? null,
        ...(w.directory === undefined ? {} : { directory: w.directory }),
        extra: w.extra ?? null,
        timeUsed: w.used === undefined ? context.start : context.instant(w.used, ['workspaces', i, 'used']),
        status: w.status ?? 'connected',
      };
    });
    reportDuplicates(
      workspaces.map((w) => w.id),
      'workspaces',
      'workspace',
      context,
    );
    return { workspaces };
  },

  ids: (scenario) => scenario.workspaces.map((w) => w.id),

  seed: (scenario) => ({
    workspaces: new Map(scenario.workspaces.map((w) => [w.id, w])),
    sessionWorkspaces: new Map<string, string>(),
  }),

  snapshot: (world) => ({
    workspaces: [...world.workspaces.values()].map((w) => ({ id: w.id, name: w.name, status: w.status })),
  }),

  handlers: {
    'experimental.workspace.adapter.list': () => answered(jsonAnswer(200, ADAPTERS)),

    'experimental.workspace.list': (_request, { world, project }) =>
      answered(
        jsonAnswer(
          200,
          [...world.workspaces.values()].sort(byId).map((w) => workspaceRecord(world, project, w)),
        ),
      ),

    'experimental.workspace.status': (_request, { world }) =>
      answered(
        jsonAnswer(
          200,
          [...world.workspaces.values()].sort(byId).map((w) => ({ workspaceID: w.id, status: w.status })),
        ),
      ),

    'experimental.workspace.create': (request, { world, now, project }) => {
      if (request.body === undefined) throw new InvalidRequestError('Expected object, got undefined', 'Payload');
      const body = request.body as { id?: string; type: string; branch?: string | null; extra?: unknown };
      if (!ADAPTERS.some((a) => a.type === body.type)) {
        throw new WorkspaceCreateError(`Unknown workspace adapter: ${body.type}`);
      }
      if (body.id !== undefined && world.workspaces.has(body.id)) {
        throw new WorkspaceCreateError(`Workspace already exists: ${body.id}`);
      }
      ensureRoom(world.workspaces.size, MAX_WORKSPACES, 'workspace');
      ensureRoom(world.worktrees.size, MAX_WORKTREES, 'worktree');
      const name = freeWorktreeName(world, undefined, 'workspace');
      const branch = body.branch ?? null;
      const directory = worktreeDirectory(project, { name });
      const info: WorkspaceDefinition = {
        id: body.id ?? world.ids.ascending('wrk_', now),
        type: body.type,
        name,
        branch,
        directory,
        extra: body.extra ?? null,
        timeUsed: now,
        status: 'connected',
      };
      // The adapter checks out a worktree first; the workspace connects once it is there.
      const ready = draft('worktree.ready', { name, ...(branch ? { branch } : {}), directory });
      return answered(jsonAnswer(200, workspaceRecord(world, project, info)), ready, ...registered(info));
    },

    // The worktrees no workspace stands on yet become workspaces of their own, as the adapter lists them.
    'experimental.workspace.syncList': (_request, { world, now, project }) => {
      const taken = new Set([...world.workspaces.values()].map((w) => w.name));
      const events: EventDraft[] = [];
      let count = world.workspaces.size;
      for (const tree of world.worktrees.values()) {
        if (taken.has(tree.name)) continue;
        ensureRoom(count++, MAX_WORKSPACES, 'workspace');
        const id = world.ids.ascending('wrk_', now);
        const info: WorkspaceDefinition = {
          id,
          type: 'worktree',
          name: tree.name,
          branch: tree.branch ?? null,
          directory: worktreeDirectory(project, tree),
          extra: null,
          timeUsed: now,
          status: 'connected',
        };
        events.push(...registered(info));
      }
      return answered(NO_CONTENT, ...events);
    },

    'experimental.workspace.remove': (request, { world, project }) => {
      const id = request.pathParams.id as string;
      const space = world.workspaces.get(id);
      if (!space) throw new InvalidRequestError(`Workspace not found: ${id}`, 'Params', 'id');
      const record = workspaceRecord(world, project, space);
      const events = [draft('workspace.removed', { id })];
      if (space.type === 'worktree' && world.worktrees.has(space.name)) {
        events.push(draft('worktree.removed', { name: space.name }));
      }
      return answered(jsonAnswer(200, record), ...events);
    },

    'experimental.workspace.warp': (request, { world }) => {
      const body = request.body as { id: string | null; sessionID: string; copyChanges?: boolean };
      if (body.id !== null && !world.workspaces.has(body.id)) {
        throw new NotFoundError(`Workspace not found: ${body.id}`);
      }
      const session = world.sessions.get(body.sessionID);
      if (!session || session.status === 'scheduled') throw new NotFoundError(`Session not found: ${body.sessionID}`);
      // Changes copied along apply to a worktree checked out at the same commit: nothing can conflict.
      return answered(
        NO_CONTENT,
        draft('workspace.session.warped', { sessionID: body.sessionID, workspaceID: body.id }),
      );
    },
  },

  appliers: {
    'workspace.created': (world, { data }) => {
      world.workspaces.set(data.info.id, data.info);
    },
    'workspace.status': (world, { data }) => {
      const space = world.workspaces.get(data.workspaceID);
      if (space) world.workspaces.set(space.id, { ...space, status: data.status });
    },
    'workspace.removed': (world, { data }) => {
      world.workspaces.delete(data.id);
      for (const [sessionID, workspaceID] of world.sessionWorkspaces)
        if (workspaceID === data.id) world.sessionWorkspaces.delete(sessionID);
    },
    'workspace.session.warped': (world, { data }) => {
      if (data.workspaceID === null) world.sessionWorkspaces.delete(data.sessionID);
      else world.sessionWorkspaces.set(data.sessionID, data.workspaceID);
      // The session's own record says where it runs now (get and list show the workspace).
      const session = world.sessions.get(data.sessionID);
      if (session) session.workspace = data.workspaceID;
    },
  },

  publication: warpPublication,

  infer: () => import('./infer.js').then((m) => m.inferWorkspaces),
};

/**
 * The project's sandbox worktrees (`/experimental/worktree`): created (named after what was asked, or made
 * up; on branch opencode/<name>), listed by directory, reset and removed, as the real server does. Removing
 * one that is not there is a no-op answering true, as there; the project's own directory is refused.
 */
import { posix } from 'node:path';
import { WorktreeRemoveFailedError, WorktreeResetFailedError } from './errors.js';
import { jsonAnswer } from '../../exchange/exchange.js';
import type { ProjectContext } from '../../openapi/location.js';
import { draft } from '../../state/events.js';
import type { World } from '../../state/world.js';
import { answered, reportDuplicates } from '../answers.js';
import type { Kind } from '../kind.js';
import { ensureRoom } from '../limits.js';
import { MAX_WORKTREES } from './limits.js';
import { format } from './format.js';
import type { WorktreeSection } from './section.generated.js';
import { freeWorktreeName, worktreeDirectory, worktreeRoot } from './names.js';
import type { WorktreeDefinition } from './types.js';

/** The worktree checked out at `directory` (absolute, or relative to the project), if the project has it. */
export function worktreeAt(world: World, project: ProjectContext, directory: string): WorktreeDefinition | undefined {
  const wanted = posix.resolve(project.directory, directory);
  return [...world.worktrees.values()].find((w) => worktreeDirectory(project, w) === wanted);
}

export const worktree: Kind<WorktreeSection> = {
  name: 'worktree',
  limits: { worktree: MAX_WORKTREES },
  format,

  read(source, context) {
    const worktrees: readonly WorktreeDefinition[] = source.worktrees ?? [];
    reportDuplicates(
      worktrees.map((w) => w.name),
      'worktrees',
      'worktree',
      context,
    );
    return { worktrees };
  },

  // A scenario's worktree workspaces stand on worktrees of their own, listed with the others.
  seed: (scenario) => {
    const worktrees = new Map(scenario.worktrees.map((w) => [w.name, w]));
    for (const space of scenario.workspaces) {
      if (space.type !== 'worktree' || worktrees.has(space.name)) continue;
      worktrees.set(space.name, {
        name: space.name,
        ...(space.branch ? { branch: space.branch } : {}),
        ...(space.directory ? { directory: space.directory } : {}),
      });
    }
    return { worktrees };
  },

  snapshot: (world) => ({ worktrees: [...world.worktrees.values()] }),

  handlers: {
    'worktree.list': (_request, { world, project }) =>
      answered(
        jsonAnswer(
          200,
          [...world.worktrees.values()].map((w) => worktreeDirectory(project, w)),
        ),
      ),

    'worktree.create': (request, { world, project }) => {
      ensureRoom(world.worktrees.size, MAX_WORKTREES, 'worktree');
      const body = (request.body ?? {}) as { name?: string; startCommand?: string };
      const name = freeWorktreeName(world, body.name, 'worktree');
      const branch = `opencode/${name}`;
      const directory = posix.join(worktreeRoot(project), name);
      // The start command runs after the checkout; the simulator runs nothing, so the worktree is ready at once.
      return answered(
        jsonAnswer(200, { name, branch, directory }),
        draft('worktree.ready', { name, branch, directory }),
      );
    },

    'worktree.remove': (request, { world, project }) => {
      const { directory } = request.body as { directory: string };
      if (posix.resolve(project.directory, directory) === project.directory) {
        throw new WorktreeRemoveFailedError(`fatal: '${project.directory}' is a main working tree\n`);
      }
      const found = worktreeAt(world, project, directory);
      return answered(jsonAnswer(200, true), ...(found ? [draft('worktree.removed', { name: found.name })] : []));
    },

    // Back to the default branch: nothing a client sees changes.
    'worktree.reset': (request, { world, project }) => {
      const { directory } = request.body as { directory: string };
      if (posix.resolve(project.directory, directory) === project.directory) {
        throw new WorktreeResetFailedError('Cannot reset the primary workspace');
      }
      if (!worktreeAt(world, project, directory)) throw new WorktreeResetFailedError('Worktree not found');
      return answered(jsonAnswer(200, true));
    },
  },

  appliers: {
    'worktree.ready': (world, { data }) => {
      world.worktrees.set(data.name, {
        name: data.name,
        ...(data.branch === undefined ? {} : { branch: data.branch }),
        directory: data.directory,
      });
    },
    'worktree.removed': (world, { data }) => {
      world.worktrees.delete(data.name);
    },
  },

  publication: {
    // The real server announces nothing on /api/event when a worktree goes (its global stream has project.updated).
    internal: ['worktree.removed'],
    reshape: {
      'worktree.ready': ({ data }) => ({
        type: 'worktree.ready',
        data: data.branch === undefined ? { name: data.name } : { name: data.name, branch: data.branch },
      }),
    },
  },

  infer: () => import('./infer.js').then((m) => m.inferWorktrees),
};

/**
 * Project copies (`/experimental/project/{id}/copy`): a new directory beside the project (named like the
 * real server's, -2, -3… when taken), or the failure the scenario scripts; removed again (a dirty copy only
 * with `force`); refreshed; and names suggested for them. Each copy made or removed changes the project's
 * directories, which the real server announces with `project.directories.updated`.
 */
import { posix } from 'node:path';
import { BadRequest } from '../../errors/errors.js';
import { ProjectCopyError } from './errors.js';
import { jsonAnswer } from '../../exchange/exchange.js';
import { resolveLocation } from '../../openapi/location.js';
import { draft } from '../../state/events.js';
import { createRandom } from '../../state/random.js';
import type { World } from '../../state/world.js';
import { answered, NO_CONTENT } from '../answers.js';
import type { Kind } from '../kind.js';
import { ensureRoom } from '../limits.js';
import { MAX_PROJECT_COPIES } from './limits.js';
import { absoluteDirectory } from '../location.js';
import { format } from './format.js';
import type { ProjectCopySection } from './section.generated.js';

const ADJECTIVES = ['kind', 'quiet', 'brave', 'calm', 'bright', 'swift', 'gentle', 'bold'] as const;
const NOUNS = ['harbor', 'river', 'otter', 'falcon', 'meadow', 'forest', 'comet', 'summit'] as const;

/** An adjective-noun name like the real server's, from the scenario's seed so a replay names copies alike. */
function slug(world: World, purpose: string): string {
  const random = createRandom(`${world.scenario.seed}:${purpose}:${world.copies.size}`);
  return `${random.pick(ADJECTIVES)}-${random.pick(NOUNS)}`;
}

export const projectCopy: Kind<ProjectCopySection> = {
  name: 'project-copy',
  limits: { projectCopy: MAX_PROJECT_COPIES },
  format,
  badInput: { tag: 'ProjectCopyError', error: (message) => new ProjectCopyError(message) },

  read: (source) => ({ projectCopy: source.projectCopy ?? {} }),

  seed: (scenario) => {
    const copies = scenario.projectCopy.copies ?? [];
    return {
      copies: new Set(copies.map((c) => posix.resolve(c.directory))),
      dirtyCopies: new Set(copies.filter((c) => c.dirty).map((c) => posix.resolve(c.directory))),
    };
  },

  snapshot: (world) => ({
    projectCopies: [...world.copies].map((directory) => ({ directory, dirty: world.dirtyCopies.has(directory) })),
  }),

  handlers: {
    'v2.projectCopy.create': (request, { world, project }) => {
      const scripted = world.scenario.projectCopy.error;
      if (scripted) throw new ProjectCopyError(scripted.message, scripted.forceRequired ?? false);
      const location = resolveLocation(project, request.query.location);
      const source = absoluteDirectory(project, location);
      // Only the simulated project is a repository; anything else has no HEAD to copy.
      if (request.pathParams.projectID !== project.id || location.project.id !== project.id) {
        throw new ProjectCopyError(`Project copy source not found: ${source}`);
      }
      ensureRoom(world.copies.size, MAX_PROJECT_COPIES, 'project copy');
      const body = request.body as { directory: string; name?: string };
      const base = posix.join(posix.resolve(source, body.directory), body.name || slug(world, 'copy'));
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

    // The real server removes by directory whatever the path's projectID says, and git decides: a copy with
    // changes needs force, anything that is not a copy is refused.
    'v2.projectCopy.remove': (request, { world, project }) => {
      const body = request.body as { directory: string; force: boolean };
      const location = resolveLocation(project, request.query.location);
      const directory = posix.resolve(absoluteDirectory(project, location), body.directory);
      if (directory === project.directory) throw new ProjectCopyError(`Invalid project copy directory: ${directory}`);
      if (!world.copies.has(directory)) throw new ProjectCopyError(`Project copy directory unavailable: ${directory}`);
      if (world.dirtyCopies.has(directory) && !body.force) {
        const message = `fatal: '${directory}' contains modified or untracked files, use --force to delete it`;
        throw new ProjectCopyError(message, true);
      }
      const projectID = project.id;
      return answered(
        NO_CONTENT,
        draft('project.copy.removed', { projectID, directory }),
        draft('project.directories.updated', { projectID }),
      );
    },

    // The project's copies are the world's already: nothing to find again, and the real server says nothing.
    'v2.projectCopy.refresh': () => answered(NO_CONTENT),

    // Offline there is no model to ask, as the real server finds when it has none: a slug, whatever the context.
    'experimental.projectCopy.generateName': (request, { world }) => {
      if (request.body === undefined) throw new BadRequest('Expected object, got undefined', 'Payload');
      const context = (request.body as { context?: string }).context ?? '';
      return answered(jsonAnswer(200, { name: slug(world, `name:${context}`) }));
    },
  },

  appliers: {
    'project.copy.created': (world, { data }) => {
      world.copies.add(data.directory);
    },
    'project.copy.removed': (world, { data }) => {
      world.copies.delete(data.directory);
      world.dirtyCopies.delete(data.directory);
    },
  },

  publication: {
    // project.directories.updated follows each.
    internal: ['project.copy.created', 'project.copy.removed'],
  },

  infer: () => import('./infer.js').then((m) => m.inferProjectCopy),
};

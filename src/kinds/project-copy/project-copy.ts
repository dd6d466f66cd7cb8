/**
 * Project copies (`POST /experimental/project/{id}/copy`): a new directory beside the project (named like the
 * real server's, -2, -3… when taken), or the failure the scenario scripts.
 */
import { posix } from 'node:path';
import { ProjectCopyError } from '../../errors.js';
import { jsonAnswer } from '../../exchange/exchange.js';
import { resolveLocation } from '../../openapi/location.js';
import { draft } from '../../state/events.js';
import { createRandom } from '../../state/random.js';
import type { World } from '../../state/world.js';
import { answered } from '../answers.js';
import type { Kind } from '../kind.js';
import { absoluteDirectory } from '../location.js';
import { format } from './format.js';
import { inferProjectCopy } from './infer.js';
import type { ProjectCopyDefinition } from './types.js';

const ADJECTIVES = ['kind', 'quiet', 'brave', 'calm', 'bright', 'swift', 'gentle', 'bold'] as const;
const NOUNS = ['harbor', 'river', 'otter', 'falcon', 'meadow', 'forest', 'comet', 'summit'] as const;

/** An adjective-noun name like the real server's, from the scenario's seed so a replay names copies alike. */
function copyName(world: World): string {
  const random = createRandom(`${world.scenario.seed}:copy:${world.copies.size}`);
  return `${random.pick(ADJECTIVES)}-${random.pick(NOUNS)}`;
}

export const projectCopy: Kind = {
  name: 'project-copy',
  format,

  read: (source) => ({ projectCopy: (source.projectCopy as ProjectCopyDefinition | undefined) ?? {} }),

  seed: () => ({ copies: new Set<string>() }),

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
      const body = request.body as { directory: string; name?: string };
      const base = posix.join(posix.resolve(source, body.directory), body.name || copyName(world));
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
  },

  appliers: {
    'project.copy.created': (world, { data }) => {
      world.copies.add(data.directory);
    },
  },

  publication: {
    // project.directories.updated follows it.
    internal: ['project.copy.created'],
  },

  infer: inferProjectCopy,
};

/**
 * The project's file tree (`GET /api/fs/list`): the scenario's flat list of paths, listed a directory at a
 * time, relative to the location asked for, as the real server lists them.
 */
import { posix } from 'node:path';
import { InvalidRequestError } from '../../errors.js';
import { jsonAnswer } from '../../exchange/exchange.js';
import type { AcceptedRequest } from '../../exchange/layer.js';
import { resolveLocation, type LocationInfo, type ProjectContext } from '../../openapi/location.js';
import type { World } from '../../state/world.js';
import { answered } from '../answers.js';
import type { Kind } from '../kind.js';
import { absoluteDirectory, within } from '../location.js';
import { buildFileTree } from './file-tree.js';
import { format } from './format.js';
import { inferFiles } from './infer.js';

/** The key of a directory in the scenario's file tree: relative to the project, '' for its root, else ending in '/'. */
function treeKey(project: ProjectContext, absolute: string): string {
  const relative = posix.relative(project.directory, absolute);
  return relative === '' ? '' : `${relative}/`;
}

function listDirectory(world: World, project: ProjectContext, request: AcceptedRequest, location: LocationInfo) {
  const base = absoluteDirectory(project, location);
  // Another directory is another project, whose files the scenario does not describe.
  if (!within(project.directory, base)) return [];
  const files = world.scenario.files;
  const path = request.query.path as string | undefined;
  const target = posix.resolve(base, path ?? '.');
  // Without a path the location itself is what does not exist, so the error points there.
  const [field, shown] = path === undefined ? ['location[directory]', location.directory] : ['path', path];
  if (!within(base, target)) throw new InvalidRequestError(`Path is outside the location: ${shown}`, 'Query', field);
  const key = treeKey(project, target);
  const entries = files[key];
  if (!entries) {
    const siblings = files[treeKey(project, posix.dirname(target))] ?? [];
    const isFile = siblings.some((e) => e.type === 'file' && `${e.path}/` === key);
    throw new InvalidRequestError(`${isFile ? 'Not a directory' : 'No such directory'}: ${shown}`, 'Query', field);
  }
  // Entries are stored relative to the project; the real server answers relative to the location.
  const strip = treeKey(project, base).length;
  return entries.map((e) => ({ path: e.path.slice(strip), type: e.type }));
}

export const file: Kind = {
  name: 'file',
  format,

  read: (source) => ({ files: buildFileTree((source.files as string[] | undefined) ?? []) }),

  handlers: {
    'v2.fs.list': (request, context) => {
      const { world, project } = context;
      if (world.scenario.files['']?.length === 0) return undefined;
      const location = resolveLocation(project, request.query.location);
      return answered(jsonAnswer(200, { location, data: listDirectory(world, project, request, location) }));
    },
  },

  infer: inferFiles,
};

/**
 * The project's files: the scenario's tree listed a directory at a time (`GET /api/fs/list`), searched
 * (`GET /api/fs/find`) and read (`GET /api/fs/read/*`), relative to the location asked for, as the real
 * server does. A scenario without files has a small TypeScript project's.
 */
import { posix } from 'node:path';
import { InvalidRequestError } from '../../errors/errors.js';
import { jsonAnswer, type Answer } from '../../exchange/exchange.js';
import { resolveLocation, type LocationInfo, type ProjectContext } from '../../openapi/location.js';
import { REST_PARAM } from '../../openapi/router.js';
import type { World } from '../../state/world.js';
import { answered } from '../answers.js';
import type { Kind, HandlerRequest } from '../kind.js';
import { absoluteDirectory, within } from '../location.js';
import { contentType, fileBytes } from './contents.js';
import { DEFAULT_CONTENTS, DEFAULT_PATHS } from './default-tree.js';
import { buildFileTree } from './file-tree.js';
import { entriesBelow, findEntries, readLimit } from './find.js';
import { format } from './format.js';
import type { FileSection } from './section.generated.js';
import type { FileContent, FilesDefinition } from './types.js';

/** The key of a directory in the scenario's file tree: relative to the project, '' for its root, else ending in '/'. */
function treeKey(project: ProjectContext, absolute: string): string {
  const relative = posix.relative(project.directory, absolute);
  return relative === '' ? '' : `${relative}/`;
}

function listDirectory(world: World, project: ProjectContext, request: HandlerRequest, location: LocationInfo) {
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

/** A file's bytes with the real server's content type; a path that names no file of the tree answers 400. */
function readFile(world: World, project: ProjectContext, request: HandlerRequest): Answer {
  const location = resolveLocation(project, request.query.location);
  const base = absoluteDirectory(project, location);
  const path = request.pathParams[REST_PARAM] ?? '';
  const fail = (message: string) => new InvalidRequestError(`${message}: ${path}`, 'Params', 'path');
  if (path === '') throw new InvalidRequestError('No file path after /api/fs/read/', 'Params', 'path');
  if (path.endsWith('/')) throw fail('Not a file');
  const target = posix.resolve(base, path);
  if (!within(base, target)) throw fail('Path is outside the location');
  const tree = world.scenario.files;
  const relative = posix.relative(project.directory, target);
  // Only the project's files are described: anything else reads as missing.
  if (!within(project.directory, target) || relative === '') throw fail('No such file');
  if (tree[`${relative}/`]) throw fail('Is a directory');
  const parent = tree[treeKey(project, posix.dirname(target))] ?? [];
  if (!parent.some((e) => e.type === 'file' && e.path === relative)) throw fail('No such file');
  const files = { tree, ...world.scenario.fileContents };
  const bytes = fileBytes(files, relative, posix.basename(project.directory));
  return { kind: 'raw', status: 200, raw: bytes, headers: { 'content-type': contentType(relative) } };
}

function findFiles(world: World, project: ProjectContext, request: HandlerRequest, location: LocationInfo) {
  const base = absoluteDirectory(project, location);
  if (!within(project.directory, base)) return [];
  const { query, type, limit } = request.query as { query: string; type?: 'file' | 'directory'; limit?: unknown };
  const entries = entriesBelow(world.scenario.files, treeKey(project, base));
  return findEntries(entries, query, type, readLimit(limit));
}

type Item = string | { path: string; content?: string; encoding?: 'utf8' | 'base64'; size?: number };

/** The scenario's section as a tree and the contents it gives; the default project's when it has none. */
export function readFiles(items: readonly Item[] | undefined): FilesDefinition {
  if (items === undefined) {
    return { tree: buildFileTree(DEFAULT_PATHS), contents: DEFAULT_CONTENTS, sizes: {} };
  }
  const contents: Record<string, FileContent> = {};
  const sizes: Record<string, number> = {};
  const paths = items.map((item) => {
    if (typeof item === 'string') return item;
    if (item.content !== undefined) contents[item.path] = { data: item.content, encoding: item.encoding ?? 'utf8' };
    else if (item.size !== undefined) sizes[item.path] = item.size;
    return item.path;
  });
  return { tree: buildFileTree(paths), contents, sizes };
}

export const file: Kind<FileSection> = {
  name: 'file',
  format,

  read: (source) => {
    const { tree, contents, sizes } = readFiles(source.files);
    return { files: tree, fileContents: { contents, sizes } };
  },

  handlers: {
    'v2.fs.list': (request, context) => {
      const { world, project } = context;
      const location = resolveLocation(project, request.query.location);
      return answered(jsonAnswer(200, { location, data: listDirectory(world, project, request, location) }));
    },
    'v2.fs.find': (request, { world, project }) => {
      const location = resolveLocation(project, request.query.location);
      return answered(jsonAnswer(200, { location, data: findFiles(world, project, request, location) }));
    },
    'v2.fs.read': (request, { world, project }) => answered(readFile(world, project, request)),
  },

  infer: () => import('./infer.js').then((m) => m.inferFiles),
};

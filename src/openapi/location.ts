/**
 * The `location` envelope of location-scoped answers: the directory the client asked for (or the
 * simulator's project directory), the workspace when one was asked for, and the enclosing project.
 * Like the real server: the requested directory is echoed as given; a directory outside the project is
 * its own project with id "global".
 */
import { createHash } from 'node:crypto';
import { posix } from 'node:path';

export interface LocationInfo {
  directory: string;
  workspaceID?: string;
  project: { id: string; directory: string };
}

export interface ProjectContext {
  directory: string;
  id: string;
}

export function projectContext(directory: string, id?: string): ProjectContext {
  // Real project ids are the 40-hex hash of the repository's root commit; a hash of the directory stands in.
  return { directory, id: id ?? createHash('sha1').update(`project:${directory}`).digest('hex') };
}

export function resolveLocation(project: ProjectContext, requested: unknown): LocationInfo {
  const query = (requested ?? {}) as { directory?: string | null; workspace?: string | null };
  const directory = query.directory ?? project.directory;
  const absolute = posix.resolve(project.directory, directory);
  const inside = absolute === project.directory || absolute.startsWith(`${project.directory}/`);
  const location: LocationInfo = {
    directory,
    project: inside ? { id: project.id, directory: project.directory } : { id: 'global', directory: absolute },
  };
  if (query.workspace) location.workspaceID = query.workspace;
  return location;
}

/**
 * Where a location-scoped request points: the location's directory as an absolute path, and whether a path
 * lies within another (the project, a location).
 */
import { posix } from 'node:path';
import type { LocationInfo, ProjectContext } from '../openapi/location.js';

/** The location's directory as an absolute path; a relative one is taken from the project directory, as the real server takes it from its cwd. */
export function absoluteDirectory(project: ProjectContext, location: LocationInfo): string {
  return posix.resolve(project.directory, location.directory);
}

export function within(parent: string, path: string): boolean {
  return path === parent || path.startsWith(parent === '/' ? '/' : `${parent}/`);
}

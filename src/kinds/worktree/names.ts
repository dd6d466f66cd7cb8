/**
 * Where worktrees live and what they are called, shared by the worktree and workspace kinds: the real server
 * checks them out under its data directory, one folder per project, named by a slug of the name asked for or
 * an adjective-noun one it makes up (seeded here, so a replay names them alike).
 */
import { posix } from 'node:path';
import type { ProjectContext } from '../../openapi/location.js';
import { createRandom } from '../../state/random.js';
import type { World } from '../../state/world.js';
import type { WorktreeDefinition } from './types.js';

const ADJECTIVES = ['proud', 'clever', 'swift', 'curious', 'witty', 'misty', 'glowing', 'crisp'] as const;
const NOUNS = ['circuit', 'rocket', 'river', 'wolf', 'falcon', 'pixel', 'squid', 'meadow'] as const;

/** The home directory of the user the project belongs to, as its path says (`/home/dev`). */
function homeOf(project: ProjectContext): string {
  return /^\/(home|Users)\/[^/]+/.exec(project.directory)?.[0] ?? '/root';
}

export function worktreeRoot(project: ProjectContext): string {
  return posix.join(homeOf(project), '.local/share/opencode/worktree', project.id);
}

export function worktreeDirectory(project: ProjectContext, worktree: WorktreeDefinition): string {
  return worktree.directory ?? posix.join(worktreeRoot(project), worktree.name);
}

/** `My Feature` → `my-feature`, as the real server names a worktree after what it was asked. */
export function slugify(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** An adjective-noun slug drawn from `seed`. */
export function seededSlug(seed: string): string {
  const random = createRandom(seed);
  return `${random.pick(ADJECTIVES)}-${random.pick(NOUNS)}`;
}

/** A free worktree name: the slug asked for, else (or when taken) an adjective-noun slug after it. */
export function freeWorktreeName(world: World, asked: string | undefined, purpose: string): string {
  const wanted = asked === undefined ? '' : slugify(asked);
  if (wanted && !world.worktrees.has(wanted)) return wanted;
  for (let attempt = 0; ; attempt++) {
    const slug = seededSlug(`${world.scenario.seed}:${purpose}:${world.worktrees.size}:${attempt}`);
    // Past as many tries as there are slugs, a number keeps the search finite.
    const made = attempt < 64 ? slug : `${slug}-${attempt}`;
    const name = wanted ? `${wanted}-${made}` : made;
    if (!world.worktrees.has(name)) return name;
  }
}

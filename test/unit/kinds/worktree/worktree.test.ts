/**
 * Worktrees: where they live and what they are called (slugs of what was asked, made-up slugs that stay
 * unique however many are made), the scenario's and its workspaces' worktrees, the real server's refusals,
 * and the bound on how many a client can make.
 */
import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_WORKTREES } from '../../../../src/kinds/worktree/limits.js';
import { slugify, worktreeDirectory, worktreeRoot } from '../../../../src/kinds/worktree/names.js';
import { projectContext } from '../../../../src/openapi/location.js';
import { SimResourceLimitError } from '../../../../src/errors/sim-errors.js';
import { PROJECT, worldOf } from '../workspace/world.js';

// The project's user is the one its directory is under (the project lives in that user's home).
const HOME = posix.dirname(PROJECT.directory);
const ROOT = `${HOME}/.local/share/opencode/worktree/${PROJECT.id}`;

describe('names and places', () => {
  it('slugs a name as the real server does', () => {
    expect(slugify('My Feature')).toBe('my-feature');
    expect(slugify('  --Fix: login/redirect!! ')).toBe('fix-login-redirect');
    expect(slugify('***')).toBe('');
  });

  it("puts worktrees under the data directory of the project's user", () => {
    expect(worktreeRoot(PROJECT)).toBe(ROOT);
    expect(worktreeRoot(projectContext('/Users/ada/code/app', 'p1'))).toBe(
      '/Users/ada/.local/share/opencode/worktree/p1',
    );
    // Outside any user's home the server runs as root, whose home is /root.
    expect(worktreeRoot(projectContext('/srv/app', 'p1'))).toBe(
      posix.join('/root', '.local/share/opencode/worktree/p1'),
    );
    expect(worktreeDirectory(PROJECT, { name: 'x', directory: '/elsewhere/x' })).toBe('/elsewhere/x');
  });

  it('keeps made-up names unique past the number of slugs there are', async () => {
    const world = await worldOf({});
    const names = new Set<string>();
    for (let i = 0; i < 100; i++) {
      const created = world.call('worktree.create', { body: {} })?.body as { name: string; branch: string };
      expect(created.name).toMatch(/^[a-z]+-[a-z]+(-\d+)?$/);
      expect(created.branch).toBe(`opencode/${created.name}`);
      names.add(created.name);
    }
    expect(names.size).toBe(100);
  });
});

describe('the scenario', () => {
  it('lists its worktrees, and those its worktree workspaces stand on, each once', async () => {
    const world = await worldOf({
      worktrees: [
        { name: 'hotfix', branch: 'fix/login' },
        { name: 'spike', directory: `${HOME}/spike` },
      ],
      workspaces: [
        { id: 'wrk_1', name: 'review', branch: 'design/review' },
        { id: 'wrk_2', name: 'hotfix' },
        { id: 'wrk_3', type: 'remote', name: 'cloud' },
      ],
    });
    expect(world.call('worktree.list')?.body).toEqual([`${ROOT}/hotfix`, `${HOME}/spike`, `${ROOT}/review`]);
    expect(world.engine.world?.worktrees.get('review')).toEqual({ name: 'review', branch: 'design/review' });
  });

  it('refuses a worktree declared twice', async () => {
    await expect(worldOf({ worktrees: [{ name: 'a' }, { name: 'a' }] })).rejects.toThrow(
      /worktree a is declared twice/,
    );
  });
});

describe('the handlers', () => {
  it('remove quietly, refuse the main working tree, and reset only a worktree', async () => {
    const world = await worldOf({ worktrees: [{ name: 'hotfix' }] });
    const mainTree = world.fail('worktree.remove', { body: { directory: PROJECT.directory } });
    expect(mainTree.toBody()).toEqual({
      name: 'WorktreeRemoveFailedError',
      data: { message: `fatal: '${PROJECT.directory}' is a main working tree\n` },
    });
    expect(world.fail('worktree.reset', { body: { directory: '.' } }).toBody()).toEqual({
      name: 'WorktreeResetFailedError',
      data: { message: 'Cannot reset the primary workspace' },
    });
    expect(world.call('worktree.reset', { body: { directory: `${ROOT}/hotfix` } })?.body).toBe(true);
    expect(world.call('worktree.remove', { body: { directory: '/srv/nowhere' } })?.body).toBe(true);
    expect(world.events()).toEqual([]);
    expect(world.call('worktree.remove', { body: { directory: `${ROOT}/hotfix` } })?.body).toBe(true);
    expect(world.events().map((e) => [e.type, e.data])).toEqual([['worktree.removed', { name: 'hotfix' }]]);
    expect(world.call('worktree.list')?.body).toEqual([]);
  });

  it('make no more worktrees than the bound', async () => {
    const worktrees = Array.from({ length: MAX_WORKTREES }, (_, i) => ({ name: `w${i}` }));
    const world = await worldOf({ worktrees });
    expect(() => world.call('worktree.create', { body: { name: 'one-more' } })).toThrow(SimResourceLimitError);
    expect(() => world.call('experimental.workspace.create', { body: { type: 'worktree' } })).toThrow(
      SimResourceLimitError,
    );
  });
});

/**
 * Project copies after they are made: removed by directory (a dirty one only with force, the project itself
 * and unknown directories refused as the real server refuses them), refreshed, named, and bounded.
 */
import { describe, expect, it } from 'vitest';
import { MAX_PROJECT_COPIES } from '../../../../src/kinds/project-copy/limits.js';
import { SimResourceLimitError } from '../../../../src/errors/sim-errors.js';
import { PROJECT, worldOf } from '../workspace/world.js';

const COPIES = [{ directory: '/home/dev/copies/clean' }, { directory: '/home/dev/copies/dirty/', dirty: true }];
const projectID = PROJECT.id;

describe('removing a copy', () => {
  it('frees its directory and announces the project directories, a dirty one only with force', async () => {
    const world = await worldOf({ projectCopy: { copies: COPIES } });
    const remove = (directory: string, force: boolean, query = {}) =>
      world.call('v2.projectCopy.remove', { pathParams: { projectID }, body: { directory, force }, query });
    expect(remove('/home/dev/copies/clean', false)?.status).toBe(204);
    const refused = world.fail('v2.projectCopy.remove', {
      pathParams: { projectID },
      body: { directory: '/home/dev/copies/dirty', force: false },
    });
    expect(refused.toBody()).toEqual({
      name: 'ProjectCopyError',
      data: {
        message: "fatal: '/home/dev/copies/dirty' contains modified or untracked files, use --force to delete it",
        forceRequired: true,
      },
    });
    // Relative to the location, whatever projectID the path names.
    expect(
      world.call('v2.projectCopy.remove', {
        pathParams: { projectID: 'global' },
        body: { directory: '../copies/dirty', force: true },
      })?.status,
    ).toBe(204);
    expect(world.engine.world?.copies.size).toBe(0);
    expect(world.events().map((e) => e.type)).toEqual([
      'project.copy.removed',
      'project.directories.updated',
      'project.copy.removed',
      'project.directories.updated',
    ]);
  });

  it('refuses the project itself and a directory that is no copy, with forceRequired false', async () => {
    const world = await worldOf({ projectCopy: { copies: COPIES } });
    const message = (directory: string) =>
      world.fail('v2.projectCopy.remove', { pathParams: { projectID }, body: { directory, force: true } }).toBody();
    expect(message(PROJECT.directory)).toEqual({
      name: 'ProjectCopyError',
      data: { message: `Invalid project copy directory: ${PROJECT.directory}`, forceRequired: false },
    });
    expect(message('/tmp/nowhere')).toEqual({
      name: 'ProjectCopyError',
      data: { message: 'Project copy directory unavailable: /tmp/nowhere', forceRequired: false },
    });
    expect(world.events()).toEqual([]);
  });
});

describe('refreshing and naming', () => {
  it('refreshes with 204 and nothing announced', async () => {
    const world = await worldOf({});
    expect(world.call('v2.projectCopy.refresh', { pathParams: { projectID: 'anything' } })?.status).toBe(204);
    expect(world.events()).toEqual([]);
  });

  it('names a copy with a seeded slug, the same for the same context until a copy is made', async () => {
    const world = await worldOf({});
    const name = (context?: string) =>
      (
        world.call('experimental.projectCopy.generateName', {
          pathParams: { projectID },
          body: context === undefined ? {} : { context },
        })?.body as { name: string }
      ).name;
    const first = name('Fix the login redirect');
    expect(first).toMatch(/^[a-z]+-[a-z]+$/);
    expect(name('Fix the login redirect')).toBe(first);
    expect(name()).toMatch(/^[a-z]+-[a-z]+$/);
    const other = await worldOf({});
    expect(
      other.call('experimental.projectCopy.generateName', {
        pathParams: { projectID },
        body: { context: 'Fix the login redirect' },
      })?.body,
    ).toEqual({ name: first });
    const noBody = world.fail('experimental.projectCopy.generateName', { pathParams: { projectID } });
    expect(noBody.toBody()).toEqual({
      name: 'BadRequest',
      data: { message: 'Expected object, got undefined', kind: 'Payload' },
    });
  });
});

it('keeps no more copies than the bound, then answers SimResourceLimitError', async () => {
  const copies = Array.from({ length: MAX_PROJECT_COPIES }, (_, i) => ({ directory: `/home/dev/copies/c${i}` }));
  const world = await worldOf({ projectCopy: { copies } });
  expect(() =>
    world.call('v2.projectCopy.create', {
      pathParams: { projectID },
      body: { strategy: 'git_worktree', directory: '/home/dev/copies', name: 'one-more' },
    }),
  ).toThrow(SimResourceLimitError);
});

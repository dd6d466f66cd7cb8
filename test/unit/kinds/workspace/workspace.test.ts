/**
 * Workspaces: the scenario's (defaults, statuses, duplicates), ids a creation may choose, removal with the
 * worktree, sessions warped in and out (and a session not there yet), and the bound.
 */
import { describe, expect, it } from 'vitest';
import { MAX_WORKSPACES } from '../../../../src/kinds/workspace/limits.js';
import { SimResourceLimitError } from '../../../../src/errors/sim-errors.js';
import { PROJECT, worldOf } from './world.js';

const SES = 'ses_dfc5ae513ffePKUBK7HkVp5zCB';
const LATER = 'ses_dfc5a2222222LaterSession01';

describe('the scenario', () => {
  it('reads defaults: the worktree type, a seeded name, no branch, connected, used at the start', async () => {
    const world = await worldOf({
      start: '2026-11-22T09:00:00Z',
      workspaces: [
        { id: 'wrk_a' },
        {
          id: 'wrk_b',
          name: 'remote-box',
          type: 'ssh',
          directory: null,
          status: 'disconnected',
          used: '2026-11-22T08:00:00Z',
        },
      ],
    });
    const listed = world.call('experimental.workspace.list')?.body as Array<Record<string, unknown>>;
    expect(listed[0]).toMatchObject({ id: 'wrk_a', type: 'worktree', branch: null, extra: null });
    expect(listed[0]?.name).toMatch(/^[a-z]+-[a-z]+$/);
    expect(listed[0]?.timeUsed).toBe(Date.parse('2026-11-22T09:00:00Z'));
    expect(listed[1]).toEqual({
      id: 'wrk_b',
      type: 'ssh',
      name: 'remote-box',
      branch: null,
      directory: null,
      extra: null,
      projectID: PROJECT.id,
      timeUsed: Date.parse('2026-11-22T08:00:00Z'),
    });
    expect(world.call('experimental.workspace.status')?.body).toEqual([
      { workspaceID: 'wrk_a', status: 'connected' },
      { workspaceID: 'wrk_b', status: 'disconnected' },
    ]);
  });

  it('refuses a workspace declared twice', async () => {
    await expect(worldOf({ workspaces: [{ id: 'wrk_a' }, { id: 'wrk_a' }] })).rejects.toThrow(
      /workspace wrk_a is declared twice/,
    );
  });
});

describe('creating and removing', () => {
  it('takes the id a client chooses once, and refuses it the second time', async () => {
    const world = await worldOf({});
    const created = world.call('experimental.workspace.create', {
      body: { id: 'wrk_mine', type: 'worktree', extra: { ticket: 42 } },
    });
    expect(created?.body).toMatchObject({ id: 'wrk_mine', extra: { ticket: 42 }, branch: null });
    expect(world.events().map((e) => e.type)).toEqual(['worktree.ready', 'workspace.created', 'workspace.status']);
    expect(
      world.fail('experimental.workspace.create', { body: { id: 'wrk_mine', type: 'worktree' } }).toBody(),
    ).toEqual({ name: 'WorkspaceCreateError', data: { message: 'Workspace already exists: wrk_mine' } });
    expect(world.fail('experimental.workspace.create', {}).toBody()).toEqual({
      _tag: 'InvalidRequestError',
      message: 'Expected object, got undefined',
      kind: 'Payload',
    });
  });

  it('removes a workspace with its worktree, and the sessions warped into it come back out', async () => {
    const world = await worldOf({ sessions: [{ id: SES }], workspaces: [{ id: 'wrk_a', name: 'review' }] });
    world.call('experimental.workspace.warp', { body: { id: 'wrk_a', sessionID: SES } });
    expect(world.engine.world?.sessionWorkspaces.get(SES)).toBe('wrk_a');
    const removed = world.call('experimental.workspace.remove', { pathParams: { id: 'wrk_a' } });
    expect(removed?.body).toMatchObject({ id: 'wrk_a', name: 'review' });
    expect(world.engine.world?.worktrees.has('review')).toBe(false);
    expect(world.engine.world?.sessionWorkspaces.has(SES)).toBe(false);
  });

  it('makes no more workspaces than the bound, by creation or by sync', async () => {
    const workspaces = Array.from({ length: MAX_WORKSPACES }, (_, i) => ({ id: `wrk_${i}`, type: 'ssh' }));
    const world = await worldOf({ workspaces, worktrees: [{ name: 'stray' }] });
    expect(() => world.call('experimental.workspace.create', { body: { type: 'worktree' } })).toThrow(
      SimResourceLimitError,
    );
    expect(() => world.call('experimental.workspace.syncList')).toThrow(SimResourceLimitError);
  });
});

describe('warping', () => {
  it('refuses a session that has not appeared yet, as one that does not exist', async () => {
    const world = await worldOf({ sessions: [{ id: LATER, appears: '5s' }], workspaces: [{ id: 'wrk_a' }] });
    expect(world.fail('experimental.workspace.warp', { body: { id: null, sessionID: LATER } }).toBody()).toEqual({
      name: 'NotFoundError',
      data: { message: `Session not found: ${LATER}` },
    });
  });

  it('detaches a session to the local project', async () => {
    const world = await worldOf({ sessions: [{ id: SES }], workspaces: [{ id: 'wrk_a' }] });
    world.call('experimental.workspace.warp', { body: { id: 'wrk_a', sessionID: SES } });
    world.call('experimental.workspace.warp', { body: { id: null, sessionID: SES, copyChanges: true } });
    expect(world.engine.world?.sessionWorkspaces.size).toBe(0);
    expect(world.events().map((e) => e.data)).toEqual([
      { sessionID: SES, workspaceID: 'wrk_a' },
      { sessionID: SES, workspaceID: null },
    ]);
  });
});

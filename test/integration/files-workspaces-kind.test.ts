/**
 * Files, project copies, worktrees and workspaces through the official client, against a simulator serving a
 * scenario that has some of each: files listed, searched and read (text, binary, large, generated); copies
 * made and removed (a dirty one only with force); worktrees and workspaces created, listed, synced, warped
 * into and removed, each change seen by the next call and announced on the event stream as the real server
 * announces it. Every answer is held to the spec, and to the real server's own document where it declares it.
 */
import { createOpencodeClient } from '@opencode-ai/sdk/v2/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/index.js';
import type { Scenario } from '../../src/format/scenario-types.js';
import { realDocProblemsAt as realProblems } from '../support/real-doc.js';
import { eventProblems, specProblems } from '../support/spec-validator.js';
import { until } from '../support/until.js';

type Frame = { type: string; data: Record<string, unknown>; durable?: { aggregateID: string; seq: number } };
type Sim = Awaited<ReturnType<typeof startSimulator>>;

const PROJECT = { directory: '/home/dev/acme-web', id: '65831e286a96b4ffa21a844bd6bc948480c05a6d' };
const SES = 'ses_dfc5ae513ffePKUBK7HkVp5zCB';
const WRK = 'wrk_203a7c0e2001DesignReview01';
const DIRTY_COPY = '/home/dev/acme-web-copies/review';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const WORKTREES = `/home/dev/.local/share/opencode/worktree/${PROJECT.id}`;

const SCENARIO = {
  name: 'files-workspaces',
  project: PROJECT,
  sessions: [{ id: SES, title: 'Redesign the settings page' }],
  files: [
    '.git/',
    { path: 'README.md', content: '# acme-web\n\nThe storefront.\n' },
    { path: 'src/index.ts', content: "export * from './settings';\n" },
    'src/settings/SettingsPage.tsx',
    'src/settings/index.ts',
    { path: 'public/logo.png', content: PNG, encoding: 'base64' },
    { path: 'logs/build.log', size: 2_000_000 },
    'package.json',
  ],
  projectCopy: { copies: [{ directory: DIRTY_COPY, dirty: true }] },
  worktrees: [{ name: 'hotfix-login' }],
  workspaces: [{ id: WRK, name: 'design-review', branch: 'design/review' }],
} satisfies Scenario;

let sim: Sim;
let client: ReturnType<typeof createOpencodeClient>;
const frames: Frame[] = [];
const controller = new AbortController();

beforeAll(async () => {
  sim = await startSimulator({ scenario: SCENARIO, log: () => {} });
  client = createOpencodeClient({ baseUrl: sim.url });
  const { stream } = await client.v2.event.subscribe({ signal: controller.signal, sseMaxRetryAttempts: 0 });
  void (async () => {
    try {
      for await (const event of stream) frames.push(event as unknown as Frame);
    } catch {
      // aborted when the file ends
    }
  })();
  await until(() => frames.length > 0, 'server.connected');
}, 60_000);

afterAll(async () => {
  controller.abort();
  await sim?.close();
});

/** The frames published from now until `act` has run and `settled` says the stream caught up. */
async function published(act: () => Promise<unknown>, settled: (f: Frame[]) => boolean): Promise<Frame[]> {
  const from = frames.length;
  await act();
  await until(() => settled(frames.slice(from)), 'the events');
  const mine = frames.slice(from);
  for (const frame of mine) expect(eventProblems(frame), frame.type).toEqual([]);
  return mine;
}

/** Frames seen since `from`, of these types. */
const ofTypes = (from: number, ...types: string[]) => frames.slice(from).filter((f) => types.includes(f.type));

function valid(operationId: string, response: Response, body: unknown): void {
  expect(specProblems(operationId, response.status, body, response.headers.get('content-type') ?? undefined)).toEqual(
    [],
  );
  expect(response.headers.get('x-sim-violations')).toBeNull();
  expect(response.headers.get('x-sim-layer')).toBe('scenario');
}

// The client's method sends its literal `/api/fs/read/*`; the file's path goes in its place, as the real app does.
const read = (path: string, location?: { directory: string }) =>
  client.v2.fs.read(location ? { location } : undefined, { url: `/api/fs/read/${path}` } as never);

describe('files', () => {
  it('lists, finds and reads the same tree', async () => {
    const listed = await client.v2.fs.list({ path: 'src' });
    valid('v2.fs.list', listed.response, listed.data);
    expect(listed.data?.data).toEqual([
      { path: 'src/settings/', type: 'directory' },
      { path: 'src/index.ts', type: 'file' },
    ]);

    const found = await client.v2.fs.find({ query: 'settings' });
    valid('v2.fs.find', found.response, found.data);
    expect(realProblems('/api/fs/find', 'get', 200, found.data)).toEqual([]);
    expect(found.data?.data.map((e) => e.path)).toEqual([
      'src/settings/',
      'src/settings/SettingsPage.tsx',
      'src/settings/index.ts',
    ]);
    const page = await client.v2.fs.find({ query: 'setpage', type: 'file', limit: '5' });
    expect(page.data?.data).toEqual([{ path: 'src/settings/SettingsPage.tsx', type: 'file' }]);
    const directories = await client.v2.fs.find({ query: '', type: 'directory' });
    // .git/ is never searched.
    expect(directories.data?.data.map((e) => e.path)).toEqual(['src/', 'logs/', 'public/', 'src/settings/']);
    const inSrc = await client.v2.fs.find({ query: 'index', location: { directory: `${PROJECT.directory}/src` } });
    expect(inSrc.data?.data.map((e) => e.path)).toEqual(['index.ts', 'settings/index.ts']);

    const readme = await read('README.md');
    expect(readme.response.status).toBe(200);
    expect(readme.response.headers.get('content-type')).toBe('text/markdown');
    expect(readme.data).toBe('# acme-web\n\nThe storefront.\n');
    // Relative to the location, as the real server reads it.
    const index = await read('index.ts', { directory: `${PROJECT.directory}/src` });
    expect(index.response.headers.get('content-type')).toBe('video/mp2t');
    expect(await (index.data as Blob).text()).toBe("export * from './settings';\n");
  });

  it('reads a binary file as its bytes, a large one whole, a file without content as generated', async () => {
    const logo = await read('public/logo.png');
    expect(logo.response.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await (logo.data as Blob).arrayBuffer())).toEqual(Buffer.from(PNG, 'base64'));

    const log = await read('logs/build.log');
    expect(log.response.headers.get('content-length')).toBe('2000000');
    expect((log.data as unknown as string).length).toBe(2_000_000);
    expect((log.data as unknown as string).startsWith('0000001  build.log: generated line\n')).toBe(true);

    const component = await read('src/settings/SettingsPage.tsx');
    expect(component.response.headers.get('content-type')).toBe('application/octet-stream');
    expect(await (component.data as Blob).text()).toContain('export function SettingsPage()');
    const pkg = await read('package.json');
    expect(pkg.data).toMatchObject({ name: 'acme-web', private: true });
  });

  it('refuses what is not a file of the tree with a declared InvalidRequestError', async () => {
    for (const [path, message] of [
      ['src/missing.ts', 'No such file: src/missing.ts'],
      ['src/settings', 'Is a directory: src/settings'],
      ['..%2Fsecrets.txt', 'Path is outside the location: ../secrets.txt'],
      ['*', 'No such file: *'],
    ] as const) {
      const refused = await read(path);
      expect(refused.response.status, path).toBe(400);
      valid('v2.fs.read', refused.response, refused.error);
      expect(refused.error).toEqual({ _tag: 'InvalidRequestError', message, kind: 'Params', field: 'path' });
    }
    const badLimit = await client.v2.fs.find({ query: 'a', limit: 'abc' });
    expect(badLimit.error).toMatchObject({ _tag: 'InvalidRequestError', kind: 'Query' });
    expect(badLimit.error?.message).toBe('Expected an integer, got NaN\n  at ["limit"]');
  });
});

describe('project copies', () => {
  const projectID = PROJECT.id;

  it('makes a copy, removes it, and announces each change of the project directories', async () => {
    const from = frames.length;
    const made = await client.v2.projectCopy.create({
      projectID,
      strategy: 'git_worktree',
      directory: '/home/dev/acme-web-copies',
      name: 'settings',
    });
    valid('v2.projectCopy.create', made.response, made.data);
    expect(made.data).toEqual({ directory: '/home/dev/acme-web-copies/settings' });
    await until(() => ofTypes(from, 'project.directories.updated').length === 1, 'the copy announced');

    const removed = await client.v2.projectCopy.remove({ projectID, directory: made.data!.directory, force: false });
    expect(removed.response.status).toBe(204);
    await until(() => ofTypes(from, 'project.directories.updated').length === 2, 'the removal announced');
    expect(ofTypes(from, 'project.directories.updated').map((f) => f.data)).toEqual([{ projectID }, { projectID }]);

    const again = await client.v2.projectCopy.remove({ projectID, directory: made.data!.directory, force: false });
    expect(again.response.status).toBe(400);
    valid('v2.projectCopy.remove', again.response, again.error);
    expect(again.error).toEqual({
      name: 'ProjectCopyError',
      data: { message: `Project copy directory unavailable: ${made.data!.directory}`, forceRequired: false },
    });
  });

  it('removes a dirty copy only with force', async () => {
    const refused = await client.v2.projectCopy.remove({ projectID, directory: DIRTY_COPY, force: false });
    expect(refused.response.status).toBe(400);
    valid('v2.projectCopy.remove', refused.response, refused.error);
    expect(refused.error).toEqual({
      name: 'ProjectCopyError',
      data: {
        message: `fatal: '${DIRTY_COPY}' contains modified or untracked files, use --force to delete it`,
        forceRequired: true,
      },
    });
    const events = await published(
      () => client.v2.projectCopy.remove({ projectID, directory: DIRTY_COPY, force: true }),
      (f) => f.some((e) => e.type === 'project.directories.updated'),
    );
    expect(events.map((e) => e.type)).toEqual(['project.directories.updated']);
    // The name is free again: a new copy there takes it without a suffix.
    await published(
      async () => {
        const remade = await client.v2.projectCopy.create({
          projectID,
          strategy: 'git_worktree',
          directory: '/home/dev/acme-web-copies',
          name: 'review',
        });
        expect(remade.data).toEqual({ directory: DIRTY_COPY });
      },
      (f) => f.some((e) => e.type === 'project.directories.updated'),
    );
  });

  it('refreshes quietly and suggests names for copies', async () => {
    const from = frames.length;
    const refreshed = await client.v2.projectCopy.refresh({ projectID });
    expect(refreshed.response.status).toBe(204);
    const named = await client.experimental.projectCopy.generateName({ projectID, context: 'Fix the login redirect' });
    valid('experimental.projectCopy.generateName', named.response, named.data);
    expect(realProblems('/experimental/project/{projectID}/copy/generate-name', 'post', 200, named.data)).toEqual([]);
    expect(named.data?.name).toMatch(/^[a-z]+-[a-z]+$/);
    const same = await client.experimental.projectCopy.generateName({ projectID, context: 'Fix the login redirect' });
    expect(same.data).toEqual(named.data);
    await new Promise((r) => setTimeout(r, 50));
    expect(frames.slice(from)).toEqual([]);
  });
});

describe('worktrees', () => {
  it('creates, lists, resets and removes worktrees, announcing each one ready', async () => {
    const listed = await client.worktree.list();
    valid('worktree.list', listed.response, listed.data);
    expect(listed.data).toEqual([`${WORKTREES}/hotfix-login`, `${WORKTREES}/design-review`]);

    let created: { name: string; branch?: string; directory: string } | undefined;
    const events = await published(
      async () => {
        const answer = await client.worktree.create({ worktreeCreateInput: { name: 'Settings Page' } });
        valid('worktree.create', answer.response, answer.data);
        expect(realProblems('/experimental/worktree', 'post', 200, answer.data)).toEqual([]);
        created = answer.data;
      },
      (f) => f.some((e) => e.type === 'worktree.ready'),
    );
    expect(created).toEqual({
      name: 'settings-page',
      branch: 'opencode/settings-page',
      directory: `${WORKTREES}/settings-page`,
    });
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ['worktree.ready', { name: 'settings-page', branch: 'opencode/settings-page' }],
    ]);
    // A taken name gets a made-up suffix.
    const second = await client.worktree.create({ worktreeCreateInput: { name: 'settings page' } });
    expect(second.data?.name).toMatch(/^settings-page-[a-z]+-[a-z]+$/);
    expect((await client.worktree.list()).data).toEqual([
      `${WORKTREES}/hotfix-login`,
      `${WORKTREES}/design-review`,
      `${WORKTREES}/settings-page`,
      second.data?.directory,
    ]);

    const reset = await client.worktree.reset({ worktreeResetInput: { directory: created!.directory } });
    valid('worktree.reset', reset.response, reset.data);
    expect(reset.data).toBe(true);
    const primary = await client.worktree.reset({ worktreeResetInput: { directory: PROJECT.directory } });
    valid('worktree.reset', primary.response, primary.error);
    expect(primary.error).toEqual({
      name: 'WorktreeResetFailedError',
      data: { message: 'Cannot reset the primary workspace' },
    });

    const removed = await client.worktree.remove({ worktreeRemoveInput: { directory: created!.directory } });
    valid('worktree.remove', removed.response, removed.data);
    expect(removed.data).toBe(true);
    expect((await client.worktree.list()).data).not.toContain(created!.directory);
    const unknown = await client.worktree.reset({ worktreeResetInput: { directory: created!.directory } });
    expect(unknown.error).toEqual({ name: 'WorktreeResetFailedError', data: { message: 'Worktree not found' } });
    // Removing again is a quiet true, as on the real server.
    expect((await client.worktree.remove({ worktreeRemoveInput: { directory: created!.directory } })).data).toBe(true);
    await client.worktree.remove({ worktreeRemoveInput: { directory: second.data!.directory } });
  });
});

describe('workspaces', () => {
  it('lists the worktree adapter and the scenario workspace, connected', async () => {
    const adapters = await client.experimental.workspace.adapter.list();
    valid('experimental.workspace.adapter.list', adapters.response, adapters.data);
    expect(adapters.data).toEqual([{ type: 'worktree', name: 'Worktree', description: 'Create a git worktree' }]);
    const listed = await client.experimental.workspace.list();
    valid('experimental.workspace.list', listed.response, listed.data);
    expect(realProblems('/experimental/workspace', 'get', 200, listed.data)).toEqual([]);
    expect(listed.data).toEqual([
      {
        id: WRK,
        type: 'worktree',
        name: 'design-review',
        branch: 'design/review',
        directory: `${WORKTREES}/design-review`,
        extra: null,
        projectID: PROJECT.id,
        timeUsed: expect.any(Number) as number,
      },
    ]);
    const status = await client.experimental.workspace.status();
    valid('experimental.workspace.status', status.response, status.data);
    expect(status.data).toEqual([{ workspaceID: WRK, status: 'connected' }]);
  });

  it('creates a workspace on a worktree of its own, lists it, and removes both', async () => {
    const from = frames.length;
    const created = await client.experimental.workspace.create({ type: 'worktree', branch: 'feature/billing' });
    valid('experimental.workspace.create', created.response, created.data);
    expect(realProblems('/experimental/workspace', 'post', 200, created.data)).toEqual([]);
    const space = created.data!;
    expect(space).toMatchObject({ type: 'worktree', branch: 'feature/billing', extra: null, projectID: PROJECT.id });
    expect(space.id).toMatch(/^wrk_/);
    expect(space.directory).toBe(`${WORKTREES}/${space.name}`);
    await until(() => ofTypes(from, 'workspace.status').length === 1, 'the workspace connected');
    expect(ofTypes(from, 'worktree.ready', 'workspace.status').map((f) => [f.type, f.data])).toEqual([
      ['worktree.ready', { name: space.name, branch: 'feature/billing' }],
      ['workspace.status', { workspaceID: space.id, status: 'connected' }],
    ]);
    expect((await client.experimental.workspace.list()).data?.map((w) => w.id)).toEqual([WRK, space.id].sort());
    expect((await client.worktree.list()).data).toContain(space.directory);
    expect((await client.experimental.workspace.status()).data).toContainEqual({
      workspaceID: space.id,
      status: 'connected',
    });

    const unknownType = await client.experimental.workspace.create({ type: 'docker' });
    valid('experimental.workspace.create', unknownType.response, unknownType.error);
    expect(unknownType.error).toEqual({
      name: 'WorkspaceCreateError',
      data: { message: 'Unknown workspace adapter: docker' },
    });

    const removed = await client.experimental.workspace.remove({ id: space.id });
    valid('experimental.workspace.remove', removed.response, removed.data);
    expect(removed.data).toEqual(space);
    expect((await client.experimental.workspace.list()).data?.map((w) => w.id)).toEqual([WRK]);
    expect((await client.worktree.list()).data).not.toContain(space.directory);
    const gone = await client.experimental.workspace.remove({ id: space.id });
    expect(gone.response.status).toBe(400);
    valid('experimental.workspace.remove', gone.response, gone.error);
    expect(gone.error).toEqual({
      _tag: 'InvalidRequestError',
      message: `Workspace not found: ${space.id}`,
      kind: 'Params',
      field: 'id',
    });
  });

  it('registers the worktrees no workspace stands on when synced', async () => {
    const from = frames.length;
    const synced = await client.experimental.workspace.syncList();
    expect(synced.response.status).toBe(204);
    const listed = (await client.experimental.workspace.list()).data ?? [];
    const hotfix = listed.find((w) => w.name === 'hotfix-login');
    expect(hotfix).toMatchObject({
      type: 'worktree',
      branch: null,
      directory: `${WORKTREES}/hotfix-login`,
      projectID: PROJECT.id,
    });
    await until(() => ofTypes(from, 'workspace.status').length === 1, 'the synced workspace connected');
    expect(ofTypes(from, 'workspace.status')[0]?.data).toEqual({ workspaceID: hotfix?.id, status: 'connected' });
    // A second sync finds nothing new.
    await client.experimental.workspace.syncList();
    expect((await client.experimental.workspace.list()).data).toHaveLength(listed.length);
  });

  it('warps a session into a workspace and back, announcing its record', async () => {
    const into = await published(
      async () => {
        const warped = await client.experimental.workspace.warp({ id: WRK, sessionID: SES });
        expect(warped.response.status).toBe(204);
      },
      (f) => f.some((e) => e.type === 'session.updated'),
    );
    expect(into.map((e) => e.type)).toEqual(['session.updated']);
    // The record's update is an announcement, not one of the session's numbered events.
    expect(into[0]?.durable).toBeUndefined();
    expect(into[0]?.data).toMatchObject({ sessionID: SES, info: { id: SES, workspaceID: WRK } });
    const session = await client.v2.session.get({ sessionID: SES });
    expect(session.data?.data.location).toMatchObject({ workspaceID: WRK });

    const back = await published(
      () => client.experimental.workspace.warp({ id: null, sessionID: SES, copyChanges: true }),
      (f) => f.some((e) => e.type === 'session.updated'),
    );
    expect(back[0]?.data.info).not.toHaveProperty('workspaceID');
    expect(back[0]?.durable).toBeUndefined();

    const nowhere = await client.experimental.workspace.warp({ id: 'wrk_nope', sessionID: SES });
    expect(nowhere.response.status).toBe(404);
    valid('experimental.workspace.warp', nowhere.response, nowhere.error);
    expect(nowhere.error).toEqual({ name: 'NotFoundError', data: { message: 'Workspace not found: wrk_nope' } });
    const nobody = await client.experimental.workspace.warp({ id: WRK, sessionID: 'ses_nope' });
    expect(nobody.error).toEqual({ name: 'NotFoundError', data: { message: 'Session not found: ses_nope' } });
  });
});

it('published only events the spec lists, each valid', () => {
  expect(frames.length).toBeGreaterThan(10);
  for (const frame of frames) expect(eventProblems(frame), frame.type).toEqual([]);
  expect(new Set(frames.map((f) => f.type))).toEqual(
    new Set([
      'server.connected',
      'project.directories.updated',
      'worktree.ready',
      'workspace.status',
      'session.updated',
    ]),
  );
});

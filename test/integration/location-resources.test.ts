/**
 * The location-scoped resources (PTYs, references, plugins, files, default model, project copies), called
 * directly on an engine built from a scenario: each handler's decision is committed as the scenario
 * responder commits it, so the world changes only through its events. Every answer and error body is
 * checked against the spec.
 */
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkAnswer } from '../../src/openapi/answer-check.js';
import { TaggedError } from '../../src/errors/errors.js';
import { ProjectCopyError } from '../../src/kinds/project-copy/errors.js';
import { answerBody, type Answer, type Exchange } from '../../src/exchange/exchange.js';
import { projectContext } from '../../src/openapi/location.js';
import { loadSpec, type SpecIndex } from '../../src/openapi/openapi.js';
import { KINDS } from '../../src/kinds/registry.js';
import { createEngine, type Engine } from '../../src/state/engine.js';
import type { AcceptedRequest } from '../../src/layers/layer.js';
import { loadScenarioFile, parseScenario } from '../../src/scenarios/load-scenario.js';
import type { World } from '../../src/state/world.js';
import type { ScenarioDefinition } from '../../src/scenarios/definition.js';
import { PROJECT_ID } from '../support/requests.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/workspace.yaml', import.meta.url));
const PROJECT = projectContext('/home/dev/acme-web', PROJECT_ID);
const locationHandlers = KINDS.handlers;

let spec: SpecIndex;
beforeAll(async () => {
  spec = await loadSpec();
});

interface Call {
  query?: Record<string, unknown>;
  body?: unknown;
  pathParams?: Record<string, string>;
}

/** A world with the engine that changes it: `world` reads it, handlers' events are committed to it. */
type Sim = World & { engine: Engine };

function simOf(definition: ScenarioDefinition): Sim {
  const engine = createEngine({ kinds: KINDS, definition, seed: 'test' });
  return Object.assign(Object.create(engine.world as World) as World, { engine });
}

function workspace(): Sim {
  return simOf(loadScenarioFile(FIXTURE, spec));
}

function worldOf(yaml: string): Sim {
  return simOf(parseScenario(yaml, '<test>', spec));
}

function request(operationId: string, call: Call): AcceptedRequest {
  const operation = spec.byId.get(operationId);
  if (!operation) throw new Error(`no operation ${operationId}`);
  return {
    exchange: { id: 'req_test' } as Exchange,
    operation,
    pathParams: call.pathParams ?? {},
    query: call.query ?? {},
    body: call.body,
    preferences: {},
  } as unknown as AcceptedRequest;
}

/** Calls the handler and checks what it answers against the spec; undefined means "falls through". */
function answer(world: Sim, operationId: string, call: Call = {}): (Answer & { body?: unknown }) | undefined {
  const handler = locationHandlers[operationId];
  if (!handler) throw new Error(`no handler for ${operationId}`);
  const decision = handler(request(operationId, call), {
    world: world.engine.world as World,
    now: world.engine.clock.now(),
    project: PROJECT,
  });
  if (!decision) return undefined;
  if (decision.events) world.engine.commit(decision.events, { request: 'req_test' });
  const result = { ...decision.answer, body: answerBody(decision.answer) };
  expect(checkAnswer(spec.byId.get(operationId)!, result.status, result.body)).toEqual([]);
  return result;
}

function data(world: Sim, operationId: string, call: Call = {}): unknown {
  const result = answer(world, operationId, call);
  expect(result?.status).toBe(200);
  return (result?.body as { data: unknown }).data;
}

/** The error the handler throws, checked against the operation's declared error body. */
function failure(world: Sim, operationId: string, call: Call): TaggedError {
  try {
    answer(world, operationId, call);
  } catch (error) {
    expect(error).toBeInstanceOf(TaggedError);
    const tagged = error as TaggedError;
    expect(checkAnswer(spec.byId.get(operationId)!, tagged.status, tagged.toBody())).toEqual([]);
    return tagged;
  }
  throw new Error(`${operationId} answered instead of failing`);
}

const at = (directory: string, workspaceId?: string) => ({
  location: { directory, ...(workspaceId ? { workspace: workspaceId } : {}) },
});

it('has a kind for each of the six location operations', () => {
  expect(Object.keys(locationHandlers)).toEqual(
    expect.arrayContaining([
      'v2.fs.list',
      'v2.model.default',
      'v2.plugin.list',
      'v2.projectCopy.create',
      'v2.pty.create',
      'v2.reference.list',
    ]),
  );
});

describe('v2.pty.create', () => {
  it('starts the login shell in the location directory from an empty body, and keeps it in the world', () => {
    const world = workspace();
    const result = answer(world, 'v2.pty.create', { body: {} });
    const pty = (result?.body as { data: Record<string, unknown> & { id: string } }).data;
    expect(result?.body).toMatchObject({
      location: { directory: '/home/dev/acme-web', project: { id: PROJECT_ID, directory: '/home/dev/acme-web' } },
    });
    expect(pty).toEqual({
      id: expect.stringMatching(/^pty_[0-9a-f]{12}[0-9A-Za-z]{14}$/),
      title: `Terminal ${pty.id.slice(-4)}`,
      command: '/bin/bash',
      args: ['-l'],
      cwd: '/home/dev/acme-web',
      status: 'running',
      pid: 7401,
    });
    expect(world.ptys.get(pty.id)?.definition.record).toEqual(pty);
    expect(KINDS.snapshot(world.engine.world as World).ptys).toEqual([
      { id: 'pty_203a5ad4f0011C7Y4ftsC84JMU', state: 'running' },
      { id: pty.id, state: 'running' },
    ]);
  });

  it('appends -l to the args of POSIX shells only, as the real server does', () => {
    const world = workspace();
    const args = (body: Record<string, unknown>) => (data(world, 'v2.pty.create', { body }) as { args: string[] }).args;
    expect(args({ command: '/bin/sh', args: ['-c', 'npm test'], title: 'Tests', env: { CI: '1' } })).toEqual([
      '-c',
      'npm test',
      '-l',
    ]);
    expect(args({ command: '/usr/bin/zsh' })).toEqual(['-l']);
    expect(args({ command: 'dash', args: [] })).toEqual(['-l']);
    expect(args({ command: 'npm', args: ['run', 'dev'] })).toEqual(['run', 'dev']);
    expect(args({ command: '/usr/bin/fish' })).toEqual([]);
  });

  it('keeps the given title and cwd, and defaults cwd to a subdirectory location with its workspace echoed', () => {
    const world = workspace();
    expect(data(world, 'v2.pty.create', { body: { title: 'dev server', cwd: '/tmp' } })).toMatchObject({
      title: 'dev server',
      cwd: '/tmp',
    });
    const result = answer(world, 'v2.pty.create', { body: {}, query: at('/home/dev/acme-web/src', 'wrk_1') });
    expect(result?.body).toMatchObject({
      location: { directory: '/home/dev/acme-web/src', workspaceID: 'wrk_1' },
      data: { cwd: '/home/dev/acme-web/src' },
    });
    expect(data(world, 'v2.pty.create', { body: {}, query: at('src') })).toMatchObject({
      cwd: '/home/dev/acme-web/src',
    });
  });

  it('gives each new PTY its own ascending id and pid, the same in every run', () => {
    const run = () => {
      const world = workspace();
      return [1, 2, 3].map(() => data(world, 'v2.pty.create', { body: {} }) as { id: string; pid: number });
    };
    const first = run();
    expect(first.map((p) => p.pid)).toEqual([7401, 7402, 7403]);
    expect([...first.map((p) => p.id)].sort()).toEqual(first.map((p) => p.id));
    expect(run()).toEqual(first);
  });

  it('never hands out a pid a scenario PTY already has', () => {
    const world = worldOf('name: t\nptys:\n  - { id: pty_a, pid: 7401 }\n');
    expect(data(world, 'v2.pty.create', { body: {} })).toMatchObject({ pid: 7402 });
  });
});

describe('v2.reference.list', () => {
  it("lists the scenario's references", () => {
    expect(data(workspace(), 'v2.reference.list')).toEqual([
      { name: 'design-docs', path: '/home/dev/acme-web/docs/design', source: { type: 'local', path: 'docs/design' } },
      {
        name: 'ui-kit',
        path: '/home/dev/.cache/opencode/references/ui-kit',
        source: { type: 'git', repository: 'https://github.com/acme/ui-kit.git', branch: 'main' },
      },
    ]);
    expect(data(workspace(), 'v2.reference.list', { query: at('/home/dev/acme-web/src') })).toHaveLength(2);
  });

  it('answers an empty list for a scenario without references and for a directory outside the project', () => {
    expect(data(worldOf('name: t\n'), 'v2.reference.list')).toEqual([]);
    const result = answer(workspace(), 'v2.reference.list', { query: at('/srv/other') });
    expect(result?.body).toEqual({
      location: { directory: '/srv/other', project: { id: 'global', directory: '/srv/other' } },
      data: [],
    });
  });
});

describe('v2.plugin.list', () => {
  it("lists the scenario's plugin ids", () => {
    expect(data(workspace(), 'v2.plugin.list', { query: at('/home/dev/acme-web', 'wrk_2') })).toEqual([
      { id: 'agent' },
      { id: 'command' },
      { id: 'skill' },
      { id: 'models-dev' },
    ]);
  });

  it('falls through to the spec example when the scenario declares no plugins', () => {
    expect(answer(worldOf('name: t\n'), 'v2.plugin.list')).toBeUndefined();
  });
});

describe('v2.fs.list', () => {
  const list = (query: Record<string, unknown> = {}) => data(workspace(), 'v2.fs.list', { query });
  const paths = (query: Record<string, unknown> = {}) => (list(query) as Array<{ path: string }>).map((e) => e.path);

  it('lists the location directory: directories first, each group sorted', () => {
    expect(list()).toEqual([
      { path: '.git/', type: 'directory' },
      { path: 'docs/', type: 'directory' },
      { path: 'src/', type: 'directory' },
      { path: 'index.html', type: 'file' },
      { path: 'package.json', type: 'file' },
    ]);
  });

  it('lists a path with the path as prefix, with or without a trailing slash', () => {
    expect(paths({ path: 'src' })).toEqual(['src/settings/', 'src/app.tsx', 'src/main.tsx']);
    expect(paths({ path: 'src/' })).toEqual(['src/settings/', 'src/app.tsx', 'src/main.tsx']);
    expect(paths({ path: 'src/settings' })).toEqual(['src/settings/page.tsx']);
    expect(paths({ path: 'src/../docs' })).toEqual(['docs/design/']);
  });

  it('lists a subdirectory location relative to itself', () => {
    expect(paths(at('/home/dev/acme-web/src'))).toEqual(['settings/', 'app.tsx', 'main.tsx']);
    expect(paths(at('/home/dev/acme-web/src/'))).toEqual(['settings/', 'app.tsx', 'main.tsx']);
    expect(paths({ ...at('/home/dev/acme-web/src'), path: 'settings' })).toEqual(['settings/page.tsx']);
    expect(paths(at('src'))).toEqual(['settings/', 'app.tsx', 'main.tsx']);
  });

  it('answers InvalidRequestError naming path for a file, a missing directory or a path outside the location', () => {
    const world = workspace();
    const fields = (query: Record<string, unknown>) => failure(world, 'v2.fs.list', { query }).toBody();
    expect(fields({ path: 'package.json' })).toEqual({
      _tag: 'InvalidRequestError',
      kind: 'Query',
      field: 'path',
      message: 'Not a directory: package.json',
    });
    expect(fields({ path: 'src/app.tsx/' })).toMatchObject({ field: 'path', message: 'Not a directory: src/app.tsx/' });
    expect(fields({ path: 'nope' })).toEqual({
      _tag: 'InvalidRequestError',
      kind: 'Query',
      field: 'path',
      message: 'No such directory: nope',
    });
    expect(fields({ path: '../' })).toEqual({
      _tag: 'InvalidRequestError',
      kind: 'Query',
      field: 'path',
      message: 'Path is outside the location: ../',
    });
    expect(fields({ ...at('/home/dev/acme-web/src'), path: '../docs' })).toMatchObject({
      field: 'path',
      message: 'Path is outside the location: ../docs',
    });
    expect(fields({ path: '/etc' })).toMatchObject({ field: 'path', message: 'Path is outside the location: /etc' });
  });

  it('names location[directory] when the location itself is not a directory of the project', () => {
    const body = failure(workspace(), 'v2.fs.list', { query: at('/home/dev/acme-web/missing') }).toBody();
    expect(body).toEqual({
      _tag: 'InvalidRequestError',
      kind: 'Query',
      field: 'location[directory]',
      message: 'No such directory: /home/dev/acme-web/missing',
    });
  });

  it('answers an empty list for a directory outside the project', () => {
    expect(answer(workspace(), 'v2.fs.list', { query: { ...at('/srv/other'), path: 'sub' } })?.body).toEqual({
      location: { directory: '/srv/other', project: { id: 'global', directory: '/srv/other' } },
      data: [],
    });
  });

  it("lists a small TypeScript project's tree when the scenario declares no files", () => {
    expect(data(worldOf('name: t\n'), 'v2.fs.list', { query: { path: 'src' } })).toEqual([
      { path: 'src/greet.ts', type: 'file' },
      { path: 'src/index.ts', type: 'file' },
    ]);
  });
});

describe('v2.model.default', () => {
  it("answers the scenario's model in the location envelope", () => {
    const result = answer(workspace(), 'v2.model.default', { query: at('/home/dev/acme-web/src') });
    expect(result?.body).toMatchObject({
      location: { directory: '/home/dev/acme-web/src', project: { id: PROJECT_ID } },
      data: { id: 'claude-sonnet-4-5', providerID: 'anthropic' },
    });
  });

  it("answers the catalogue's record of the model sessions start with when the scenario declares none", () => {
    expect(answer(worldOf('name: t\n'), 'v2.model.default')?.body).toMatchObject({
      data: {
        id: 'claude-sonnet-4-5',
        modelID: 'claude-sonnet-4-5',
        providerID: 'anthropic',
        package: '@ai-sdk/anthropic',
      },
    });
  });
});

describe('v2.projectCopy.create', () => {
  const copy = (
    world: Sim,
    body: Record<string, unknown>,
    projectID = PROJECT_ID,
    query: Record<string, unknown> = {},
  ) =>
    answer(world, 'v2.projectCopy.create', {
      pathParams: { projectID },
      body: { strategy: 'git_worktree', ...body },
      query,
    });

  it('answers <directory>/<name> without an envelope, the name verbatim, with -2, -3 on collisions', () => {
    const world = workspace();
    expect(copy(world, { directory: '/home/dev/copies', name: 'My Copy' })).toMatchObject({
      status: 200,
      body: { directory: '/home/dev/copies/My Copy' },
    });
    expect(copy(world, { directory: '/home/dev/copies', name: 'My Copy' })?.body).toEqual({
      directory: '/home/dev/copies/My Copy-2',
    });
    expect(copy(world, { directory: '/home/dev/copies/', name: 'My Copy' })?.body).toEqual({
      directory: '/home/dev/copies/My Copy-3',
    });
    expect([...world.copies]).toEqual([
      '/home/dev/copies/My Copy',
      '/home/dev/copies/My Copy-2',
      '/home/dev/copies/My Copy-3',
    ]);
  });

  it('names an unnamed copy with an adjective-noun slug, the same in every run', () => {
    const run = () => {
      const world = workspace();
      return [1, 2, 3].map(
        () => (copy(world, { directory: '/home/dev/copies' })?.body as { directory: string }).directory,
      );
    };
    const first = run();
    for (const directory of first) expect(directory).toMatch(/^\/home\/dev\/copies\/[a-z]+-[a-z]+(-\d+)?$/);
    expect(new Set(first).size).toBe(3);
    expect(run()).toEqual(first);
  });

  it('resolves a relative directory against the location, and never hands out the project directory itself', () => {
    const world = workspace();
    expect(copy(world, { directory: '../copies', name: 'x' })?.body).toEqual({ directory: '/home/dev/copies/x' });
    expect(copy(world, { directory: '..', name: 'x' }, PROJECT_ID, at('/home/dev/acme-web/src'))?.body).toEqual({
      directory: '/home/dev/acme-web/x',
    });
    expect(copy(world, { directory: '/home/dev', name: 'acme-web' })?.body).toEqual({
      directory: '/home/dev/acme-web-2',
    });
  });

  it("answers ProjectCopyError when the projectID is not the location's project", () => {
    const wrongId = failure(workspace(), 'v2.projectCopy.create', {
      pathParams: { projectID: 'global' },
      body: { strategy: 'git_worktree', directory: '/home/dev/copies' },
    });
    expect(wrongId).toBeInstanceOf(ProjectCopyError);
    expect(wrongId.toBody()).toEqual({
      name: 'ProjectCopyError',
      data: { message: 'Project copy source not found: /home/dev/acme-web', forceRequired: false },
    });
    const elsewhere = failure(workspace(), 'v2.projectCopy.create', {
      pathParams: { projectID: PROJECT_ID },
      query: at('/srv/other'),
      body: { strategy: 'git_worktree', directory: '/tmp' },
    });
    expect(elsewhere.toBody()).toMatchObject({ data: { message: 'Project copy source not found: /srv/other' } });
  });

  it('answers the scripted ProjectCopyError, and hands out nothing', () => {
    const world = worldOf(
      'name: t\nprojectCopy:\n  error: { message: "Project copy directory unavailable: /home/dev/copies", forceRequired: true }\n',
    );
    const error = failure(world, 'v2.projectCopy.create', {
      pathParams: { projectID: PROJECT_ID },
      body: { strategy: 'git_worktree', directory: '/home/dev/copies' },
    });
    expect(error.toBody()).toEqual({
      name: 'ProjectCopyError',
      data: { message: 'Project copy directory unavailable: /home/dev/copies', forceRequired: true },
    });
    const plain = worldOf('name: t\nprojectCopy:\n  error: { message: "Invalid project copy directory: x" }\n');
    expect(
      failure(plain, 'v2.projectCopy.create', {
        pathParams: { projectID: PROJECT_ID },
        body: { strategy: 'git_worktree', directory: 'x' },
      }).toBody(),
    ).toMatchObject({ data: { forceRequired: false } });
    expect(world.copies.size).toBe(0);
  });
});

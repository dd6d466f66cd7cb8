/**
 * scenario-from for files, project copies, worktrees and workspaces: what a recording shows of each becomes
 * the section that makes the simulator show it again (a tree with the contents read, the copies that existed
 * and which were dirty, the worktrees and workspaces listed before the recording made any).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Step, Timeline } from '../../../src/derive/timeline.js';
import { inferFiles } from '../../../src/kinds/file/infer.js';
import { inferProjectCopy } from '../../../src/kinds/project-copy/infer.js';
import { inferWorkspaces } from '../../../src/kinds/workspace/infer.js';
import { inferWorktrees } from '../../../src/kinds/worktree/infer.js';
import { loadSpec, type SpecIndex } from '../../../src/openapi/openapi.js';

let spec: SpecIndex;
beforeAll(async () => {
  spec = await loadSpec();
});

const DIR = '/home/dev/acme-web';
const project = { project: [{ value: { directory: DIR }, from: [] }] };

interface StepInput {
  operationId: string;
  status?: number;
  answer?: unknown;
  body?: unknown;
  query?: Record<string, string>;
  params?: Record<string, string>;
  contentType?: string;
}

function timeline(...inputs: StepInput[]): Timeline {
  const steps = inputs.map((input, i): Step => {
    const operation = spec.byId.get(input.operationId);
    if (!operation) throw new Error(input.operationId);
    return {
      seq: i + 1,
      at: i * 10,
      durationMs: 1,
      method: operation.method,
      path: operation.path,
      operation,
      params: input.params ?? {},
      query: input.query ?? {},
      body: input.body,
      status: input.status ?? 200,
      answer: input.answer,
      answerProblems: [],
      stream: false,
      interaction: {
        seq: i + 1,
        request: { method: operation.method, path: operation.path, query: {}, headers: {} },
        response: { status: input.status ?? 200, headers: { 'content-type': input.contentType ?? 'application/json' } },
        timing: { started: new Date(i * 10).toISOString(), durationMs: 1 },
      },
    };
  });
  return { origin: 0, steps, events: [] };
}

const location = (directory: string) => ({ directory, project: { id: 'p', directory: DIR } });

describe('files', () => {
  it('gathers listed and found paths, and the text of files read, relative to the project', () => {
    const inferred = inferFiles(
      timeline(
        {
          operationId: 'v2.fs.list',
          answer: {
            location: location(DIR),
            data: [
              { path: 'src/', type: 'directory' },
              { path: 'README.md', type: 'file' },
            ],
          },
        },
        {
          operationId: 'v2.fs.find',
          answer: {
            location: location(`${DIR}/src`),
            data: [
              { path: 'app.tsx', type: 'file' },
              { path: '/', type: 'directory' },
            ],
          },
        },
        {
          operationId: 'v2.fs.read',
          params: { '*': 'README.md' },
          answer: '# acme-web\n',
          contentType: 'text/markdown',
        },
        {
          operationId: 'v2.fs.read',
          params: { '*': 'app.tsx' },
          query: { 'location[directory]': `${DIR}/src` },
          answer: 'export function App() {}\n',
          contentType: 'application/octet-stream',
        },
        { operationId: 'v2.fs.read', params: { '*': 'logo.png' }, answer: '\u0089PNG', contentType: 'image/png' },
        { operationId: 'v2.fs.read', params: { '*': 'package.json' }, answer: { name: 'acme-web' } },
      ),
      project,
    );
    expect(inferred.files?.[0]?.value).toEqual([
      { path: 'README.md', content: '# acme-web\n' },
      { path: 'package.json', content: '{\n  "name": "acme-web"\n}\n' },
      'src/app.tsx',
    ]);
    expect(inferred.files?.[0]?.from).toHaveLength(4);
  });

  it('says nothing when the recording shows no files', () => {
    expect(
      inferFiles(timeline({ operationId: 'v2.plugin.list', answer: { location: location(DIR), data: [] } }), project),
    ).toEqual({});
  });
});

describe('project copies', () => {
  it('declares the copies a removal found that the recording did not make, dirty where force was asked for', () => {
    const inferred = inferProjectCopy(
      timeline(
        { operationId: 'v2.projectCopy.create', answer: { directory: '/home/dev/copies/new' } },
        {
          operationId: 'v2.projectCopy.remove',
          status: 204,
          body: { directory: '/home/dev/copies/new', force: false },
        },
        {
          operationId: 'v2.projectCopy.remove',
          status: 400,
          body: { directory: '/home/dev/copies/old', force: false },
          answer: { name: 'ProjectCopyError', data: { message: 'fatal: …', forceRequired: true } },
        },
        { operationId: 'v2.projectCopy.remove', status: 204, body: { directory: '/home/dev/copies/old', force: true } },
        {
          operationId: 'v2.projectCopy.remove',
          status: 204,
          body: { directory: '/home/dev/copies/tidy', force: false },
        },
        {
          operationId: 'v2.projectCopy.remove',
          status: 400,
          body: { directory: '/tmp/none', force: true },
          answer: { name: 'ProjectCopyError', data: { message: 'Project copy directory unavailable: /tmp/none' } },
        },
      ),
    );
    expect(inferred.projectCopy?.[0]?.value).toEqual({
      copies: [{ directory: '/home/dev/copies/old', dirty: true }, { directory: '/home/dev/copies/tidy' }],
    });
  });

  it('still declares the error every creation met', () => {
    const failed = {
      operationId: 'v2.projectCopy.create',
      status: 400,
      answer: { name: 'ProjectCopyError', data: { message: 'Project copy source not found: /x', forceRequired: null } },
    };
    expect(inferProjectCopy(timeline(failed, failed)).projectCopy?.[0]?.value).toEqual({
      error: { message: 'Project copy source not found: /x', forceRequired: false },
    });
  });
});

describe('worktrees and workspaces', () => {
  it('declares the worktrees listed first, without those made before the listing', () => {
    const inferred = inferWorktrees(
      timeline(
        { operationId: 'worktree.create', answer: { name: 'mine', directory: '/wt/mine' } },
        { operationId: 'worktree.list', answer: ['/wt/hotfix', '/wt/mine'] },
        { operationId: 'worktree.list', answer: ['/wt/other'] },
      ),
    );
    expect(inferred.worktrees?.map((p) => p.value)).toEqual([{ name: 'hotfix', directory: '/wt/hotfix' }]);
  });

  it('declares the workspaces listed first, with a status other than connected', () => {
    const record = (id: string, name: string) => ({
      id,
      type: 'worktree',
      name,
      branch: null,
      directory: `/wt/${name}`,
      extra: null,
      projectID: 'p',
      timeUsed: 1,
    });
    const inferred = inferWorkspaces(
      timeline(
        { operationId: 'experimental.workspace.create', answer: record('wrk_new', 'new') },
        {
          operationId: 'experimental.workspace.list',
          answer: [
            record('wrk_new', 'new'),
            { ...record('wrk_old', 'old'), branch: 'feat/x' },
            record('wrk_off', 'off'),
          ],
        },
        {
          operationId: 'experimental.workspace.status',
          answer: [
            { workspaceID: 'wrk_old', status: 'connected' },
            { workspaceID: 'wrk_off', status: 'error' },
          ],
        },
      ),
    );
    expect(inferred.workspaces?.map((p) => p.value)).toEqual([
      { id: 'wrk_old', type: 'worktree', name: 'old', branch: 'feat/x', directory: '/wt/old' },
      { id: 'wrk_off', type: 'worktree', name: 'off', directory: '/wt/off', status: 'error' },
    ]);
  });
});

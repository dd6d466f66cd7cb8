/** scenario-from, the PTY kind's part: the PTYs a recording shows existing before it created any. */
import { beforeAll, expect, it } from 'vitest';
import type { Step, Timeline } from '../../../../src/derive/timeline.js';
import { inferPtys } from '../../../../src/kinds/pty/infer.js';
import { loadSpec, type SpecIndex } from '../../../../src/openapi/openapi.js';

let spec: SpecIndex;
beforeAll(async () => {
  spec = await loadSpec();
});

const PROJECT = { id: 'a'.repeat(40), directory: '/srv/demo' };
const record = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  title: `Terminal ${id.slice(-4)}`,
  command: '/bin/bash',
  args: ['-l'],
  cwd: '/srv/demo',
  status: 'running',
  pid: 7469,
  ...extra,
});

function step(seq: number, operationId: string, directory: string, data: unknown, problems: string[] = []): Step {
  return {
    seq,
    at: seq * 100,
    durationMs: 5,
    method: 'GET',
    path: '/api/pty',
    operation: spec.byId.get(operationId),
    params: {},
    query: {},
    body: undefined,
    status: 200,
    answer: { location: { directory, project: PROJECT }, data },
    answerProblems: problems,
    stream: false,
  } as unknown as Step;
}

it('reads the PTYs first listed, in their own location, an exited one with its code, and none the recording made', () => {
  const timeline: Timeline = {
    origin: 0,
    events: [],
    steps: [
      step(1, 'v2.pty.create', '/srv/demo', record('pty_made')),
      step(2, 'v2.pty.list', '/srv/demo', [
        record('pty_made'),
        record('pty_shell'),
        record('pty_done', { command: 'npm', args: ['test'], status: 'exited', exitCode: 1 }),
      ]),
      step(3, 'v2.pty.list', '/srv/other', [record('pty_other', { cwd: '/srv/other' })]),
      step(4, 'v2.pty.get', '/srv/demo', record('pty_shell', { title: 'renamed later' })),
      step(5, 'v2.pty.get', '/srv/demo', record('pty_untrusted'), ['/data missing']),
    ],
  };
  const parts = inferPtys(timeline).ptys ?? [];
  expect(parts.map((p) => p.value)).toEqual([
    { id: 'pty_shell', title: 'Terminal hell', command: '/bin/bash', args: ['-l'], cwd: '/srv/demo', pid: 7469 },
    {
      id: 'pty_done',
      title: 'Terminal done',
      command: 'npm',
      args: ['test'],
      cwd: '/srv/demo',
      pid: 7469,
      status: 'exited',
      exitCode: 1,
    },
    {
      id: 'pty_other',
      title: 'Terminal ther',
      command: '/bin/bash',
      args: ['-l'],
      cwd: '/srv/other',
      pid: 7469,
      directory: '/srv/other',
    },
  ]);
  expect(parts.map((p) => p.from.map((s) => s.seq))).toEqual([[2], [2], [3]]);
});

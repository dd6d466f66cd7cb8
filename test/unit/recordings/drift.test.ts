import { beforeAll, expect, it } from 'vitest';
import { loadSpec, type SpecIndex } from '../../../src/openapi/openapi.js';
import { driftReport, formatDrift } from '../../../src/recordings/drift.js';
import type { Interaction } from '../../../src/recordings/format.js';

let spec: SpecIndex;
beforeAll(async () => {
  spec = await loadSpec();
});

function interaction(
  seq: number,
  operationId: string | undefined,
  method: string,
  path: string,
  status: number,
  body?: unknown,
): Interaction {
  return {
    seq,
    operationId,
    request: { method, path, query: {}, headers: {} },
    response: { status, headers: { 'content-type': 'application/json' }, body },
    timing: { started: '2026-11-22T09:00:00.000Z', durationMs: 1 },
  };
}

it('groups what the recorded answers do differently from the spec, per operation', () => {
  const report = driftReport(
    {
      header: { format: 'session-agent-sim/recording@1', specHash: spec.hash },
      tornTail: false,
      interactions: [
        interaction(1, undefined, 'POST', '/api/session', 200, { data: {} }),
        interaction(2, 'v2.session.compact', 'POST', '/api/session/ses_1/compact', 503, {
          _tag: 'ServiceUnavailableError',
          message: 'x',
          service: 'session.compact',
        }),
        interaction(3, 'v2.session.messages', 'GET', '/api/session/ses_1/message', 200, {
          data: [],
          cursor: { previous: null, next: null },
        }),
        interaction(4, 'v2.session.messages', 'GET', '/api/session/ses_1/message', 200, {
          data: [],
          cursor: { previous: null, next: null },
        }),
        interaction(6, 'v2.session.permission.create', 'POST', '/api/session/ses_1/permission', 200, {
          data: { id: 'per_1', effect: 'deny' },
        }),
        interaction(5, 'v2.session.switchAgent', 'POST', '/api/session/ses_1/agent', 204),
      ],
    },
    spec,
  );
  expect(report.specMatches).toBe(true);
  expect(report.operations).toEqual([
    {
      operationId: 'v2.session.compact',
      answers: 1,
      findings: [{ problem: 'status 503 is not declared by v2.session.compact', count: 1 }],
    },
    {
      operationId: 'v2.session.messages',
      answers: 2,
      findings: [
        { problem: 'cursor.previous must be string', count: 2 },
        { problem: 'cursor.next must be string', count: 2 },
      ],
    },
    { operationId: 'v2.session.permission.create', answers: 1, findings: [] },
    { operationId: 'v2.session.switchAgent', answers: 1, findings: [] },
  ]);
  expect(report.outside).toEqual([{ request: 'POST /api/session', count: 1 }]);
  expect(formatDrift('flow.yaml', report)).toContain('cursor.next must be string  ×2');
});

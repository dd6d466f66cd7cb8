/**
 * scenario-from for permissions and questions: what a recording lists pending becomes the scenario's, except
 * what the recording's own requests created; a request first listed later is asked then; saved permissions
 * are the first listing's; sessions they name that the inference lacks are declared.
 */
import { describe, expect, it } from 'vitest';
import type { Step, TimedEvent } from '../../../src/derive/timeline.js';
import type { InferenceSoFar } from '../../../src/kinds/inference.js';
import { inferPermissions } from '../../../src/kinds/permission/infer.js';
import { inferQuestions } from '../../../src/kinds/question/infer.js';

const SES = 'ses_dfc5ae513ffePKUBK7HkVp5zCB';
const OTHER = 'ses_dfc5ad9f0ffeQm3LpX8vT2bNcR';
const PROJECT = '65831e286a96b4ffa21a844bd6bc948480c05a6d';

let seq = 0;
function step(operationId: string, at: number, answer: unknown, params: Record<string, string> = {}): Step {
  return {
    seq: ++seq,
    at,
    durationMs: 10,
    method: 'GET',
    path: '/x',
    operation: { operationId } as Step['operation'],
    params,
    query: {},
    body: undefined,
    status: 200,
    answer,
    answerProblems: [],
    stream: false,
    interaction: {} as Step['interaction'],
  };
}

const inference = (sessions: string[]): InferenceSoFar => ({
  project: [{ value: { directory: '/srv', id: PROJECT }, from: [], whole: true }],
  sessions: sessions.map((id) => ({ value: { id }, from: [] })),
});

const bash = (id: string, sessionID: string) => ({ id, sessionID, action: 'bash', resources: ['npm test'] });

describe('inferring permissions', () => {
  it('declares pending requests and saved permissions, not what the recording created, and their sessions', () => {
    const listings = [
      step('v2.permission.request.list', 0, { location: {}, data: [bash('per_a', SES)] }),
      step('v2.session.permission.create', 100, { data: { id: 'per_mine' } }, { sessionID: SES }),
      step('v2.permission.request.list', 2000, {
        location: {},
        data: [bash('per_a', SES), bash('per_mine', SES), bash('per_b', OTHER)],
      }),
      step('v2.permission.saved.list', 2100, {
        data: [
          { id: 'psv_1', projectID: PROJECT, action: 'edit', resource: 'src/*' },
          { id: 'psv_2', projectID: 'elsewhere', action: 'bash', resource: '*' },
        ],
      }),
    ];
    const inferred = inferPermissions({ origin: 0, steps: listings, events: [] }, inference([SES]));
    expect(inferred.permissions?.map((p) => p.value)).toEqual([
      {
        requests: [bash('per_a', SES), { ...bash('per_b', OTHER), appears: '1s5ms' }],
        saved: [
          { id: 'psv_1', action: 'edit', resource: 'src/*' },
          { id: 'psv_2', projectID: 'elsewhere', action: 'bash', resource: '*' },
        ],
      },
    ]);
    expect(inferred.permissions?.[0]?.whole).toBe(true);
    expect(inferred.sessions?.map((p) => p.value)).toEqual([{ id: OTHER }]);
  });

  it('takes the instant a request was asked from its event, and infers nothing from a quiet recording', () => {
    const asked: TimedEvent = { at: 1234, type: 'permission.v2.asked', data: bash('per_b', SES), seq: 1 };
    const later = step('v2.session.permission.list', 3000, { data: [bash('per_b', SES)] }, { sessionID: SES });
    const inferred = inferPermissions({ origin: 0, steps: [later], events: [asked] }, inference([SES]));
    expect(inferred.permissions?.[0]?.value).toEqual({ requests: [{ ...bash('per_b', SES), appears: '1s234ms' }] });
    expect(inferred.permissions?.[0]?.events).toEqual([asked]);
    expect(inferPermissions({ origin: 0, steps: [], events: [] }, inference([]))).toEqual({});
  });
});

describe('inferring questions', () => {
  it('declares the questions listed pending, with their content, and their sessions', () => {
    const question = { id: 'que_1', sessionID: OTHER, questions: [{ header: 'h', question: 'q?', options: [] }] };
    const inferred = inferQuestions(
      {
        origin: 0,
        steps: [
          step('v2.session.question.list', 0, { data: [] }, { sessionID: OTHER }),
          step('v2.question.request.list', 500, { location: {}, data: [question] }),
        ],
        events: [],
      },
      inference([SES]),
    );
    expect(inferred.questions?.map((p) => p.value)).toEqual([{ ...question, appears: '255ms' }]);
    expect(inferred.sessions?.map((p) => p.value)).toEqual([{ id: OTHER }]);
  });
});

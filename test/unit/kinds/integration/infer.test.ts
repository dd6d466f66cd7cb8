/**
 * scenario-from for OAuth: an attempt a recorded request started becomes its method's `attempt` (so the world
 * starts the next one alike) and is not declared as the scenario's own; one whose recorded creation cannot be
 * the world's stays the scenario's, with a rule that answers its start as recorded.
 */
import { describe, expect, it } from 'vitest';
import type { Step, Timeline } from '../../../../src/derive/timeline.js';
import { inferAttempts } from '../../../../src/kinds/attempt/infer.js';
import { inferIntegrations } from '../../../../src/kinds/integration/infer.js';

const ORIGIN = Date.parse('2026-11-25T10:00:00.000Z');
const ATTEMPT = 'con_203a64b00001CrBDw85dYNzrGb';
const LOCATION = { directory: '/srv/demo' };
const OPENAI = {
  id: 'openai',
  name: 'OpenAI',
  methods: [{ type: 'oauth', id: 'chatgpt-browser', label: 'ChatGPT (browser)' }, { type: 'key' }],
  connections: [],
};

let seq = 0;
function step(operationId: string, at: number, fields: Partial<Step>): Step {
  return {
    seq: ++seq,
    at,
    durationMs: 5,
    method: 'GET',
    path: '/',
    operation: { operationId } as Step['operation'],
    params: {},
    query: {},
    body: undefined,
    status: 200,
    answer: undefined,
    answerProblems: [],
    stream: false,
    interaction: {} as Step['interaction'],
    ...fields,
  };
}

/** A list, an OAuth start created `createdAfter` ms after its request, three polls, and the list after. */
function recording(createdAfter: number, mode = 'auto'): Timeline {
  const created = ORIGIN + 100 + createdAfter;
  const poll = (at: number, status: string) =>
    step('v2.integration.attempt.status', at, {
      params: { attemptID: ATTEMPT },
      answer: { location: LOCATION, data: { status, time: { created, expires: created + 600_000 } } },
    });
  return {
    origin: ORIGIN,
    events: [],
    steps: [
      step('v2.integration.list', 0, { answer: { location: LOCATION, data: [OPENAI] } }),
      step('v2.integration.connect.oauth', 100, {
        method: 'POST',
        path: '/api/integration/openai/connect/oauth',
        params: { integrationID: 'openai' },
        body: { methodID: 'chatgpt-browser', inputs: {} },
        answer: {
          location: LOCATION,
          data: {
            attemptID: ATTEMPT,
            url: 'https://auth.example/x',
            instructions: 'Open the page',
            mode,
            time: { created, expires: created + 600_000 },
          },
        },
      }),
      poll(1000, 'pending'),
      poll(2000, 'pending'),
      poll(3000, 'complete'),
      step('v2.integration.list', 4000, {
        answer: {
          location: LOCATION,
          data: [
            { ...OPENAI, connections: [{ type: 'credential', id: 'cred_203a64c10001ChatGptProAbCd', label: 'Pro' }] },
          ],
        },
      }),
    ],
  };
}

describe('scenario-from for OAuth attempts', () => {
  it('makes a start the world can repeat its method’s attempt, and declares no attempt of its own', () => {
    const timeline = recording(2);
    const { integrations = [] } = inferIntegrations(timeline);
    const openai = integrations[0]!;
    expect((openai.value as typeof OPENAI).methods[0]).toEqual({
      type: 'oauth',
      id: 'chatgpt-browser',
      label: 'ChatGPT (browser)',
      attempt: {
        url: 'https://auth.example/x',
        instructions: 'Open the page',
        settles: { as: 'complete', poll: 3, label: 'Pro' },
      },
    });
    expect(openai.note).toBe('chatgpt-browser: polled: pending, pending, complete');
    expect(openai.from.map((s) => s.operation?.operationId)).toEqual([
      'v2.integration.list',
      'v2.integration.connect.oauth',
      'v2.integration.attempt.status',
      'v2.integration.attempt.status',
      'v2.integration.attempt.status',
    ]);
    // The recorded answer itself is left as recorded, for the comparison that follows.
    expect((timeline.steps[0]!.answer as { data: (typeof OPENAI)[] }).data[0]).toEqual(OPENAI);
    const attempts = inferAttempts(timeline, { project: [], integrations });
    expect(attempts).toEqual({ attempts: [], integrations: [] });
  });

  it('keeps an attempt created before its request as the scenario’s own, its start a rule', () => {
    const timeline = recording(-20_000);
    const { integrations = [] } = inferIntegrations(timeline);
    expect((integrations[0]!.value as typeof OPENAI).methods[0]).not.toHaveProperty('attempt');
    const { attempts = [], rules = [] } = inferAttempts(timeline, { project: [], integrations });
    expect(attempts.map((p) => p.value)).toEqual([
      expect.objectContaining({
        id: ATTEMPT,
        integrationID: 'openai',
        settles: { as: 'complete', poll: 3, credential: { id: 'cred_203a64c10001ChatGptProAbCd', label: 'Pro' } },
      }),
    ]);
    expect(rules.map((p) => p.value)).toEqual([
      {
        when: { operation: 'v2.integration.connect.oauth', params: { integrationID: 'openai' }, after: '100ms' },
        then: { status: 200, body: timeline.steps[1]!.answer },
        times: 1,
      },
    ]);
  });

  it('reads a code-mode attempt from the code that completed it', () => {
    const timeline = recording(2, 'code');
    timeline.steps.splice(
      4,
      0,
      step('v2.integration.attempt.complete', 2500, {
        method: 'POST',
        params: { attemptID: ATTEMPT },
        body: { code: 'abc' },
        status: 204,
      }),
    );
    const { integrations = [] } = inferIntegrations(timeline);
    expect((integrations[0]!.value as typeof OPENAI).methods[0]).toMatchObject({
      attempt: { mode: 'code', settles: { as: 'complete', label: 'Pro' } },
    });
  });
});

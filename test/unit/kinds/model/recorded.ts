/** A recording's timeline made by hand for inference tests: answered steps of named operations, in order. */
import type { Step, Timeline } from '../../../../src/derive/timeline.js';
import type { OperationDefinition } from '../../../../src/openapi/openapi.js';
import type { Interaction } from '../../../../src/recordings/format.js';

export function recorded(...answers: Array<[string, unknown, Record<string, string>?]>): Timeline {
  const steps = answers.map(([operationId, answer, query], seq): Step => ({
    seq,
    at: seq * 100,
    durationMs: 5,
    method: 'GET',
    path: `/${operationId}`,
    operation: { operationId } as OperationDefinition,
    params: {},
    query: query ?? {},
    body: undefined,
    status: 200,
    answer,
    answerProblems: [],
    stream: false,
    interaction: {} as Interaction,
  }));
  return { origin: 0, steps, events: [] };
}

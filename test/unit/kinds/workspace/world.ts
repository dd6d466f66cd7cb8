/**
 * A world for the file, project copy, worktree and workspace kinds' unit tests: built from a scenario by the
 * engine, its handlers called directly, their events committed as the world layer commits them, and every
 * answer and error held to the spec.
 */
import { expect } from 'vitest';
import { TaggedError } from '../../../../src/errors/errors.js';
import { answerBody, type Answer, type Exchange } from '../../../../src/exchange/exchange.js';
import type { AcceptedRequest } from '../../../../src/layers/layer.js';
import { KINDS } from '../../../../src/kinds/registry.js';
import { checkAnswer } from '../../../../src/openapi/answer-check.js';
import { projectContext } from '../../../../src/openapi/location.js';
import { loadSpec, type SpecIndex } from '../../../../src/openapi/openapi.js';
import { loadScenarioObject } from '../../../../src/scenarios/load-scenario.js';
import { createEngine, type Engine } from '../../../../src/state/engine.js';
import type { DomainEvent } from '../../../../src/state/events.js';

export const PROJECT = projectContext('/home/dev/acme-web', '65831e286a96b4ffa21a844bd6bc948480c05a6d');

export interface Call {
  query?: Record<string, unknown>;
  body?: unknown;
  pathParams?: Record<string, string>;
}

let spec: SpecIndex | undefined;

export interface TestWorld {
  engine: Engine;
  /** The answer (its body read), after the events are committed; undefined when the handler declines. */
  call(operationId: string, call?: Call): (Answer & { body?: unknown; raw?: Buffer }) | undefined;
  /** The error the handler throws, its body checked against the operation's declared errors. */
  fail(operationId: string, call?: Call): TaggedError;
  /** The domain events committed so far. */
  events(): DomainEvent[];
}

export async function worldOf(scenario: Record<string, unknown>): Promise<TestWorld> {
  spec ??= await loadSpec();
  const index = spec;
  const definition = loadScenarioObject({ name: 'unit', ...scenario }, index);
  const engine = createEngine({ kinds: KINDS, definition, seed: 'unit' });
  const call: TestWorld['call'] = (operationId, c = {}) => {
    const operation = index.byId.get(operationId);
    const handler = KINDS.handlers[operationId];
    if (!operation || !handler) throw new Error(`no handler for ${operationId}`);
    const request = {
      exchange: { id: 'req_test' } as Exchange,
      operation,
      pathParams: c.pathParams ?? {},
      query: c.query ?? {},
      body: c.body,
      preferences: {},
    } as unknown as AcceptedRequest;
    const decision = handler(request, { world: engine.world!, now: engine.clock.now(), project: PROJECT });
    if (!decision) return undefined;
    if (decision.events) engine.commit(decision.events, { request: 'req_test' });
    const body = answerBody(decision.answer);
    expect(checkAnswer(operation, decision.answer.status, body)).toEqual([]);
    return { ...decision.answer, body };
  };
  return {
    engine,
    call,
    fail(operationId, c = {}) {
      try {
        call(operationId, c);
      } catch (error) {
        expect(error).toBeInstanceOf(TaggedError);
        const tagged = error as TaggedError;
        expect(checkAnswer(index.byId.get(operationId)!, tagged.status, tagged.toBody())).toEqual([]);
        return tagged;
      }
      throw new Error(`${operationId} answered instead of failing`);
    },
    events: () => engine.log.entries().filter((e): e is DomainEvent => e.kind === 'event'),
  };
}

/**
 * OAuth attempts a request starts, on the engine: the flow decides how each goes, a settled one is gone a
 * minute later, a cancelled one at once and with its timer, and the partition's bound makes room by dropping
 * the attempt that settled first before it refuses.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { AcceptedRequest } from '../../../../src/layers/layer.js';
import type { HandlerContext } from '../../../../src/kinds/kind.js';
import { MAX_ATTEMPTS } from '../../../../src/kinds/attempt/limits.js';
import { KINDS } from '../../../../src/kinds/registry.js';
import { loadSpec, type SpecIndex } from '../../../../src/openapi/openapi.js';
import { projectContext } from '../../../../src/openapi/location.js';
import { loadScenarioObject } from '../../../../src/scenarios/load-scenario.js';
import { createEngine, type Engine } from '../../../../src/state/engine.js';
import type { DomainEvent } from '../../../../src/state/events.js';

let spec: SpecIndex;
beforeAll(async () => {
  spec = await loadSpec();
});

function engineFor(scenario: Record<string, unknown> = {}): Engine {
  return createEngine({
    kinds: KINDS,
    definition: loadScenarioObject({ name: 'unit', ...scenario }, spec),
    seed: 't',
  });
}

function call(engine: Engine, operationId: string, pathParams: Record<string, string>, body: unknown = {}) {
  const context: HandlerContext = {
    world: engine.world!,
    now: engine.clock.now(),
    project: projectContext('/home/dev/acme-web'),
  };
  const decision = KINDS.handlers[operationId]!({ pathParams, body, query: {} } as AcceptedRequest, context);
  if (decision?.events) engine.commit(decision.events, { request: 'req_1' });
  return decision;
}

function start(engine: Engine, integrationID = 'openai', methodID = 'chatgpt-browser', label?: string): string {
  const decision = call(engine, 'v2.integration.connect.oauth', { integrationID }, { methodID, inputs: {}, label });
  return ((decision?.answer as { body: { data: { attemptID: string } } }).body.data as { attemptID: string }).attemptID;
}

const domain = (engine: Engine) =>
  engine.log.entries().filter((e): e is DomainEvent => e.kind === 'event' && e.type !== 'integration.attempt.polled');
const timersOf = (engine: Engine) => engine.clock.timers().filter((t) => t.key.startsWith('attempt:'));

describe('an attempt started by a request', () => {
  it('completes on its flow’s time, connects its credential, and is gone a minute later', () => {
    const engine = engineFor();
    const created = engine.clock.now();
    const id = start(engine, 'openai', 'chatgpt-browser', 'Mine');
    expect(engine.world!.attempts.get(id)).toMatchObject({ status: 'pending', polls: 0 });
    expect(timersOf(engine)).toEqual([{ key: `attempt:${id}`, at: created + 5000 }]);
    engine.advance(5000);
    expect(domain(engine).map((e) => [e.type, e.time - created])).toEqual([
      ['integration.attempt.started', 0],
      ['integration.attempt.settled', 5000],
      ['integration.credential.connected', 5000],
      ['integration.connection.updated', 5000],
      ['integration.updated', 5000],
    ]);
    expect(engine.world!.integrations.get('openai')?.connections).toEqual([
      { type: 'credential', id: expect.stringMatching(/^cred_/), label: 'Mine' },
    ]);
    expect(timersOf(engine)).toEqual([{ key: `attempt:${id}`, at: created + 65_000 }]);
    engine.advance(59_999);
    expect(engine.world!.attempts.has(id)).toBe(true);
    engine.advance(1);
    expect(engine.world!.attempts.has(id)).toBe(false);
    expect(timersOf(engine)).toEqual([]);
  });

  it('leaves no timer behind when cancelled, and cancelling is idempotent', () => {
    const engine = engineFor();
    const ids = [start(engine), start(engine), start(engine)];
    for (const id of ids) call(engine, 'v2.integration.attempt.cancel', { attemptID: id });
    expect(engine.world!.attempts.size).toBe(0);
    expect(timersOf(engine)).toEqual([]);
    expect(call(engine, 'v2.integration.attempt.cancel', { attemptID: ids[0]! })?.events).toBeUndefined();
  });

  it('settles on the flow’s poll, and stays pending until it expires when nobody finishes it', () => {
    const engine = engineFor({
      integrations: [
        {
          id: 'acme',
          name: 'Acme',
          methods: [
            { type: 'oauth', id: 'polled', label: 'P', attempt: { settles: { as: 'failed', poll: 2, message: 'no' } } },
            { type: 'oauth', id: 'never', label: 'N', attempt: { settles: { as: 'expired' } } },
          ],
        },
      ],
    });
    const polled = start(engine, 'acme', 'polled');
    const never = start(engine, 'acme', 'never');
    const status = (attemptID: string) =>
      (call(engine, 'v2.integration.attempt.status', { attemptID })?.answer as { body: { data: unknown } }).body.data;
    expect(status(polled)).toMatchObject({ status: 'pending' });
    expect(status(polled)).toMatchObject({ status: 'failed', message: 'no' });
    expect(timersOf(engine).find((t) => t.key === `attempt:${never}`)?.at).toBe(engine.clock.now() + 600_000);
    engine.advance(600_000);
    expect(status(never)).toMatchObject({ status: 'expired' });
    expect(engine.world!.integrations.get('acme')?.connections).toEqual([]);
  });

  it('makes room by dropping the attempt that settled first, then refuses when all are pending', () => {
    const engine = engineFor();
    const first = start(engine);
    engine.advance(1000);
    const second = start(engine);
    engine.advance(5000); // both complete, the first a second earlier
    for (let i = 2; i < MAX_ATTEMPTS; i++) start(engine);
    expect(engine.world!.attempts.size).toBe(MAX_ATTEMPTS);
    start(engine);
    expect(engine.world!.attempts.has(first)).toBe(false);
    expect(engine.world!.attempts.has(second)).toBe(true);
    start(engine);
    expect(engine.world!.attempts.has(second)).toBe(false);
    expect(() => start(engine)).toThrow(/OAuth attempt/);
    expect(engine.world!.attempts.size).toBe(MAX_ATTEMPTS);
  });

  it('refuses to complete an attempt that finishes by itself, and one that was never started', () => {
    const engine = engineFor({
      integrations: [{ id: 'openai', name: 'OpenAI', methods: [] }],
      attempts: [{ id: 'con_203a64b00001CrBDw85dYNzrGb', integrationID: 'openai' }],
    });
    expect(() =>
      call(engine, 'v2.integration.attempt.complete', { attemptID: 'con_203a64b00001CrBDw85dYNzrGb' }, { code: 'x' }),
    ).toThrow('OAuth attempt already completing');
    expect(() => call(engine, 'v2.integration.attempt.complete', { attemptID: 'con_x' }, { code: 'x' })).toThrow(
      'OAuth attempt not found: con_x',
    );
  });
});

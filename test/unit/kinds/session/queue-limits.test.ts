/**
 * Prompts that wait for their turn are bounded: 64 per session, 4,096 over a partition's sessions. Past either
 * bound a prompt (or a synthetic message with resume) is refused with SimResourceLimitError and leaves nothing
 * behind; once the queue drains (the turns play, or an interrupt drops them) prompting works again.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { SESSION_LIMITS } from '../../../../src/kinds/session/limits.js';
import { pendingRequests } from '../../../../src/kinds/permission/ask.js';
import { KINDS } from '../../../../src/kinds/registry.js';
import { loadSpec, type SpecIndex } from '../../../../src/openapi/openapi.js';
import { loadScenarioObject } from '../../../../src/scenarios/load-scenario.js';
import { SimResourceLimitError } from '../../../../src/errors/sim-errors.js';
import { createEngine, type Engine } from '../../../../src/state/engine.js';
import { callHandler as call } from '../../../support/engine-call.js';

let spec: SpecIndex;
beforeAll(async () => {
  spec = await loadSpec();
});

const engineFor = () =>
  createEngine({ kinds: KINDS, definition: loadScenarioObject({ name: 'queue', seed: 'queue' }, spec), seed: 'q' });

const create = (engine: Engine) => (call(engine, 'v2.session.create', {}, {}) as { data: { id: string } }).data.id;
const prompt = (engine: Engine, sessionID: string, text = 'next, please') =>
  call(engine, 'v2.session.prompt', { sessionID }, { prompt: { text }, delivery: 'queue' });
const refusal = (run: () => unknown): SimResourceLimitError => {
  try {
    run();
  } catch (error) {
    if (error instanceof SimResourceLimitError) return error;
    throw error;
  }
  throw new Error('not refused');
};

describe('queued prompts', () => {
  it(`refuse the prompt past ${SESSION_LIMITS.queuedPrompt} waiting in a session, keep nothing of it, and take prompts once the queue drains`, () => {
    const engine = engineFor();
    const id = create(engine);
    prompt(engine, id, 'plays at once');
    for (let i = 0; i < SESSION_LIMITS.queuedPrompt; i++) prompt(engine, id, `waits ${i}`);
    const session = engine.world?.sessions.get(id);
    expect(session?.queue).toHaveLength(SESSION_LIMITS.queuedPrompt);
    const seq = engine.log.lastSeq;

    const refused = refusal(() => prompt(engine, id, 'one too many'));
    expect(refused.status).toBe(429);
    expect(refused.toBody()).toMatchObject({
      _tag: 'SimResourceLimitError',
      max: SESSION_LIMITS.queuedPrompt,
      message: `Cannot create another queued prompt: session ${id} already holds ${SESSION_LIMITS.queuedPrompt}, its limit`,
    });
    expect(String(refused.toBody().hint)).toContain(`POST /api/session/${id}/interrupt`);
    // A synthetic message with resume waits the same way, and is refused the same way.
    expect(refusal(() => call(engine, 'v2.session.synthetic', { sessionID: id }, { text: 'go on' })).status).toBe(429);
    expect(engine.log.lastSeq).toBe(seq);
    expect(session?.queue).toHaveLength(SESSION_LIMITS.queuedPrompt);

    // Each queued prompt plays its turn as the clock moves (one that asks for a permission mid-turn is let go
    // on, once); then the session takes prompts again.
    for (let hour = 0; hour < 200 && (session?.queue.length || session?.status === 'busy'); hour++) {
      for (const request of pendingRequests(engine.world!, id))
        call(engine, 'v2.session.permission.reply', { sessionID: id, requestID: request.id }, { reply: 'once' });
      engine.advance(3_600_000);
    }
    expect(session?.queue).toEqual([]);
    expect(session?.status).toBe('idle');
    prompt(engine, id, 'after the queue drained');
    prompt(engine, id, 'and queued behind it');
    expect(session?.queue).toHaveLength(1);
  });

  it(`refuse the prompt past ${SESSION_LIMITS.partitionQueuedPrompt} waiting over a partition's sessions, until an interrupt makes room`, () => {
    const engine = engineFor();
    const full = SESSION_LIMITS.partitionQueuedPrompt / SESSION_LIMITS.queuedPrompt;
    const ids = Array.from({ length: full + 1 }, () => create(engine));
    for (const id of ids.slice(0, full)) {
      prompt(engine, id, 'plays at once');
      for (let i = 0; i < SESSION_LIMITS.queuedPrompt; i++) prompt(engine, id);
    }
    const last = ids[full] as string;
    prompt(engine, last, 'plays at once: nothing waits for it');
    const refused = refusal(() => prompt(engine, last));
    expect(refused.toBody()).toMatchObject({
      _tag: 'SimResourceLimitError',
      max: SESSION_LIMITS.partitionQueuedPrompt,
      message: `Cannot create another queued prompt: this partition already holds ${SESSION_LIMITS.partitionQueuedPrompt}, its limit`,
    });
    expect(engine.world?.sessions.get(last)?.queue).toEqual([]);

    // An interrupt drops what waits in its session: room for the next prompt anywhere in the partition.
    call(engine, 'v2.session.interrupt', { sessionID: ids[0] as string }, undefined);
    prompt(engine, last);
    expect(engine.world?.sessions.get(last)?.queue).toHaveLength(1);
  });
});

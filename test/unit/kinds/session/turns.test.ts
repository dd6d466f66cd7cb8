/**
 * Agent turns at the engine: a synthetic message with resume plays the scenario's scripted turn (or one
 * generated from the seed), its events at their own instants as the clock moves, its messages appearing as
 * those events happen, the session busy until it ends; switches wait for the next turn; prompts queue.
 */
import type { V2Event } from '@opencode-ai/sdk/v2/types';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AcceptedRequest } from '../../../../src/exchange/layer.js';
import { SessionBusyError } from '../../../../src/errors.js';
import { KINDS } from '../../../../src/kinds/registry.js';
import { pageMessages } from '../../../../src/kinds/session/message-page.js';
import { generateTurn } from '../../../../src/kinds/session/generated-turn.js';
import { ScenarioError } from '../../../../src/scenarios/definition.js';
import { loadScenarioObject, parseScenario } from '../../../../src/scenarios/load-scenario.js';
import { loadSpec, type SpecIndex } from '../../../../src/openapi/openapi.js';
import { projectContext } from '../../../../src/openapi/location.js';
import { createEngine, type Engine } from '../../../../src/state/engine.js';
import type { DomainEvent, EventCatalog } from '../../../../src/state/events.js';
import { createRandom } from '../../../../src/state/random.js';
import { eventProblems } from '../../../support/spec-validator.js';

const SES = 'ses_dfc5ae513ffePKUBK7HkVp5zCB';
const OTHER = 'ses_dfc5ad9f0ffeQm3LpX8vT2bNcR';
const FIRST = 'msg_203a52106001tZWYWeFGLbY095';

// Each turn event's data is exactly the client's, optional fields included, or this file does not compile.
type Sdk<T extends string> = Extract<V2Event, { type: T }>['data'];
/** Spelled out, so that an intersection and the object it makes compare equal. */
type Flat<T> = T extends object ? { [K in keyof T]: Flat<T[K]> } : T;
/** Identical types (mutual assignability would let a missing optional field through). */
type Same<A, B> = (<X>() => X extends Flat<A> ? 1 : 2) extends <X>() => X extends Flat<B> ? 1 : 2 ? true : false;
type TurnType =
  | 'session.next.prompt.admitted'
  | 'session.next.step.started'
  | 'session.next.step.ended'
  | 'session.next.step.failed'
  | 'session.next.text.started'
  | 'session.next.text.delta'
  | 'session.next.text.ended'
  | 'session.next.reasoning.started'
  | 'session.next.reasoning.delta'
  | 'session.next.reasoning.ended'
  | 'session.next.tool.input.started'
  | 'session.next.tool.input.delta'
  | 'session.next.tool.input.ended'
  | 'session.next.tool.called'
  | 'session.next.tool.success'
  | 'session.next.tool.failed'
  | 'session.next.retried';
const EXACT: { [T in TurnType]: Same<EventCatalog[T], Sdk<T>> } = {
  'session.next.prompt.admitted': true,
  'session.next.step.started': true,
  'session.next.step.ended': true,
  'session.next.step.failed': true,
  'session.next.text.started': true,
  'session.next.text.delta': true,
  'session.next.text.ended': true,
  'session.next.reasoning.started': true,
  'session.next.reasoning.delta': true,
  'session.next.reasoning.ended': true,
  'session.next.tool.input.started': true,
  'session.next.tool.input.delta': true,
  'session.next.tool.input.ended': true,
  'session.next.tool.called': true,
  'session.next.tool.success': true,
  'session.next.tool.failed': true,
  'session.next.retried': true,
};
// The session's status is a subset of the client's (busy and idle; retry is not modelled).
const STATUS: EventCatalog['session.status'] extends Sdk<'session.status'> ? true : false = true;

const SCENARIO = {
  name: 'turns',
  seed: 'turns-seed',
  sessions: [
    { id: SES, messages: [{ id: FIRST, type: 'user', text: 'Add an avatar to the profile page' }] },
    { id: OTHER, title: 'Why does the login test fail on CI?', generate: { count: 6 } },
    { id: 'ses_dfc5ac1e2ffeHs7KdW4yR9zPaE', busyAfterSynthetic: '20s' },
  ],
  turns: [
    {
      session: SES,
      steps: [
        { reasoning: 'Check the profile page first.', chunk: 10, every: '100ms' },
        { tool: 'bash', input: { command: 'npm test' }, result: '42 passed', takes: '2s', chunk: 100, every: '10ms' },
        { text: 'All tests pass.', chunk: 8, every: '50ms' },
      ],
    },
    { session: SES, steps: [{ fail: 'Provider overloaded', after: '1s' }] },
    {
      session: SES,
      steps: [
        { retry: { message: 'rate limited', statusCode: 429, wait: '1s' }, after: '200ms' },
        { text: 'Second try worked.', every: 0 },
      ],
    },
  ],
  files: ['src/pages/Profile.tsx', 'src/components/Header.tsx', 'README.md'],
};

let spec: SpecIndex;
beforeAll(async () => {
  spec = await loadSpec();
});

function engineFor(scenario: object = SCENARIO, options: { realTime?: boolean } = {}) {
  const definition = loadScenarioObject(scenario, spec);
  return {
    engine: createEngine({ kinds: KINDS, definition, seed: 'test', realTime: options.realTime }),
    start: definition.start,
  };
}

let requests = 0;
/** Runs an operation's handler as the partition would, committing what it decides. */
function call(engine: Engine, operationId: string, sessionID: string, body: unknown): void {
  const world = engine.world;
  if (!world) throw new Error('no world');
  const request = { pathParams: { sessionID }, query: {}, body } as unknown as AcceptedRequest;
  const decision = KINDS.handlers[operationId]?.(request, {
    world,
    now: engine.clock.now(),
    project: projectContext('/home/dev/acme-web'),
  });
  if (decision?.events) engine.commit(decision.events, { request: `req_${++requests}` });
}

const synthetic = (engine: Engine, sessionID: string, text: string, resume = true) =>
  call(engine, 'v2.session.synthetic', sessionID, { text, resume });
const events = (engine: Engine) => engine.log.entries().filter((e): e is DomainEvent => e.kind === 'event');
const timeline = (engine: Engine, start: number) => events(engine).map((e) => [e.type, e.time - start]);
const page = (engine: Engine, sessionID: string, limit = 200) =>
  pageMessages(engine.world?.sessions.get(sessionID)?.messages ?? [], { limit: String(limit) }).data;
const messageProblems = (engine: Engine, sessionID: string) =>
  page(engine, sessionID).flatMap((m) =>
    spec.checkComponent('SessionMessage', m).map((d) => `${m.id}: ${d.path} ${d.message}`),
  );

function stageRevert(engine: Engine): unknown {
  try {
    call(engine, 'v2.session.revert.stage', SES, { messageID: FIRST });
    return 'staged';
  } catch (error) {
    return error;
  }
}

describe('a scripted turn', () => {
  it('plays its events in order, each at its own instant as the clock advances', () => {
    const { engine, start } = engineFor();
    synthetic(engine, SES, 'Run the tests');
    expect(timeline(engine, start)).toEqual([
      ['session.next.synthetic', 0],
      ['session.next.prompt.admitted', 0],
      ['session.turn.started', 0],
      ['session.status', 0],
      ['session.next.step.started', 0],
    ]);
    engine.advance(999);
    expect(timeline(engine, start).slice(5)).toEqual([
      ['session.next.reasoning.started', 700],
      ['session.next.reasoning.delta', 800],
      ['session.next.reasoning.delta', 900],
    ]);
    engine.advance(10_000);
    expect(timeline(engine, start).slice(5)).toEqual([
      ['session.next.reasoning.started', 700],
      ['session.next.reasoning.delta', 800],
      ['session.next.reasoning.delta', 900],
      ['session.next.reasoning.delta', 1000],
      ['session.next.reasoning.ended', 1000],
      ['session.next.tool.input.started', 1250],
      ['session.next.tool.input.delta', 1260],
      ['session.next.tool.input.ended', 1260],
      ['session.next.tool.called', 1260],
      ['session.next.tool.success', 3260],
      ['session.next.step.ended', 3260],
      ['session.next.step.started', 3260],
      ['session.next.text.started', 3960],
      ['session.next.text.delta', 4010],
      ['session.next.text.delta', 4060],
      ['session.next.text.ended', 4060],
      ['session.next.step.ended', 4060],
      ['session.status', 4060],
    ]);
    const all = events(engine);
    // Every event of the turn is committed by the timer of its session, at the instant its data names.
    for (const e of all.slice(5)) {
      expect(e.cause).toEqual({ timer: `session:${SES}` });
      if ('timestamp' in e.data) expect(e.data.timestamp).toBe(e.time);
    }
    const prompt = all[1]?.data as EventCatalog['session.next.prompt.admitted'];
    expect(prompt).toEqual({
      timestamp: start,
      sessionID: SES,
      messageID: all[0]?.data && (all[0].data as { messageID: string }).messageID,
      prompt: { text: 'Run the tests' },
      delivery: 'steer',
    });
    const deltas = all
      .filter((e) => e.type === 'session.next.reasoning.delta')
      .map((e) => (e.data as { delta: string }).delta);
    expect(deltas).toEqual(['Check the ', 'profile pa', 'ge first.']);
    expect(all.find((e) => e.type === 'session.next.tool.success')?.data).toMatchObject({
      content: [{ type: 'text', text: '42 passed' }],
      structured: {},
      provider: { executed: false },
    });
    expect(all.map((e) => e.type).filter((t) => t === 'session.status').length).toBe(2);
  });

  it('shows its messages as they come to exist, each valid against the spec', () => {
    const { engine } = engineFor();
    synthetic(engine, SES, 'Run the tests');
    const [assistant] = page(engine, SES, 1);
    expect(assistant).toMatchObject({
      type: 'assistant',
      agent: 'build',
      model: { id: 'claude-sonnet-4-5', providerID: 'anthropic' },
      content: [],
    });
    engine.advance(900);
    expect(page(engine, SES, 1)[0]).toMatchObject({ content: [{ type: 'reasoning', text: '' }] });
    engine.advance(100);
    expect(page(engine, SES, 1)[0]).toMatchObject({
      content: [{ type: 'reasoning', text: 'Check the profile page first.' }],
    });
    engine.advance(260);
    expect(page(engine, SES, 1)[0]).toMatchObject({
      content: [
        { type: 'reasoning' },
        { type: 'tool', name: 'bash', state: { status: 'running', input: { command: 'npm test' } } },
      ],
    });
    expect(messageProblems(engine, SES)).toEqual([]);
    engine.advance(2000);
    const [reply, work] = page(engine, SES, 2);
    expect(work).toMatchObject({
      finish: 'tool-calls',
      content: [
        { type: 'reasoning' },
        { type: 'tool', state: { status: 'completed', content: [{ type: 'text', text: '42 passed' }] } },
      ],
    });
    expect(work?.time).toEqual({ created: assistant?.time.created, completed: (assistant?.time.created ?? 0) + 3260 });
    expect(reply).toMatchObject({ type: 'assistant', content: [] });
    engine.advance(800);
    expect(page(engine, SES, 1)[0]).toMatchObject({
      finish: 'stop',
      content: [{ type: 'text', text: 'All tests pass.' }],
      tokens: { output: 4 },
    });
    expect(page(engine, SES, 4).map((m) => m.type)).toEqual(['assistant', 'assistant', 'synthetic', 'user']);
    expect(messageProblems(engine, SES)).toEqual([]);
  });

  it('keeps the session busy until it ends: revert staging answers SessionBusyError', () => {
    const { engine } = engineFor();
    expect(stageRevert(engine)).toBe('staged');
    synthetic(engine, SES, 'Run the tests');
    expect(engine.world?.sessions.get(SES)?.status).toBe('busy');
    engine.advance(4059);
    expect(stageRevert(engine)).toBeInstanceOf(SessionBusyError);
    engine.advance(1);
    expect(engine.world?.sessions.get(SES)?.status).toBe('idle');
    expect(stageRevert(engine)).toBe('staged');
  });

  it('publishes each of its events in the shape the spec (and the client) gives them', () => {
    const { engine } = engineFor();
    synthetic(engine, SES, 'Run the tests');
    engine.advance(10_000);
    synthetic(engine, SES, 'And again');
    engine.advance(10_000);
    synthetic(engine, SES, 'Once more');
    engine.advance(10_000);
    const published = events(engine).filter((e) => e.type !== 'session.turn.started');
    expect(new Set(published.map((e) => e.type))).toEqual(
      new Set(
        [...Object.keys(EXACT), 'session.status', 'session.next.synthetic'].filter(
          (t) => t !== 'session.next.tool.failed',
        ),
      ),
    );
    const problems = published.flatMap((e, seq) => {
      const frame = {
        id: e.id,
        type: e.type,
        durable: { aggregateID: SES, seq, version: 1 },
        location: { directory: '/home/dev/acme-web' },
        data: e.data,
      };
      return eventProblems(frame).map((p) => `${e.type}: ${p}`);
    });
    expect(problems).toEqual([]);
    expect(STATUS).toBe(true);
  });
});

describe('turns after the first', () => {
  it('play the next scripted turn of the session: a step that fails ends the turn', () => {
    const { engine, start } = engineFor();
    synthetic(engine, SES, 'Run the tests');
    engine.advance(5000);
    const before = events(engine).length;
    synthetic(engine, SES, 'Try the e2e suite');
    engine.advance(5000);
    expect(
      events(engine)
        .slice(before)
        .map((e) => [e.type, e.time - start - 5000]),
    ).toEqual([
      ['session.next.synthetic', 0],
      ['session.next.prompt.admitted', 0],
      ['session.turn.started', 0],
      ['session.status', 0],
      ['session.next.step.started', 0],
      ['session.next.step.failed', 1000],
      ['session.status', 1000],
    ]);
    expect(events(engine).find((e) => e.type === 'session.next.step.failed')?.data).toMatchObject({
      error: { type: 'unknown', message: 'Provider overloaded' },
    });
    expect(page(engine, SES, 1)[0]).toMatchObject({
      type: 'assistant',
      content: [],
      error: { type: 'unknown', message: 'Provider overloaded' },
    });
    expect(messageProblems(engine, SES)).toEqual([]);
  });

  it('retry: the attempt ends with the error, and the retried attempt is a new step after the wait', () => {
    const { engine, start } = engineFor();
    for (const text of ['one', 'two', 'three']) {
      synthetic(engine, SES, text);
      engine.advance(5000);
    }
    const third = events(engine).filter((e) => e.time >= start + 10_000);
    expect(third.map((e) => [e.type, e.time - start - 10_000])).toEqual([
      ['session.next.synthetic', 0],
      ['session.next.prompt.admitted', 0],
      ['session.turn.started', 0],
      ['session.status', 0],
      ['session.next.step.started', 0],
      ['session.next.retried', 200],
      ['session.next.step.started', 1200],
      ['session.next.text.started', 1900],
      ['session.next.text.delta', 1900],
      ['session.next.text.delta', 1900],
      ['session.next.text.ended', 1900],
      ['session.next.step.ended', 1900],
      ['session.status', 1900],
    ]);
    expect(third.find((e) => e.type === 'session.next.retried')?.data).toEqual({
      timestamp: start + 10_200,
      sessionID: SES,
      attempt: 1,
      error: { message: 'rate limited', statusCode: 429, isRetryable: true },
    });
    expect(page(engine, SES, 2).map((m) => [m.error, m.finish])).toEqual([
      [undefined, 'stop'],
      [{ type: 'unknown', message: 'rate limited' }, undefined],
    ]);
  });

  it('once the scripted turns are used, play turns generated from the seed', () => {
    const { engine } = engineFor();
    for (const text of ['one', 'two', 'three', 'four']) {
      synthetic(engine, SES, text);
      engine.advance(60_000);
    }
    const started = events(engine)
      .filter((e) => e.type === 'session.turn.started')
      .map((e) => e.data as EventCatalog['session.turn.started']);
    expect(started.map((p) => [p.number, p.scripted])).toEqual([
      [0, true],
      [1, true],
      [2, true],
      [3, false],
    ]);
    expect(engine.world?.sessions.get(SES)?.status).toBe('idle');
    expect(messageProblems(engine, SES)).toEqual([]);
  });

  it('a prompt admitted while a turn plays is queued and plays next, the session busy throughout', () => {
    const { engine, start } = engineFor();
    synthetic(engine, SES, 'Run the tests');
    engine.advance(2000);
    synthetic(engine, SES, 'Then try the e2e suite');
    const admitted = events(engine).filter((e) => e.type === 'session.next.prompt.admitted');
    expect(admitted.map((e) => (e.data as { delivery: string }).delivery)).toEqual(['steer', 'queue']);
    expect(engine.world?.sessions.get(SES)?.queue).toHaveLength(1);
    engine.advance(2059);
    engine.advance(1);
    expect(timeline(engine, start).filter(([, t]) => t === 4060)).toEqual([
      ['session.next.text.delta', 4060],
      ['session.next.text.ended', 4060],
      ['session.next.step.ended', 4060],
      ['session.turn.started', 4060],
      ['session.next.step.started', 4060],
    ]);
    engine.advance(2000);
    expect(timeline(engine, start).filter(([type]) => type === 'session.status')).toEqual([
      ['session.status', 0],
      ['session.status', 5060],
    ]);
    expect(engine.world?.sessions.get(SES)?.queue).toEqual([]);
  });

  it('a model or agent switch mid-turn applies to the next turn, not the playing one', () => {
    const { engine } = engineFor();
    synthetic(engine, SES, 'Run the tests');
    engine.advance(2000);
    call(engine, 'v2.session.switchModel', SES, { model: { id: 'gpt-5', providerID: 'openai' } });
    call(engine, 'v2.session.switchAgent', SES, { agent: 'plan' });
    engine.advance(8000);
    synthetic(engine, SES, 'Try the e2e suite');
    engine.advance(5000);
    const steps = events(engine)
      .filter((e) => e.type === 'session.next.step.started')
      .map((e) => e.data as EventCatalog['session.next.step.started']);
    expect(steps.map((s) => [s.agent, s.model.id])).toEqual([
      ['build', 'claude-sonnet-4-5'],
      ['build', 'claude-sonnet-4-5'],
      ['plan', 'gpt-5'],
    ]);
    expect(page(engine, SES, 1)[0]).toMatchObject({
      type: 'assistant',
      agent: 'plan',
      model: { id: 'gpt-5', providerID: 'openai' },
    });
    expect(messageProblems(engine, SES)).toEqual([]);
  });

  it('resume false appends the message and plays nothing', () => {
    const { engine, start } = engineFor();
    synthetic(engine, SES, 'FYI: CI is green', false);
    engine.advance(60_000);
    expect(timeline(engine, start)).toEqual([['session.next.synthetic', 0]]);
    expect(engine.world?.sessions.get(SES)?.status).toBe('idle');
    expect(engine.clock.timers()).toEqual([]);
  });
});

describe('a generated turn', () => {
  const play = (scenario: object = SCENARIO) => {
    const { engine } = engineFor(scenario);
    synthetic(engine, OTHER, 'Fix the flaky login test');
    engine.advance(3000);
    const midTurn = page(engine, OTHER, 5);
    engine.advance(60_000);
    return {
      events: events(engine).map((e) => [e.type, e.time, e.data]),
      midTurn,
      final: page(engine, OTHER, 10),
      engine,
    };
  };

  it('is the same for the same scenario and seed: events and message pages alike', () => {
    const first = play();
    const second = play();
    expect(second.events).toEqual(first.events);
    expect(second.midTurn).toEqual(first.midTurn);
    expect(second.final).toEqual(first.final);
    expect(first.events.length).toBeGreaterThan(20);
    expect(first.events.at(-1)?.[0]).toBe('session.status');
    expect(messageProblems(first.engine, OTHER)).toEqual([]);
    const other = play({ ...SCENARIO, seed: 'another-seed' });
    expect(other.final.map((m) => m.content)).not.toEqual(first.final.map((m) => m.content));
  });

  it('reads and edits files of the scenario, streams reasoning, runs the tests and answers', () => {
    const { events: all, final } = play();
    const types = all.map(([type]) => type);
    expect(types).toContain('session.next.tool.called');
    expect(types).toContain('session.next.text.ended');
    const tools = all
      .filter(([type]) => type === 'session.next.tool.called')
      .map(([, , data]) => data as EventCatalog['session.next.tool.called']);
    expect(tools.map((t) => t.tool)).toContain('edit');
    expect(['src/pages/Profile.tsx', 'src/components/Header.tsx']).toContain(
      tools.find((t) => t.tool === 'edit')?.input.path,
    );
    expect(final[0]).toMatchObject({ type: 'assistant', finish: 'stop', content: [{ type: 'text' }] });
  });

  it('takes exactly busyAfterSynthetic when the session gives it', () => {
    const { engine, start } = engineFor();
    synthetic(engine, 'ses_dfc5ac1e2ffeHs7KdW4yR9zPaE', 'Write the migration');
    engine.advance(19_999);
    expect(engine.world?.sessions.get('ses_dfc5ac1e2ffeHs7KdW4yR9zPaE')?.status).toBe('busy');
    engine.advance(1);
    expect(engine.world?.sessions.get('ses_dfc5ac1e2ffeHs7KdW4yR9zPaE')?.status).toBe('idle');
    expect(events(engine).at(-1)).toMatchObject({ type: 'session.status', time: start + 20_000 });
  });

  it('makes every kind of step over many seeds, each a turn that plays', () => {
    const kinds = new Set<string>();
    for (let i = 0; i < 60; i++) {
      const steps = generateTurn(createRandom(`variety:${i}`), 'Add dark mode', ['src/App.tsx']);
      for (const step of steps) kinds.add(step.kind === 'tool' && step.error ? 'tool error' : step.kind);
      expect(steps.at(-1)?.kind).toBe('text');
    }
    expect(kinds).toEqual(new Set(['retry', 'reasoning', 'tool', 'tool error', 'text']));
  });
});

describe('in real time', () => {
  it('plays a turn at wall pace', async () => {
    const scenario = {
      name: 'fast',
      sessions: [{ id: SES }],
      turns: [{ session: SES, steps: [{ text: 'abcdef', chunk: 2, every: '60ms', after: '40ms' }] }],
    };
    const { engine } = engineFor(scenario, { realTime: true });
    const arrivals: Array<[string, number]> = [];
    engine.log.subscribe((entry) => {
      if (entry.kind === 'event') arrivals.push([entry.type, Date.now()]);
    });
    const began = Date.now();
    synthetic(engine, SES, 'go');
    // Nobody advances the clock: the turn ends when wall time reaches it (a loaded machine may be late).
    const over = () => arrivals.filter(([type]) => type === 'session.status').length === 2;
    for (const deadline = Date.now() + 5000; !over() && Date.now() < deadline;)
      await new Promise((resolve) => setTimeout(resolve, 20));
    engine.dispose();
    expect(arrivals.map(([type]) => type)).toEqual([
      'session.next.synthetic',
      'session.next.prompt.admitted',
      'session.turn.started',
      'session.status',
      'session.next.step.started',
      'session.next.text.started',
      'session.next.text.delta',
      'session.next.text.delta',
      'session.next.text.delta',
      'session.next.text.ended',
      'session.next.step.ended',
      'session.status',
    ]);
    const at = (type: string) => (arrivals.find(([t]) => t === type)?.[1] ?? 0) - began;
    // Timers may wake late, never early: each event arrives no sooner than its virtual offset.
    expect(at('session.next.text.started')).toBeGreaterThanOrEqual(35);
    expect(at('session.next.text.ended')).toBeGreaterThanOrEqual(215);
    expect(at('session.next.text.ended') - at('session.next.text.started')).toBeGreaterThanOrEqual(150);
  });
});

describe('the turns format', () => {
  const problems = (turns: unknown[]) => {
    try {
      loadScenarioObject({ name: 'bad', sessions: [{ id: SES }], turns }, spec, 'test');
    } catch (error) {
      if (error instanceof ScenarioError) return error.problems.map((p) => `${p.path}: ${p.message}`);
      throw error;
    }
    return [];
  };

  it('names what is wrong with a step, where it is', () => {
    expect(problems([{ session: 'ses_nope', steps: [{ text: 'hi' }] }])).toEqual([
      'turns[0].session: session "ses_nope" is not declared; declare it under sessions:',
    ]);
    expect(problems([{ session: SES, steps: [{ text: 'hi', tool: 'bash' }] }])).toEqual([
      'turns[0].steps[0]: a step is one thing; this one is text and tool',
    ]);
    expect(problems([{ session: SES, steps: [{ after: '1s' }] }])).toEqual([
      'turns[0].steps[0]: a step needs one of reasoning, text, tool, fail, retry',
    ]);
    expect(problems([{ session: SES, steps: [{ text: 'hi', takes: '1s' }] }])).toEqual([
      'turns[0].steps[0].takes: takes does not apply to a text step',
    ]);
    expect(
      problems([{ session: SES, steps: [{ tool: 'bash', input: { command: 'ls' }, result: 'ok', error: 'no' }] }]),
    ).toEqual(['turns[0].steps[0].error: a tool call answers a result or fails with an error, not both']);
    expect(problems([{ session: SES, steps: [{ fail: 'boom' }, { text: 'hi' }] }])).toEqual([
      'turns[0].steps[1]: nothing can follow fail: a failed step ends the turn (script a retry to try again)',
    ]);
    expect(problems([{ session: SES, steps: [{ text: 'hi' }, { retry: 'busy' }] }])).toEqual([
      'turns[0].steps[1]: a retry needs the steps of the retried attempt after it',
    ]);
    expect(problems([{ session: SES, steps: [{ text: 'hi', every: 'soon' }] }])).toEqual([
      expect.stringMatching(/^turns\[0\]\.steps\[0\]\.every: must be a duration/),
    ]);
    expect(problems([{ session: SES, steps: [{ retry: { mesage: 'x' } }, { text: 'hi' }] }])).toEqual([
      'turns[0].steps[0].retry: missing field "message"',
      'turns[0].steps[0].retry.mesage: unknown field "mesage". Did you mean "message"?',
    ]);
  });

  it('reports a problem in a file at its line and column', () => {
    const text = `name: demo\nsessions: [{ id: ${SES} }]\nturns:\n  - session: ${SES}\n    steps:\n      - text: hi\n        takes: 1s\n      - tool: bash\n        chunk: 0\n        input: { command: ls }\n`;
    try {
      parseScenario(text, '<test>', spec);
      expect.unreachable('the scenario loaded');
    } catch (error) {
      expect((error as ScenarioError).problems.map((p) => `${p.line}:${p.col} ${p.message}`)).toEqual([
        '9:16 turns[0].steps[1].chunk must be >= 1',
      ]);
    }
    const valid = text.replace('        chunk: 0\n', '');
    try {
      parseScenario(valid, '<test>', spec);
      expect.unreachable('the scenario loaded');
    } catch (error) {
      expect((error as ScenarioError).problems.map((p) => `${p.line}:${p.col} ${p.message}`)).toEqual([
        '7:9 takes does not apply to a text step',
      ]);
    }
  });

  it('resolves durations to milliseconds, per session in the order written', () => {
    const definition = loadScenarioObject(
      {
        name: 'ok',
        sessions: [{ id: SES }, { id: OTHER }],
        turns: [
          {
            session: SES,
            steps: [
              { retry: 'busy', after: '1.5s' },
              { tool: 'read', input: { path: 'a.ts' }, takes: '250ms' },
            ],
          },
          { session: OTHER, steps: [{ text: 'x' }] },
          { session: SES, steps: [{ fail: 'no' }] },
        ],
      },
      spec,
    );
    expect(definition.sessions[0]?.turns.map((t) => t.steps)).toEqual([
      [
        { kind: 'retry', message: 'busy', after: 1500 },
        { kind: 'tool', tool: 'read', input: { path: 'a.ts' }, takes: 250 },
      ],
      [{ kind: 'fail', message: 'no' }],
    ]);
    expect(definition.sessions[1]?.turns).toEqual([{ steps: [{ kind: 'text', text: 'x' }], order: 1 }]);
  });
});

/**
 * Agent turns at the engine: a synthetic message with resume plays the scenario's scripted turn (or one
 * generated from the seed), its events at their own instants as the clock moves, its messages appearing as
 * those events happen, the session busy until it ends; switches wait for the next turn; prompts queue.
 */
import type { V2Event } from '@opencode-ai/sdk/v2/types';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AcceptedRequest } from '../../../../src/layers/layer.js';
import { SessionBusyError } from '../../../../src/kinds/session/errors.js';
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
import { callHandler } from '../../../support/engine-call.js';
import { eventProblems } from '../../../support/spec-validator.js';

type JsonObject = Record<string, unknown>;
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
    // Nothing of a step shows before the model's first token; the session's busy is the simulator's own.
    expect(timeline(engine, start)).toEqual([
      ['session.next.synthetic', 0],
      ['session.next.prompt.admitted', 0],
      ['session.turn.started', 0],
      ['session.turn.status', 0],
    ]);
    engine.advance(999);
    expect(timeline(engine, start).slice(4)).toEqual([
      ['session.next.step.started', 800],
      ['session.next.reasoning.started', 800],
      ['session.next.reasoning.delta', 800],
      ['session.next.reasoning.delta', 900],
    ]);
    engine.advance(10_000);
    // Reasoning ends as the tool's input starts; the input ends and the tool is called as the stream ends,
    // where the tool's permission is weighed (session.turn.waiting: nothing asked); then it runs.
    expect(timeline(engine, start).slice(4)).toEqual([
      ['session.next.step.started', 800],
      ['session.next.reasoning.started', 800],
      ['session.next.reasoning.delta', 800],
      ['session.next.reasoning.delta', 900],
      ['session.next.reasoning.delta', 1000],
      ['session.next.reasoning.ended', 1250],
      ['session.next.tool.input.started', 1250],
      ['session.next.tool.input.delta', 1260],
      ['session.next.tool.input.ended', 1260],
      ['session.next.tool.called', 1260],
      ['session.turn.waiting', 1260],
      ['session.next.tool.success', 3260],
      ['session.next.step.ended', 3260],
      ['session.next.step.started', 4010],
      ['session.next.text.started', 4010],
      ['session.next.text.delta', 4010],
      ['session.next.text.delta', 4060],
      ['session.next.text.ended', 4060],
      ['session.next.step.ended', 4060],
      ['session.turn.status', 4060],
    ]);
    const all = events(engine);
    // Every event of the turn is committed by the timer of its session, at the instant its data names.
    for (const e of all.slice(4)) {
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
    // bash answers as the real one: its output, its exit status said twice.
    expect(all.find((e) => e.type === 'session.next.tool.success')?.data).toMatchObject({
      content: [
        { type: 'text', text: '42 passed' },
        { type: 'text', text: 'Command exited with code 0.' },
      ],
      structured: { exit: 0, truncated: false },
      outputPaths: [],
      provider: { executed: false },
    });
    // The real server announces no status for a turn.
    expect(all.map((e) => e.type)).not.toContain('session.status');
  });

  it('shows its messages as they come to exist, each valid against the spec', () => {
    const { engine, start } = engineFor();
    synthetic(engine, SES, 'Run the tests');
    expect(page(engine, SES, 1)[0]?.type).toBe('synthetic');
    engine.advance(800);
    const [assistant] = page(engine, SES, 1);
    expect(assistant).toMatchObject({
      type: 'assistant',
      agent: 'build',
      model: { id: 'claude-sonnet-4-5', providerID: 'anthropic' },
      content: [{ type: 'reasoning', text: '' }],
      snapshot: { start: expect.stringMatching(/^[0-9a-f]{40}$/) },
    });
    engine.advance(450);
    expect(page(engine, SES, 1)[0]).toMatchObject({
      content: [
        { type: 'reasoning', text: 'Check the profile page first.' },
        { type: 'tool', state: { status: 'pending' } },
      ],
    });
    engine.advance(10);
    expect(page(engine, SES, 1)[0]).toMatchObject({
      content: [
        { type: 'reasoning' },
        {
          type: 'tool',
          name: 'bash',
          provider: { executed: false },
          state: { status: 'running', input: { command: 'npm test' } },
        },
      ],
    });
    expect(messageProblems(engine, SES)).toEqual([]);
    engine.advance(2000);
    const [work] = page(engine, SES, 1);
    expect(work).toMatchObject({
      finish: 'tool-calls',
      content: [
        { type: 'reasoning' },
        {
          type: 'tool',
          state: {
            status: 'completed',
            content: [{ type: 'text', text: '42 passed' }, { type: 'text' }],
            outputPaths: [],
          },
        },
      ],
      snapshot: {
        start: (assistant?.snapshot as JsonObject).start,
        end: (assistant?.snapshot as JsonObject).start,
        files: [],
      },
    });
    expect(work?.time).toEqual({ created: start + 800, completed: start + 3260 });
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
    // The simulator's own session.turn.* stay in the world; a retry shows nothing, as on the real server.
    const published = events(engine).filter((e) => !e.type.startsWith('session.turn.'));
    expect(new Set(published.map((e) => e.type))).toEqual(
      new Set(
        [...Object.keys(EXACT), 'session.next.synthetic'].filter(
          (t) => t !== 'session.next.tool.failed' && t !== 'session.next.retried',
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
      ['session.turn.status', 0],
      ['session.next.step.started', 1000],
      ['session.next.step.failed', 1000],
      ['session.turn.status', 1000],
    ]);
    // The provider's client error, as the real runtime words it.
    const message =
      'Provider request failed with HTTP 400: {"error":{"message":"Provider overloaded","type":"invalid_request_error","param":null,"code":null}}';
    expect(events(engine).find((e) => e.type === 'session.next.step.failed')?.data).toMatchObject({
      error: { type: 'unknown', message },
    });
    expect(page(engine, SES, 1)[0]).toMatchObject({
      type: 'assistant',
      content: [],
      finish: 'error',
      error: { type: 'unknown', message },
    });
    expect(messageProblems(engine, SES)).toEqual([]);
  });

  it('retry: the runtime retries the call and shows nothing of it but the wait', () => {
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
      ['session.turn.status', 0],
      ['session.next.step.started', 1900],
      ['session.next.text.started', 1900],
      ['session.next.text.delta', 1900],
      ['session.next.text.delta', 1900],
      ['session.next.text.ended', 1900],
      ['session.next.step.ended', 1900],
      ['session.turn.status', 1900],
    ]);
    expect(page(engine, SES, 1).map((m) => [m.error, m.finish])).toEqual([[undefined, 'stop']]);
  });

  it('retries three times in a row: the step fails with the provider error and the turn ends', () => {
    const scenario = {
      ...SCENARIO,
      turns: [
        {
          session: SES,
          steps: [
            ...Array.from({ length: 3 }, () => ({ retry: { message: 'Overloaded', statusCode: 529, wait: '1s' } })),
            { text: 'Never.' },
          ],
        },
      ],
    };
    const { engine } = engineFor(scenario);
    synthetic(engine, SES, 'go');
    engine.advance(60_000);
    const turn = events(engine).filter(
      (e) => e.type.startsWith('session.next.') && e.type !== 'session.next.synthetic',
    );
    expect(turn.map((e) => e.type)).toEqual([
      'session.next.prompt.admitted',
      'session.next.step.started',
      'session.next.step.failed',
    ]);
    expect((turn[2]?.data as { error: { message: string } }).error.message).toMatch(
      /^Provider request failed with HTTP 529: \{"error":\{"message":"Overloaded","type":"server_error"/,
    );
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
    ]);
    engine.advance(2000);
    // Busy from the first turn's start to the second's end, without going idle between.
    expect(timeline(engine, start).filter(([type]) => type === 'session.turn.status')).toEqual([
      ['session.turn.status', 0],
      ['session.turn.status', 5060],
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
    expect(first.events.at(-1)?.[0]).toBe('session.turn.status');
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
    expect(events(engine).at(-1)).toMatchObject({ type: 'session.turn.status', time: start + 20_000 });
  });

  it('makes every kind of step over many seeds, each a turn that plays', () => {
    const kinds = new Set<string>();
    for (let i = 0; i < 60; i++) {
      const steps = generateTurn(createRandom(`variety:${i}`), 'Add dark mode', ['src/App.tsx']);
      for (const step of steps)
        kinds.add(
          step.kind !== 'tool'
            ? step.kind
            : step.ask
              ? 'tool that asks'
              : step.structured?.exit
                ? 'command that fails'
                : step.kind,
        );
      expect(steps.at(-1)?.kind).toBe('text');
    }
    expect(kinds).toEqual(new Set(['retry', 'reasoning', 'tool', 'command that fails', 'tool that asks', 'text']));
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
    const over = () => arrivals.filter(([type]) => type === 'session.turn.status').length === 2;
    for (const deadline = Date.now() + 5000; !over() && Date.now() < deadline;)
      await new Promise((resolve) => setTimeout(resolve, 20));
    engine.dispose();
    expect(arrivals.map(([type]) => type)).toEqual([
      'session.next.synthetic',
      'session.next.prompt.admitted',
      'session.turn.started',
      'session.turn.status',
      'session.next.step.started',
      'session.next.text.started',
      'session.next.text.delta',
      'session.next.text.delta',
      'session.next.text.delta',
      'session.next.text.ended',
      'session.next.step.ended',
      'session.turn.status',
    ]);
    const at = (type: string) => (arrivals.find(([t]) => t === type)?.[1] ?? 0) - began;
    // Timers may wake late, never early: each event arrives no sooner than its virtual offset (the first
    // piece comes `every` after the pause, each next one `every` later). Gaps between two events are not
    // held: a loaded machine wakes the first late and the next on time.
    expect(at('session.next.text.started')).toBeGreaterThanOrEqual(95);
    const deltas = arrivals.filter(([type]) => type === 'session.next.text.delta').map(([, time]) => time - began);
    expect(deltas).toHaveLength(3);
    deltas.forEach((time, k) => expect(time, `text delta ${k}`).toBeGreaterThanOrEqual(95 + 60 * k));
    expect(at('session.next.text.ended')).toBeGreaterThanOrEqual(215);
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

describe('mid-turn asks and interrupts, as the real server plays them', () => {
  const ASKING = {
    name: 'asking',
    seed: 'asking',
    sessions: [{ id: SES }],
    turns: [
      {
        session: SES,
        steps: [
          { tool: 'bash', input: { command: 'npm test' }, ask: true, result: 'ok', takes: '1s' },
          { text: 'Ran them.' },
        ],
      },
      {
        session: SES,
        steps: [
          {
            tool: 'question',
            input: {
              questions: [{ question: 'Go on?', header: 'Go on', options: [{ label: 'Yes', description: 'y' }] }],
            },
          },
          { text: 'Going on.' },
        ],
      },
      { session: SES, steps: [{ text: 'A long answer, slowly', chunk: 4, every: '1s' }] },
    ],
  };
  const lastOf = (engine: Engine, type: string) => [...events(engine)].reverse().find((e) => e.type === type);
  const published = (engine: Engine, from = 0) =>
    events(engine)
      .slice(from)
      .map((e) => e.type)
      .filter((t) => !t.startsWith('session.turn.') && !t.endsWith('.delta'));
  const asked = (engine: Engine, type: string) =>
    lastOf(engine, type)?.data as { id: string; source?: unknown; tool?: unknown };

  for (const reply of ['once', 'always', 'reject'] as const)
    it(`asks a permission once the tool is called, and waits; ${reply} ${reply === 'reject' ? 'ends the turn' : 'runs it'}`, () => {
      const { engine } = engineFor(ASKING);
      synthetic(engine, SES, 'run the tests');
      engine.advance(60_000);
      expect(published(engine).slice(-3)).toEqual([
        'session.next.tool.input.ended',
        'session.next.tool.called',
        'permission.v2.asked',
      ]);
      const request = asked(engine, 'permission.v2.asked');
      expect(request).toMatchObject({
        action: 'bash',
        resources: ['npm test'],
        save: ['npm test'],
        source: { type: 'tool' },
      });
      expect(engine.world?.sessions.get(SES)?.status).toBe('busy');
      const before = events(engine).length;
      callHandler(engine, 'v2.session.permission.reply', { sessionID: SES, requestID: request.id }, { reply });
      engine.advance(60_000);
      const after = published(engine, before);
      if (reply === 'reject') {
        expect(after).toEqual(['permission.v2.replied', 'session.next.tool.failed']);
        expect(lastOf(engine, 'session.next.tool.failed')?.data).toMatchObject({
          error: { type: 'unknown', message: 'Tool execution interrupted' },
        });
        // The step is left as it stood, unfinished, as on the real server.
        const [left] = page(engine, SES, 1);
        expect(left).toMatchObject({ type: 'assistant', content: [{ type: 'tool', state: { status: 'error' } }] });
        expect((left?.time as JsonObject | undefined)?.completed).toBeUndefined();
      } else {
        expect(after[0]).toBe('permission.v2.replied');
        expect(after.slice(-2)).toEqual(['session.next.text.ended', 'session.next.step.ended']);
        expect(after).toContain('session.next.tool.success');
      }
      expect(engine.world?.sessions.get(SES)?.status).toBe('idle');
      expect(messageProblems(engine, SES)).toEqual([]);
    });

  it('asks the question tool’s questions, and answers the tool with the reply', () => {
    const { engine } = engineFor(ASKING);
    synthetic(engine, SES, 'one');
    engine.advance(5000);
    callHandler(
      engine,
      'v2.session.permission.reply',
      { sessionID: SES, requestID: asked(engine, 'permission.v2.asked').id },
      { reply: 'once' },
    );
    engine.advance(60_000);
    synthetic(engine, SES, 'two');
    engine.advance(60_000);
    const question = asked(engine, 'question.v2.asked');
    expect(question).toMatchObject({ tool: { callID: expect.stringMatching(/^call_/) } });
    callHandler(
      engine,
      'v2.session.question.reply',
      { sessionID: SES, requestID: question.id },
      { answers: [['Yes']] },
    );
    engine.advance(60_000);
    expect(lastOf(engine, 'session.next.tool.success')?.data).toMatchObject({
      structured: { answers: [['Yes']] },
      content: [{ type: 'text', text: expect.stringContaining('"Go on?"="Yes"') }],
    });
    expect(page(engine, SES, 1)[0]).toMatchObject({ finish: 'stop', content: [{ type: 'text', text: 'Going on.' }] });
  });

  it('an interrupt ends what streams where it stands and fails the step; before a first token, shows nothing', () => {
    const { engine } = engineFor({ ...ASKING, turns: [ASKING.turns[2], ASKING.turns[2]] });
    synthetic(engine, SES, 'slowly');
    engine.advance(500);
    const before = events(engine).length;
    call(engine, 'v2.session.interrupt', SES, undefined);
    expect(published(engine, before)).toEqual([]);
    synthetic(engine, SES, 'slowly again');
    engine.advance(3000);
    const streaming = events(engine).length;
    call(engine, 'v2.session.interrupt', SES, undefined);
    const ended = events(engine).slice(streaming);
    expect(published(engine, streaming)).toEqual(['session.next.text.ended', 'session.next.step.failed']);
    expect((ended.find((e) => e.type === 'session.next.text.ended')?.data as { text: string }).text).toMatch(/^A lo/);
    expect(page(engine, SES, 1)[0]).toMatchObject({ finish: 'error', error: { message: 'Provider turn interrupted' } });
    expect(engine.world?.sessions.get(SES)?.status).toBe('idle');
  });

  it('streams parallel calls’ inputs first, calls them, ends the text, then answers the quickest first', () => {
    const { engine } = engineFor({
      name: 'parallel',
      sessions: [{ id: SES }],
      turns: [
        {
          session: SES,
          steps: [
            { text: 'Looking.' },
            { tool: 'read', input: { path: 'a.ts' }, takes: '2s' },
            { tool: 'bash', input: { command: 'false' }, error: 'failed', takes: '1s' },
          ],
        },
      ],
    });
    synthetic(engine, SES, 'go');
    engine.advance(60_000);
    expect(published(engine).slice(3)).toEqual(
      [
        'session.next.text.started',
        'session.next.tool.input.started',
        'session.next.tool.input.started',
        'session.next.tool.input.ended',
        'session.next.tool.called',
        'session.next.tool.input.ended',
        'session.next.tool.called',
        'session.next.text.ended',
        'session.next.tool.success',
        'session.next.tool.success',
        'session.next.step.ended',
        'session.next.step.started',
      ].slice(0, 11),
    );
    const results = events(engine)
      .filter((e) => e.type === 'session.next.tool.success')
      .map((e) => e.data as JsonObject);
    // bash answers every exit: an error is a non-zero one.
    expect(results[0]).toMatchObject({ structured: { exit: 1, truncated: false } });
    expect(results[1]).toMatchObject({ structured: { name: 'a.ts', mime: 'text/plain' }, content: [] });
  });
});

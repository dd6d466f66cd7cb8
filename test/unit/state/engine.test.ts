/**
 * The state core: a clock that fires timers at their own instants, and an engine through which every change
 * of the world is a domain event with its virtual time and cause.
 */
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { KINDS } from '../../../src/kinds/registry.js';
import { loadScenarioFile } from '../../../src/scenarios/load-scenario.js';
import { loadSpec, type SpecIndex } from '../../../src/openapi/openapi.js';
import { createClock, DEFAULT_START } from '../../../src/state/clock.js';
import { createEngine, type Engine } from '../../../src/state/engine.js';
import { callHandler as call } from '../../support/engine-call.js';
import type { DomainEvent } from '../../../src/state/events.js';

const scenario = (name: string) => fileURLToPath(new URL(`../../../scenarios/${name}.yaml`, import.meta.url));
let spec: SpecIndex;
beforeAll(async () => {
  spec = await loadSpec();
});

function engineFor(name: string) {
  const definition = loadScenarioFile(scenario(name), spec);
  return { engine: createEngine({ kinds: KINDS, definition, seed: 'test' }), start: definition.start };
}

const events = (engine: ReturnType<typeof engineFor>['engine']) =>
  engine.log.entries().filter((e): e is DomainEvent => e.kind === 'event');

describe('clock', () => {
  it('fires due timers in time order, each reading its own instant, then stands at the target', () => {
    const fired: Array<[string, number]> = [];
    const clock = createClock({ onDue: (key) => fired.push([key, clock.now()]) });
    clock.schedule('b', DEFAULT_START + 2000);
    clock.schedule('a', DEFAULT_START + 1000);
    clock.schedule('c', DEFAULT_START + 9000);
    expect(clock.advance(5000)).toBe(DEFAULT_START + 5000);
    expect(fired).toEqual([
      ['a', DEFAULT_START + 1000],
      ['b', DEFAULT_START + 2000],
    ]);
    expect(clock.timers()).toEqual([{ key: 'c', at: DEFAULT_START + 9000 }]);
  });

  it('replaces a timer under the same key, cancels one given no time, and drops all on reset', () => {
    const fired: string[] = [];
    const clock = createClock({ onDue: (key) => fired.push(key) });
    clock.schedule('x', DEFAULT_START + 1000);
    clock.schedule('x', DEFAULT_START + 3000);
    clock.schedule('y', DEFAULT_START + 1000);
    clock.schedule('y', undefined);
    clock.advance(2000);
    expect(fired).toEqual([]);
    clock.reset(DEFAULT_START);
    clock.advance(5000);
    expect(fired).toEqual([]);
  });

  it('fires a timer set while another fires, when it falls due within the same advance', () => {
    const fired: string[] = [];
    const clock = createClock({
      onDue: (key) => {
        fired.push(key);
        if (key === 'first') clock.schedule('second', clock.now() + 500);
      },
    });
    clock.schedule('first', DEFAULT_START + 1000);
    clock.advance(2000);
    expect(fired).toEqual(['first', 'second']);
  });
});

describe('engine', () => {
  it('makes time-based changes domain events at their virtual instants, caused by timers', () => {
    const { engine, start } = engineFor('forms-settling');
    engine.advance(90_000);
    expect(events(engine).map((e) => [e.type, e.time - start, e.cause, e.transition?.to])).toEqual([
      ['form.created', 10_000, { timer: 'form:frm_203a7d0000010LaterFormAbCd' }, 'pending'],
      ['form.cancelled', 60_000, { timer: 'form:frm_203a7e0000010CancelledAbCd' }, 'cancelled'],
    ]);
    expect(engine.world?.forms.get('frm_203a7e0000010CancelledAbCd')?.status).toBe('cancelled');
  });

  it('announces a shell timeout as shell.exited {status: timeout} at +5 s, and the build exit at +3 s', () => {
    const { engine, start } = engineFor('shell-timeout');
    engine.advance(10_000);
    expect(events(engine).map((e) => [e.type, e.time - start, e.data])).toEqual([
      ['shell.exited', 3000, { id: 'sh_203a7e0a4001Bc4DeFgHiJkLmN', status: 'exited', exit: 0 }],
      ['shell.exited', 5000, { id: 'sh_203a7e5c7001OpQrStUvWxYzAb', status: 'timeout' }],
    ]);
  });

  it('reschedules a shell timeout when an event replaces it', () => {
    const { engine, start } = engineFor('shell-timeout');
    engine.advance(4000);
    engine.commit([{ type: 'shell.timeout.updated', data: { id: 'sh_203a7e5c7001OpQrStUvWxYzAb', timeout: 10_000 } }], {
      request: 'req_000001',
    });
    engine.advance(5000);
    expect(engine.world?.shells.get('sh_203a7e5c7001OpQrStUvWxYzAb')?.status).toBe('running');
    engine.advance(6000);
    const timedOut = events(engine).find(
      (e) => e.type === 'shell.exited' && (e.data as { status: string }).status === 'timeout',
    );
    expect(timedOut?.time).toBe(start + 14_000);
  });

  it('numbers events in log order with ascending evt_ ids, and starts afresh on reset', () => {
    const { engine } = engineFor('forms-settling');
    engine.advance(90_000);
    const first = events(engine).map((e) => e.id);
    expect(first.every((id) => /^evt_[0-9a-f]{12}[0-9A-Za-z]{14}$/.test(id))).toBe(true);
    expect([...first].sort()).toEqual(first);
    engine.reset();
    expect(engine.world?.forms.get('frm_203a7e0000010CancelledAbCd')?.status).toBe('pending');
    engine.advance(90_000);
    expect(
      events(engine)
        .slice(-2)
        .map((e) => e.id),
    ).toEqual(first);
  });

  it('does nothing without a scenario but keep time', () => {
    const engine = createEngine({ kinds: KINDS, seed: 'none' });
    expect(engine.world).toBeUndefined();
    expect(engine.advance(1000)).toBe(DEFAULT_START + 1000);
    expect(engine.commit([{ type: 'integration.updated', data: {} }], { request: 'req_1' })).toEqual([]);
  });
});

/** Every timer as a rescan of every kind's table would set it now: what rescheduling only what events touch must keep. */
function rescanned(engine: Engine): Map<string, number> {
  const world = engine.world;
  const now = engine.clock.now();
  const out = new Map<string, number>();
  if (!world) return out;
  for (const [kind, schedule] of KINDS.schedules)
    for (const id of schedule.ids(world)) {
      const at = schedule.next(world, id, now);
      if (at !== undefined) out.set(`${kind}:${id}`, at);
    }
  return out;
}

describe('engine timers', () => {
  it.each([
    'default',
    'busy-session',
    'forms-settling',
    'oauth-expires',
    'oauth-pending-then-complete',
    'shell-timeout',
  ])('stay what a rescan of every table gives, as turns play and queue in %s', (name) => {
    const { engine } = engineFor(name);
    const sessions = () => [...(engine.world?.sessions.values() ?? [])].filter((s) => s.status !== 'scheduled');
    call(engine, 'v2.session.create', {}, {});
    let checked = 0;
    for (let step = 0; step < 120; step++) {
      if (step % 15 === 0)
        for (const session of sessions())
          call(engine, 'v2.session.synthetic', { sessionID: session.definition.id }, { text: `step ${step}` });
      if (step % 40 === 5)
        for (const session of sessions())
          call(engine, 'v2.session.prompt', { sessionID: session.definition.id }, { prompt: { text: 'and then?' } });
      engine.advance(1700);
      expect(new Map(engine.clock.timers().map((t) => [t.key, t.at]))).toEqual(rescanned(engine));
      checked += engine.clock.timers().length;
    }
    // The runs had timers to keep: turns playing, windows, forms, shells, attempts.
    expect(checked).toBeGreaterThan(20);
    expect(events(engine).filter((e) => e.type === 'session.turn.started').length).toBeGreaterThan(3);
  });
});

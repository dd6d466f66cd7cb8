/**
 * The promise of src/kinds/: a new kind is its folder and one line in the registry. This test writes a kind
 * nobody ships (a lamp that lights on the virtual clock), adds it to the registry the way that line would, and
 * checks that the stages that loop over the registry take it with no change of their own: the scenario format
 * and loader, the world and engine, its schedule, rules' `when.state`, the state snapshot and coverage.
 */
import request from 'supertest';
import { describe, expect, it, vi } from 'vitest';
import type { KindCatalog } from '../../../src/kinds/catalog.js';
import type { Kind } from '../../../src/kinds/kind.js';
import { changeState, itemsOf } from '../../../src/kinds/answers.js';
import type { ScenarioDefinition } from '../../../src/scenarios/definition.js';
import { draft, type EventType } from '../../../src/state/events.js';
import type { World } from '../../../src/state/world.js';

type LampStatus = 'dark' | 'lit';
interface LampDefinition {
  readonly id: string;
  readonly lights: number;
}
interface LampState {
  readonly definition: LampDefinition;
  status: LampStatus;
}

// A shipped kind adds these to the shared shapes by declaration merging (docs/architecture.md); a test's
// merging would reach every other test's types, so this one reads them through casts instead.
const lamps = (world: World) => (world as unknown as { lamps: Map<string, LampState> }).lamps;
const sectionOf = (scenario: ScenarioDefinition) => (scenario as unknown as { lamps: LampDefinition[] }).lamps;
const LIT = 'lamp.lit' as EventType;

const lamp: Kind = {
  name: 'lamp',
  format: {
    properties: { lamps: { type: 'array', items: { $ref: '#/$defs/lamp' } } },
    defs: {
      lamp: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'lights'],
        properties: { id: { type: 'string', pattern: '^lmp_' }, lights: { $ref: '#/$defs/duration' } },
      },
    },
  },
  condition: { description: 'A lamp of the scenario: dark, then lit.', pattern: '^lmp_' },
  states: ['dark', 'lit'],
  transitions: [['dark', 'lit']],
  read: (source, context) =>
    ({
      lamps: itemsOf(source, 'lamps').map((l) => ({ id: l.id as string, lights: context.after(l.lights) })),
    }) as never,
  ids: (scenario) => sectionOf(scenario).map((l) => l.id),
  possible: (scenario) => sectionOf(scenario).map((l) => ({ id: l.id, from: 'dark', to: 'lit' })),
  seed: (scenario) =>
    ({
      lamps: new Map(sectionOf(scenario).map((definition) => [definition.id, { definition, status: 'dark' }])),
    }) as never,
  stateOf: (world, id) => lamps(world).get(id)?.status,
  snapshot: (world) =>
    ({ lamps: [...lamps(world).values()].map((l) => ({ id: l.definition.id, state: l.status })) }) as never,
  // No client asks anything of a lamp: the clock lights it.
  handlers: {},
  appliers: {
    [LIT]: (world: World, { data }: { data: { id: string } }) =>
      changeState('lamp' as never, data.id, lamps(world).get(data.id) as never, 'lit' as never),
  },
  schedule: {
    ids: (world) => lamps(world).keys(),
    next: (world, id) => {
      const found = lamps(world).get(id);
      return found?.status === 'dark' ? found.definition.lights : undefined;
    },
    fire: (world, id, now) => {
      const found = lamps(world).get(id);
      return found?.status === 'dark' && found.definition.lights <= now ? [draft(LIT, { id } as never)] : [];
    },
  },
  // Not a type the client knows: the stream leaves it out, as a kind's internal events are.
  publication: { internal: [LIT] },
};

// The one registry line, added from outside: the shipped registry plus the new kind, last.
vi.mock('../../../src/kinds/registry.js', async (importOriginal) => {
  const { KINDS } = await importOriginal<{ KINDS: KindCatalog }>();
  const { catalogOf } = await import('../../../src/kinds/catalog.js');
  return { KINDS: catalogOf([...KINDS.list, lamp]) };
});

const scenario = {
  name: 'lamps',
  lamps: [{ id: 'lmp_porch', lights: '5s' }],
  rules: [
    {
      when: { operation: 'v2.plugin.list', state: { lamp: { id: 'lmp_porch', is: 'lit' } } },
      then: {
        status: 200,
        body: { location: { directory: '/srv', project: { id: 'p1', directory: '/srv' } }, data: [{ id: 'lit' }] },
      },
    },
  ],
};

describe('a kind that is only its folder and a registry line', () => {
  it('is read, seeded, played on the clock, matched by rules, snapshotted and counted by coverage', async () => {
    const { createApp } = await import('../../../src/hosts/app.js');
    // Its section is in no generated type: the lamp kind exists in this test only.
    const app = await createApp({ scenario: scenario as never, log: () => {} });
    const state = async () => (await request(app).get('/__sim/state')).body as { lamps?: unknown };
    const plugins = () => request(app).get('/api/plugin');
    expect(await state()).toMatchObject({ lamps: [{ id: 'lmp_porch', state: 'dark' }] });
    expect((await plugins()).headers['x-sim-layer']).not.toBe('rule');
    await request(app).post('/__sim/clock/advance').send({ by: '5s' }).expect(200);
    expect(await state()).toMatchObject({ lamps: [{ id: 'lmp_porch', state: 'lit' }] });
    const lit = await plugins();
    expect(lit.headers['x-sim-layer']).toBe('rule');
    expect(lit.body).toMatchObject({ data: [{ id: 'lit' }] });
    const coverage = (await request(app).get('/__sim/coverage')).body as {
      transitions: Array<{ transition: string; happened: number }>;
    };
    expect(coverage.transitions).toContainEqual({ transition: 'lamps: lamp lmp_porch dark → lit', happened: 1 });
  });

  it('is part of the scenario format: a field it does not declare is refused where it stands', async () => {
    const { loadSpec } = await import('../../../src/openapi/openapi.js');
    const { loadScenarioObject } = await import('../../../src/scenarios/load-scenario.js');
    const spec = await loadSpec();
    expect(sectionOf(loadScenarioObject(scenario, spec))).toEqual([
      { id: 'lmp_porch', lights: expect.any(Number) as number },
    ]);
    expect(() =>
      loadScenarioObject({ name: 'x', lamps: [{ id: 'lmp_a', lights: '1s', colour: 'red' }] }, spec),
    ).toThrow(/lamps\[0\].*colour/);
  });
});

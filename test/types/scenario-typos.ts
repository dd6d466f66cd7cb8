/**
 * Compiled by `npm run typecheck` (tsconfig.json includes test/), never run: each `@ts-expect-error` below
 * marks a mistake the generated scenario types must refuse. Were a type to accept it (an index signature
 * where the schema is closed, a state that became `string`), the directive would be unused, and tsc fails.
 */
import {
  defineRule,
  defineScenario,
  startSimulator,
  type Scenario,
  type ScenarioRule,
  type SimulatorHandle,
} from '../../src/index.js';

export async function typos(sim: SimulatorHandle): Promise<void> {
  // The issue's own example: a misspelt field at the top and one inside a session.
  // @ts-expect-error `nme` is not a field of a scenario
  await sim.useScenario({ nme: 'x' });
  await sim.useScenario({
    name: 'x',
    // @ts-expect-error `sesions` is not a field of a scenario (did you mean sessions?)
    sesions: [{ id: 'ses_1' }],
  });
  // @ts-expect-error `idd` is not a field of a session
  await sim.useScenario({ name: 'x', sessions: [{ idd: 1 }] });

  defineScenario({
    name: 'checkout-busy',
    // @ts-expect-error `untill` is not a field of a busy window
    sessions: [{ id: 'ses_1', busy: [{ from: '0s', untill: '30s' }] }],
  });
  // @ts-expect-error a shell's state is one of its states, not any word
  defineRule({ when: { operation: 'v2.shell.get', state: { shell: { id: 'sh_1', is: 'runing' } } }, then: {} });
  // @ts-expect-error `then` is required
  defineRule({ when: { operation: 'v2.plugin.list' } });
  // @ts-expect-error `opeartion` is not a field of `when`
  await sim.rules.add({ when: { opeartion: 'v2.plugin.list' }, then: { status: 200 } });
  // @ts-expect-error a scenario given to startSimulator is checked as well
  await startSimulator({ scenario: { name: 'x', forms: [{ id: 'frm_1', sessionID: 'ses_1', moed: 'form' }] } });

  // What is right compiles, and stays as precise as written.
  const rule: ScenarioRule = defineRule({
    when: { operation: 'v2.session.compact', after: '30s' },
    then: { error: { _tag: 'SessionBusyError', sessionID: 'ses_1', message: 'busy' } },
    times: 1,
  });
  const scenario = {
    name: 'typed',
    sessions: [{ id: 'ses_1', busy: [{ from: '0s', until: '30s' }] }],
    rules: [rule],
  } as const satisfies Scenario;
  await sim.useScenario(scenario);
  await sim.rules.add(rule);

  // state() is typed: a scenario's name means its resources are there, with their states.
  const state = await sim.state();
  if (state.scenario !== null) {
    const busy: 'scheduled' | 'busy' | 'idle' | undefined = state.sessions[0]?.state;
    void busy;
  }
  // @ts-expect-error without narrowing, the resources may be absent (no scenario, no world)
  void state.sessions.length;
}

/**
 * `defineScenario()` and `defineRule()`: identity functions whose parameter is the scenario format's type
 * (generated from its JSON Schema), so a scenario or rule written inline in TypeScript is checked where it is
 * written: a misspelt field is an excess property, a misspelt state or enum value is not assignable. At run
 * time they return what they are given; the simulator checks it again when it loads it.
 */
import type { Scenario, ScenarioRule } from '../format/scenario-types.js';

/** A scenario in code: `startSimulator({ scenario: defineScenario({ name: 'x', sessions: [...] }) })`. */
export function defineScenario(scenario: Scenario): Scenario {
  return scenario;
}

/** A rule in code, for `rules.add()` or a scenario's `rules`. */
export function defineRule(rule: ScenarioRule): ScenarioRule {
  return rule;
}

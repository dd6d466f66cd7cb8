import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SCENARIO_SCHEMA_PATH } from '../../src/scenarios/load-scenario.js';
import { RESOURCE_STATES, STATEFUL_KINDS } from '../../src/state/resource-states.js';

interface StateCondition {
  properties: { is: { enum: string[] } };
}

const schema = JSON.parse(readFileSync(SCENARIO_SCHEMA_PATH, 'utf8')) as {
  $defs: { rule: { properties: { when: { properties: { state: { properties: Record<string, StateCondition> } } } } } };
};
const conditions = schema.$defs.rule.properties.when.properties.state.properties;

// The schema is static JSON that editors read; this holds it to the one declaration the code uses.
describe('resource states in the scenario format', () => {
  it('has a state condition for every stateful kind, and no other', () => {
    expect(Object.keys(conditions).sort()).toEqual([...STATEFUL_KINDS].sort());
  });

  it.each(STATEFUL_KINDS)('lets a %s condition name exactly the states the kind has', (kind) => {
    const allowed = conditions[kind]?.properties.is.enum ?? [];
    expect(new Set(allowed).size).toBe(allowed.length);
    expect([...allowed].sort()).toEqual([...RESOURCE_STATES[kind]].sort());
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../../src/kinds/registry.js';
import { SCENARIO_SCHEMA_PATH, scenarioSchema } from '../../../src/scenarios/format.js';
import { operations as specOperations } from '../../support/spec-validator.js';

interface StateCondition {
  properties: { is: { enum: string[] } };
}
type Schema = {
  properties: Record<string, unknown>;
  $defs: { rule: { properties: { when: { properties: { state: { properties: Record<string, StateCondition> } } } } } };
};

const written = JSON.parse(readFileSync(SCENARIO_SCHEMA_PATH, 'utf8')) as Schema;

describe('the registry of kinds', () => {
  it('makes the scenario format editors read (npm run schema writes it)', () => {
    expect(written).toEqual(scenarioSchema(KINDS.list));
  });

  it('gives every stateful kind a state condition naming exactly its states, and no other kind one', () => {
    const conditions = written.$defs.rule.properties.when.properties.state.properties;
    expect(Object.keys(conditions)).toEqual(KINDS.stateful.map((k) => k.name));
    for (const kind of KINDS.stateful) {
      expect(conditions[kind.name]?.properties.is.enum, kind.name).toEqual([...kind.states]);
    }
  });

  it('lets each stateful kind move only between its own states', () => {
    for (const kind of KINDS.stateful) {
      for (const [from, to] of kind.transitions ?? []) {
        expect(kind.states, `${kind.name} ${from} → ${to}`).toContain(from);
        expect(kind.states, `${kind.name} ${from} → ${to}`).toContain(to);
      }
    }
  });

  it('has one kind per operation, event type and section, each operation one of the spec', () => {
    const operations = new Set(specOperations.map((o) => o.operationId));
    const owners = (pick: (kind: (typeof KINDS.list)[number]) => object | undefined) => {
      const seen = new Map<string, string>();
      for (const kind of KINDS.list) {
        for (const key of Object.keys(pick(kind) ?? {})) {
          expect(seen.get(key), `${key}: ${kind.name} and ${seen.get(key)}`).toBeUndefined();
          seen.set(key, kind.name);
        }
      }
      return seen;
    };
    for (const operationId of owners((k) => k.handlers).keys()) expect(operations).toContain(operationId);
    owners((k) => k.appliers);
    owners((k) => k.format?.properties);
    expect(new Set(KINDS.list.map((k) => k.name)).size).toBe(KINDS.list.length);
  });
});

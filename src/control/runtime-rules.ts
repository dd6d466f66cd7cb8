/**
 * Adding and listing a partition's rules through the control API and the handle. A posted rule is checked
 * exactly as a scenario's rule is (operation or method and path, declared status and `_tag`, body against the
 * spec unless it says outsideSpec, states of
 * resources the scenario has); a refusal lists every problem with what is allowed.
 */
import { SimRuleError } from '../errors/errors.js';
import { ScenarioError, type RuleDefinition } from '../scenarios/definition.js';
import { readRuntimeRule } from '../scenarios/read-rule.js';
import type { SpecIndex } from '../openapi/openapi.js';
import type { Partition } from './partitions.js';
import type { RuleListing } from '../state/rule-store.js';

export function addRuntimeRule(partition: Partition, spec: SpecIndex, raw: unknown): RuleListing {
  const id = partition.rules.nextId();
  let definition;
  try {
    definition = readRuntimeRule(raw, spec, partition.engine.scenario, { id, start: partition.engine.clock.now() });
  } catch (error) {
    if (error instanceof ScenarioError)
      throw new SimRuleError(error.problems.map((p) => (p.path ? `${p.path}: ${p.message}` : p.message)));
    throw error;
  }
  const rule = partition.rules.add(definition, raw);
  partition.engine.note('rule.added', definition.where);
  return {
    id: rule.id,
    where: definition.where,
    ...target(definition),
    fired: 0,
    times: definition.times ?? null,
    rule: raw,
  };
}

/** Run-time rules first: that is the order they answer in. */
export function listRules(partition: Partition): RuleListing[] {
  const runtime = partition.rules.list().map((r) => ({
    id: r.id,
    where: r.definition.where,
    ...target(r.definition),
    fired: r.fired,
    times: r.definition.times ?? null,
    rule: r.source,
  }));
  const scripted = (partition.engine.scenario?.rules ?? []).map((r, i) => ({
    where: r.where,
    ...target(r),
    fired: partition.rules.scenarioUses[i] ?? 0,
    times: r.times ?? null,
  }));
  return [...runtime, ...scripted];
}

/** What a rule matches, as listed: only the fields it has. */
function target(
  rule: RuleDefinition,
): Pick<RuleListing, 'operation' | 'method' | 'path' | 'pathPattern' | 'outsideSpec'> {
  const { operation, method, path, pathPattern, outsideSpec } = rule;
  return Object.fromEntries(
    Object.entries({ operation, method, path, pathPattern, outsideSpec }).filter(([, v]) => v !== undefined),
  );
}

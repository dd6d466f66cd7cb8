/**
 * A partition's rules beyond the scenario's own: added at run time (`POST /__sim/rules`, the handle's
 * `rules.add`), in the scenario format's shape, answering before the scenario's rules. Also counts how often
 * each scenario rule has answered, for `times`. Capped, so a runaway test cannot grow memory without bound.
 */
import { SimRuleLimitError, SimRuleNotFoundError } from '../errors/errors.js';
import type { RuleDefinition } from './scenario.js';

export interface RuntimeRule {
  readonly id: string;
  readonly definition: RuleDefinition;
  /** The rule as it was posted, for listing it back. */
  readonly source: unknown;
  fired: number;
}

/** A rule as the control API lists it (both kinds, in the order they answer). */
export interface RuleListing {
  /** `rul_…` for a run-time rule; absent for the scenario's own. */
  id?: string;
  where: string;
  /** What it matches: an operation, or a method (absent: any) and a path template or pattern. */
  operation?: string;
  method?: string;
  path?: string;
  pathPattern?: string;
  /** It may leave the spec (`outsideSpec: true`). */
  outsideSpec?: true;
  fired: number;
  times: number | null;
  /** A run-time rule as it was added. */
  rule?: unknown;
}

export interface RuleStore {
  /** The id the next rule will get (rules name their place as `runtime rule <id>`). */
  nextId(): string;
  add(definition: RuleDefinition, source: unknown): RuntimeRule;
  list(): RuntimeRule[];
  /** How many there are: asking costs nothing, unlike `list()`, so a request meeting none pays no more. */
  readonly size: number;
  remove(id: string): RuntimeRule;
  /** Removes every run-time rule (ids keep counting, so a later rule is never mistaken for a removed one). */
  clear(): void;
  /** As the partition starts afresh: no run-time rules, ids from rul_1 again, scenario rules unused. */
  reset(): void;
  /** How often each scenario rule (by index) has answered. */
  scenarioUses: number[];
}

export const DEFAULT_MAX_RULES = 1000;

export function createRuleStore(max = DEFAULT_MAX_RULES): RuleStore {
  const rules = new Map<string, RuntimeRule>();
  let counter = 0;
  const store: RuleStore = {
    nextId: () => `rul_${counter + 1}`,
    add(definition, source) {
      if (rules.size >= max) throw new SimRuleLimitError(max);
      const rule: RuntimeRule = { id: `rul_${++counter}`, definition, source, fired: 0 };
      rules.set(rule.id, rule);
      return rule;
    },
    list: () => [...rules.values()],
    get size() {
      return rules.size;
    },
    remove(id) {
      const rule = rules.get(id);
      if (!rule) throw new SimRuleNotFoundError(id, [...rules.keys()]);
      rules.delete(id);
      return rule;
    },
    clear() {
      rules.clear();
    },
    reset() {
      rules.clear();
      counter = 0;
      store.scenarioUses = [];
    },
    scenarioUses: [],
  };
  return store;
}

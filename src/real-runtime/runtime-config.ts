/**
 * The configuration a real runtime runs with (`OPENCODE_CONFIG_CONTENT`): the scripted model as its only
 * model, the web tools denied, and the scenario's agents' permission rules, so that a tool whose rule says
 * `ask` asks mid-turn as it does for a real user.
 */
import type { ScenarioDefinition } from '../scenarios/definition.js';

type Effect = 'allow' | 'deny' | 'ask';
type Rules = Record<string, Record<string, Effect>>;

/** Rules in the runtime's config form: by action, then resource; the runtime appends them in this order. */
export function ruleObject(rules: ReadonlyArray<{ action: string; resource: string; effect: Effect }>): Rules {
  const out: Rules = {};
  for (const rule of rules) {
    const byResource = (out[rule.action] ??= {});
    // A later rule for the same resource wins, as the last matching rule does: it moves to the end.
    delete byResource[rule.resource];
    byResource[rule.resource] = rule.effect;
  }
  return out;
}

const isRule = (value: unknown): value is { action: string; resource: string; effect: Effect } =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { action?: unknown }).action === 'string' &&
  typeof (value as { resource?: unknown }).resource === 'string' &&
  ['allow', 'deny', 'ask'].includes((value as { effect?: unknown }).effect as string);

export function runtimeConfig(
  modelConfig: Record<string, unknown>,
  scenario: Pick<ScenarioDefinition, 'agents'>,
): Record<string, unknown> {
  const agent: Record<string, { permission: Rules }> = {};
  for (const record of scenario.agents ?? []) {
    const rules = Array.isArray(record.permissions) ? record.permissions.filter(isRule) : [];
    if (rules.length) agent[record.id] = { permission: ruleObject(rules) };
  }
  return {
    ...modelConfig,
    // Both reach the network; nothing else a turn does has to.
    permission: { webfetch: 'deny', websearch: 'deny' },
    ...(Object.keys(agent).length ? { agent } : {}),
    share: 'disabled',
    autoupdate: false,
  };
}

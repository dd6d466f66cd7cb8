/**
 * The configuration a real runtime runs with (its user config, in the throwaway HOME): the scripted model as
 * its model, the web tools denied, the scenario's saved permissions allowed, and its agents' permission rules,
 * so that a tool whose rule says `ask` asks mid-turn as it does for a real user.
 */
import { toolPermission } from '../kinds/session/tool-results.js';
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

/** A rule that asks for each tool call a script marks `ask`: the real runtime asks for that call as the simulator does. */
function scriptedAsks(
  sessions: ScenarioDefinition['sessions'] | undefined,
): Array<{ action: string; resource: string; effect: Effect }> {
  return (sessions ?? []).flatMap((session) =>
    session.turns.flatMap((turn) =>
      turn.steps.flatMap((step) =>
        step.kind === 'tool' && step.ask ? [{ ...toolPermission(step.tool, step.input), effect: 'ask' as const }] : [],
      ),
    ),
  );
}

export function runtimeConfig(
  modelConfig: Record<string, unknown>,
  scenario: Pick<ScenarioDefinition, 'agents'> & {
    permissions?: Pick<ScenarioDefinition['permissions'], 'saved'>;
    sessions?: ScenarioDefinition['sessions'];
  },
): Record<string, unknown> {
  const asks = scriptedAsks(scenario.sessions);
  const agent: Record<string, { permission: Rules }> = {};
  for (const record of scenario.agents ?? []) {
    const rules = Array.isArray(record.permissions) ? record.permissions.filter(isRule) : [];
    // Its own rules would outvote the scripted asks: they come last, and win.
    if (rules.length) agent[record.id] = { permission: ruleObject([...rules, ...asks]) };
  }
  return {
    ...modelConfig,
    // The web tools reach the network; nothing else a turn does has to. What the scenario saved as always
    // allowed is allowed from the start, as a saved approval is on the real runtime.
    permission: {
      ...ruleObject([...(scenario.permissions?.saved ?? []).map((p) => ({ ...p, effect: 'allow' as const })), ...asks]),
      webfetch: 'deny',
      websearch: 'deny',
    },
    ...(Object.keys(agent).length ? { agent } : {}),
    share: 'disabled',
    autoupdate: false,
  };
}

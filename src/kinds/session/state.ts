/** A session's state as its definition leaves it: busy windows, and the agent and model it starts with. */
import type { ScenarioDefinition } from '../../state/scenario.js';
import type { ModelRef, SessionDefinition, SessionState } from './types.js';

/** Whether one of the scenario's busy windows holds at `now`. */
export function inBusyWindow(definition: SessionDefinition, now: number): boolean {
  return definition.busy.some((w) => now >= w.from && (w.until === undefined || now < w.until));
}

/** Whether a session is busy at `now`: a turn plays, or one of the scenario's busy windows holds. */
export function busyAt(session: SessionState, now: number): boolean {
  return session.turn !== undefined || inBusyWindow(session.definition, now);
}

const DEFAULT_AGENT = 'build';
const DEFAULT_MODEL: ModelRef = { id: 'claude-sonnet-4-5', providerID: 'anthropic' };

/** The agent and model a session's history leaves it with: its last switches, else the scenario's defaults. */
export function initialChoice(
  definition: SessionDefinition,
  scenario: ScenarioDefinition,
): { agent: string; model: ModelRef } {
  const fallback = scenario.model as Partial<ModelRef> | undefined;
  let agent = DEFAULT_AGENT;
  let model: ModelRef =
    typeof fallback?.id === 'string' && typeof fallback.providerID === 'string'
      ? { id: fallback.id, providerID: fallback.providerID }
      : DEFAULT_MODEL;
  for (const m of definition.messages) {
    if (m.type === 'agent-switched' && typeof m.agent === 'string') agent = m.agent;
    if (m.type === 'model-switched' && m.model) model = { ...(m.model as ModelRef) };
  }
  // A session a client created runs with what it was created with.
  return { agent: definition.agent ?? agent, model: definition.model ? { ...definition.model } : model };
}

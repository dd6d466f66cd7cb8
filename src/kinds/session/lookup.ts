/** Finding a session a request names: one that exists now (one the scenario creates later is unknown until then). */
import { SessionNotFoundError } from './errors.js';
import type { ScenarioDefinition } from '../../state/scenario.js';
import type { World } from '../../state/world.js';
import { busyAt, initialChoice } from './state.js';
import type { SessionDefinition, SessionState } from './types.js';

export function existing(world: World, id: string | undefined): SessionState | undefined {
  const found = world.sessions.get(id ?? '');
  return found?.status === 'scheduled' ? undefined : found;
}

export function sessionOrThrow(world: World, id: string | undefined): SessionState {
  const found = existing(world, id);
  if (!found) throw new SessionNotFoundError(id ?? '');
  return found;
}

/** A session's state as its definition starts it at `now`: the scenario's at its start, a client's when created. */
export function newSessionState(
  definition: SessionDefinition,
  scenario: ScenarioDefinition,
  now: number,
): SessionState {
  const state: SessionState = {
    definition,
    status: 'idle',
    messages: [...definition.messages],
    inputs: new Map(),
    inputSeq: 0,
    ...initialChoice(definition, scenario),
    queue: [],
    turnsStarted: 0,
  };
  state.status = definition.appears > now ? 'scheduled' : busyAt(state, now) ? 'busy' : 'idle';
  return state;
}

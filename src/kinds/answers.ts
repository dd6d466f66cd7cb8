/**
 * What the kinds' handlers and appliers have in common: a location-scoped answer, a decision with its
 * events, a state change said as a transition, and the duplicates a scenario section must not have.
 */
import { jsonAnswer, type Answer } from '../exchange/exchange.js';
import { resolveLocation } from '../openapi/location.js';
import type { EventDraft, Transition } from '../state/events.js';
import type { ResourceState, StatefulKind } from '../state/resource-states.js';
import type { Decision, HandlerContext, HandlerRequest, Path, ReadContext } from './kind.js';

/** A location-scoped success: `{location, data}` with the location the client asked for. */
export function locationAnswer(request: HandlerRequest, context: HandlerContext, data: unknown): Answer {
  return jsonAnswer(200, { location: resolveLocation(context.project, request.query.location), data });
}

export function answered(answer: Answer, ...events: EventDraft[]): Decision {
  return events.length ? { answer, events } : { answer };
}

export const NO_CONTENT: Answer = { kind: 'empty', status: 204 };

/**
 * Moves a resource to a new state (with whatever else changes with it) and says so as a transition; nothing
 * for a resource the world does not have, or a "change" to the state it is already in.
 */
export function changeState<K extends StatefulKind>(
  kind: K,
  id: string,
  resource: { status: ResourceState<K> } | undefined,
  to: ResourceState<K>,
  alongside: Record<string, unknown> = {},
): Transition | undefined {
  if (!resource) return undefined;
  const from = resource.status;
  Object.assign(resource, alongside, { status: to });
  return from === to ? undefined : { kind, id, from, to };
}

/** Reports each id declared a second time in a section (`shells[3].id`), as `<noun> <id> is declared twice`. */
export function reportDuplicates(ids: readonly string[], section: string, noun: string, context: ReadContext): void {
  const seen = new Set<string>();
  ids.forEach((id, index) => {
    if (seen.has(id)) context.problem([section, index, 'id'] as Path, `${noun} ${id} is declared twice`);
    seen.add(id);
  });
}

/** The items of a scenario's section, or none when the scenario leaves it out. */
export function itemsOf(source: Record<string, unknown>, section: string): Array<Record<string, unknown>> {
  return (source[section] as Array<Record<string, unknown>> | undefined) ?? [];
}

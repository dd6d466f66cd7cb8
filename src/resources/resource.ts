/**
 * What a resource module gives the partition: handlers that decide answers (and the events they cause) by
 * operationId, appliers that change the world for each event type (the only writers of world state), and
 * timelines that say when a resource next changes by itself and what happens then.
 */
import type { AcceptedRequest } from '../exchange/layer.js';
import { jsonAnswer, type Answer } from '../exchange/exchange.js';
import { resolveLocation, type ProjectContext } from '../openapi/location.js';
import type { DomainEvent, EventDraft, EventType, Transition } from '../state/events.js';
import type { ResourceState, StatefulKind } from '../state/resource-states.js';
import type { World } from '../state/world.js';

export interface HandlerContext {
  world: World;
  now: number;
  project: ProjectContext;
}

/** A handler's answer and what it makes happen; nothing changes until the partition commits the events. */
export interface Decision {
  answer: Answer;
  events?: EventDraft[];
}

/** Decides, or returns undefined to let the next layer (the schema-driven fallback) answer. */
export type Handler = (request: AcceptedRequest, context: HandlerContext) => Decision | undefined;

export type Handlers = Record<string, Handler>;

/** Applies one event to the world; returns the resource state change it made, if it made one. */
export type Applier<T extends EventType = EventType> = (
  world: World,
  event: Extract<DomainEvent, { type: T }>,
) => Transition | undefined | void;

export type Appliers = { [T in EventType]?: Applier<T> };

/** When a resource of one kind changes by itself on the clock, and what happens then. */
export interface Timeline {
  /** Names the timers (`kind:id`); PTYs have a timeline but no states that rules or coverage speak of. */
  kind: StatefulKind | 'pty';
  ids(world: World): Iterable<string>;
  /** The next instant (after `now`) at which `fire` would change this resource; undefined if none. */
  next(world: World, id: string, now: number): number | undefined;
  fire(world: World, id: string, now: number): EventDraft[];
}

export interface ResourceModule {
  handlers: Handlers;
  appliers?: Appliers;
  timeline?: Timeline;
}

/** A location-scoped success: `{location, data}` with the location the client asked for. */
export function locationAnswer(request: AcceptedRequest, context: HandlerContext, data: unknown): Answer {
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

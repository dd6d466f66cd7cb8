/**
 * Domain events: every change of a partition's world is one of these, at a virtual instant, with its cause.
 * Their `type` is the event the real server would publish where it has one (`@opencode-ai/sdk` `V2Event`,
 * or the real-server notes), so the event stream is a filter of the log rather than a second model. Types
 * marked `sim` have no published counterpart: they carry what the world needs to change (a credential's id,
 * an attempt's outcome) and stay internal unless a later decision publishes them. Each kind declares its
 * own events in its folder (src/kinds/<kind>/types.ts), adding them to `EventCatalog`.
 */
import type { ResourceState, StatefulKind } from './resource-states.js';

type JsonObject = Record<string, unknown>;

/** Every domain event type with its data; filled by the kinds (declaration merging). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by each kind
export interface EventCatalog {}

export type EventType = keyof EventCatalog;

/** What a decision (a handler, a timer) says happened; the partition stamps it when it commits. */
export type EventDraft = { [T in EventType]: { type: T; data: EventCatalog[T]; metadata?: JsonObject } }[EventType];

/**
 * Which request, which timer, or which WebSocket made it happen: `socket` names the request that opened the
 * connection a message came on (that exchange is journaled already; what its connection does comes after).
 */
export type EventCause = { request: string } | { timer: string } | { socket: string };

/** A resource's state change that an event made, when it made one (coverage and the journal read it). */
export interface Transition {
  kind: StatefulKind;
  id: string;
  from: ResourceState<StatefulKind>;
  to: ResourceState<StatefulKind>;
}

export type DomainEvent = EventDraft & {
  kind: 'event';
  /** Position in the partition's log. */
  seq: number;
  /** `evt_…`, ascending like the real server's. */
  id: string;
  /** Virtual time it happened. */
  time: number;
  cause: EventCause;
  transition?: Transition;
};

export function draft<T extends EventType>(type: T, data: EventCatalog[T], metadata?: JsonObject): EventDraft {
  return (metadata ? { type, data, metadata } : { type, data }) as EventDraft;
}

/** One line for a journal or an inspector: `form.replied frm_… (pending → answered)`. */
export function describeEvent(event: DomainEvent): string {
  const data = event.data as JsonObject;
  const subject = [data.id, data.sessionID, data.attemptID, data.integrationID, data.credentialID, data.directory].find(
    (v) => typeof v === 'string',
  );
  const change = event.transition ? ` (${event.transition.from} → ${event.transition.to})` : '';
  return `${event.type}${subject ? ` ${String(subject)}` : ''}${change}`;
}

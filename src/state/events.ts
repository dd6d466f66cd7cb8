/**
 * Domain events: every change of a partition's world is one of these, at a virtual instant, with its cause.
 * Their `type` is the event the real server would publish where it has one (`@opencode-ai/sdk` `V2Event`,
 * or the real-server notes), so the event stream is a filter of the log rather than a second model. Types
 * marked `sim` have no published counterpart: they carry what the world needs to change (a credential's id,
 * an attempt's outcome) and stay internal unless a later decision publishes them.
 */
import type { ResourceState, StatefulKind } from './resource-states.js';

type Json = Record<string, unknown>;

export interface EventCatalog {
  'session.status': { sessionID: string; status: { type: 'busy' | 'idle' } };
  'session.next.agent.switched': { timestamp: number; sessionID: string; messageID: string; agent: string };
  'session.next.model.switched': { timestamp: number; sessionID: string; messageID: string; model: { id: string; providerID: string; variant?: string } };
  'session.next.synthetic': { timestamp: number; sessionID: string; messageID: string; text: string };
  /** sim: a compaction request durably admitted with its sequence number. */
  'session.next.compaction.admitted': { timestamp: number; sessionID: string; messageID: string; admittedSeq: number };
  'session.next.revert.staged': { timestamp: number; sessionID: string; revert: { messageID: string; snapshot: string; files: unknown[] } };
  'permission.v2.asked': { id: string; sessionID: string; action: string; resources: string[]; save?: string[]; metadata?: Json; source?: Json };
  'question.v2.replied': { sessionID: string; requestID: string; answers: string[][] };
  /** sim: the real server announces the removal to the model, not on the stream. */
  'session.instructions.entry.removed': { sessionID: string; key: string };
  'form.created': { form: Json & { id: string; sessionID: string } };
  'form.replied': { id: string; sessionID: string; answer: Json };
  'form.cancelled': { id: string; sessionID: string };
  'shell.exited': { id: string; status: 'exited' | 'timeout'; exit?: number };
  /** sim: a running shell's timeout replaced (0 clears it), counted from the event's time. */
  'shell.timeout.updated': { id: string; timeout: number };
  'pty.created': { info: Json & { id: string } };
  /** sim: what `integration.connection.updated` announces: the credential now connected. */
  'integration.credential.connected': { integrationID: string; credential: { type: 'credential'; id: string; label: string } };
  'integration.connection.updated': { integrationID: string };
  'integration.updated': Json;
  /** sim: a credential's label changed (the real server announces only `integration.updated`). */
  'credential.relabelled': { credentialID: string; label: string };
  /** sim: an OAuth attempt was polled (poll-scripted attempts settle on the Nth). */
  'integration.attempt.polled': { attemptID: string; polls: number };
  /** sim: an OAuth attempt left pending. */
  'integration.attempt.settled': { attemptID: string; integrationID: string; status: 'complete' | 'failed' | 'expired'; message?: string };
  /** sim: a project copy handed out this directory (later copies get -2, -3…). */
  'project.copy.created': { projectID: string; directory: string };
  'project.directories.updated': { projectID: string };
}

export type EventType = keyof EventCatalog;

/** What a decision (a handler, a timer) says happened; the partition stamps it when it commits. */
export type EventDraft = { [T in EventType]: { type: T; data: EventCatalog[T]; metadata?: Json } }[EventType];

/** Which request, or which timer, made it happen. */
export type EventCause = { request: string } | { timer: string };

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

export function draft<T extends EventType>(type: T, data: EventCatalog[T], metadata?: Json): EventDraft {
  return (metadata ? { type, data, metadata } : { type, data }) as EventDraft;
}

/** One line for a journal or an inspector: `form.replied frm_… (pending → answered)`. */
export function describeEvent(event: DomainEvent): string {
  const data = event.data as Json;
  const subject = [data.id, data.sessionID, data.attemptID, data.integrationID, data.credentialID, data.directory].find((v) => typeof v === 'string');
  const change = event.transition ? ` (${event.transition.from} → ${event.transition.to})` : '';
  return `${event.type}${subject ? ` ${String(subject)}` : ''}${change}`;
}

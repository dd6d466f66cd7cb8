/**
 * Domain events: every change of a partition's world is one of these, at a virtual instant, with its cause.
 * Their `type` is the event the real server would publish where it has one (`@opencode-ai/sdk` `V2Event`,
 * or the real-server notes), so the event stream is a filter of the log rather than a second model. Types
 * marked `sim` have no published counterpart: they carry what the world needs to change (a credential's id,
 * an attempt's outcome) and stay internal unless a later decision publishes them.
 */
import type { ResourceState, StatefulKind } from './resource-states.js';
import type { ModelRef, TurnPlan } from './world.js';

type Json = Record<string, unknown>;

// The client's types that turn events carry (`Prompt`, `SessionErrorUnknown`, `LlmToolContent`, …).
type Prompt = {
  text: string;
  files?: Array<{ uri: string; mime: string; name?: string; description?: string; source?: PromptSource }>;
  agents?: Array<{ name: string; source?: PromptSource }>;
};
type PromptSource = { start: number; end: number; text: string };
type ProviderMetadata = Record<string, Json>;
type ToolProvider = { executed: boolean; metadata?: ProviderMetadata };
type ToolContent = { type: 'text'; text: string } | { type: 'file'; uri: string; mime: string; name?: string };
type ErrorUnknown = { type: 'unknown'; message: string };
type RetryError = {
  message: string;
  statusCode?: number;
  isRetryable: boolean;
  responseHeaders?: Record<string, string>;
  responseBody?: string;
  metadata?: Record<string, string>;
};
type StepData = { timestamp: number; sessionID: string; assistantMessageID: string };

export interface EventCatalog {
  /** A scenario session is created (its `appears` time); published with its record. */
  'session.created': { sessionID: string };
  'session.status': { sessionID: string; status: { type: 'busy' | 'idle' } };
  'session.next.agent.switched': { timestamp: number; sessionID: string; messageID: string; agent: string };
  'session.next.model.switched': {
    timestamp: number;
    sessionID: string;
    messageID: string;
    model: { id: string; providerID: string; variant?: string };
  };
  'session.next.synthetic': { timestamp: number; sessionID: string; messageID: string; text: string };
  // A turn (src/resources/turns.ts), each `data` exactly the client's (test/unit/turns.test.ts holds them to it).
  'session.next.prompt.admitted': {
    timestamp: number;
    sessionID: string;
    messageID: string;
    prompt: Prompt;
    delivery: 'steer' | 'queue';
  };
  'session.next.step.started': StepData & { agent: string; model: ModelRef; snapshot?: string };
  'session.next.step.ended': StepData & {
    finish: string;
    cost: number;
    tokens: { input: number; output: number; reasoning: number; cache: { read: number; write: number } };
    snapshot?: string;
    files?: string[];
  };
  'session.next.step.failed': StepData & { error: ErrorUnknown };
  'session.next.text.started': StepData & { textID: string };
  'session.next.text.delta': StepData & { textID: string; delta: string };
  'session.next.text.ended': StepData & { textID: string; text: string };
  'session.next.reasoning.started': StepData & { reasoningID: string; providerMetadata?: ProviderMetadata };
  'session.next.reasoning.delta': StepData & { reasoningID: string; delta: string };
  'session.next.reasoning.ended': StepData & { reasoningID: string; text: string; providerMetadata?: ProviderMetadata };
  'session.next.tool.input.started': StepData & { callID: string; name: string };
  'session.next.tool.input.delta': StepData & { callID: string; delta: string };
  'session.next.tool.input.ended': StepData & { callID: string; text: string };
  'session.next.tool.called': StepData & { callID: string; tool: string; input: Json; provider: ToolProvider };
  'session.next.tool.success': StepData & {
    callID: string;
    structured: Json;
    content: ToolContent[];
    outputPaths?: string[];
    result?: unknown;
    provider: ToolProvider;
  };
  'session.next.tool.failed': StepData & {
    callID: string;
    error: ErrorUnknown;
    result?: unknown;
    provider: ToolProvider;
  };
  'session.next.retried': { timestamp: number; sessionID: string; attempt: number; error: RetryError };
  /** sim: a turn starts to play, with everything it will do (its events follow from this plan alone). */
  'session.turn.started': TurnPlan;
  /** sim: a compaction request durably admitted with its sequence number. */
  'session.next.compaction.admitted': { timestamp: number; sessionID: string; messageID: string; admittedSeq: number };
  'session.next.revert.staged': {
    timestamp: number;
    sessionID: string;
    revert: { messageID: string; snapshot: string; files: unknown[] };
  };
  'permission.v2.asked': {
    id: string;
    sessionID: string;
    action: string;
    resources: string[];
    save?: string[];
    metadata?: Json;
    source?: Json;
  };
  'question.v2.replied': { sessionID: string; requestID: string; answers: string[][] };
  /** sim: the real server announces the removal to the model, not on the stream. */
  'session.instructions.entry.removed': { sessionID: string; key: string };
  'form.created': { form: Json & { id: string; sessionID: string } };
  'form.replied': { id: string; sessionID: string; answer: Json };
  'form.cancelled': { id: string; sessionID: string };
  /** A scenario command starts; published with the command's record (`shell.created {info}`). */
  'shell.created': { id: string };
  'shell.exited': { id: string; status: 'exited' | 'timeout'; exit?: number };
  /** sim: a running shell's timeout replaced (0 clears it), counted from the event's time. */
  'shell.timeout.updated': { id: string; timeout: number };
  'pty.created': { info: Json & { id: string } };
  'pty.exited': { id: string; exitCode: number };
  /** sim: what `integration.connection.updated` announces: the credential now connected. */
  'integration.credential.connected': {
    integrationID: string;
    credential: { type: 'credential'; id: string; label: string };
  };
  'integration.connection.updated': { integrationID: string };
  'integration.updated': Json;
  /** sim: a credential's label changed (the real server announces only `integration.updated`). */
  'credential.relabelled': { credentialID: string; label: string };
  /** sim: an OAuth attempt was polled (poll-scripted attempts settle on the Nth). */
  'integration.attempt.polled': { attemptID: string; polls: number };
  /** sim: an OAuth attempt left pending. */
  'integration.attempt.settled': {
    attemptID: string;
    integrationID: string;
    status: 'complete' | 'failed' | 'expired';
    message?: string;
  };
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
  const subject = [data.id, data.sessionID, data.attemptID, data.integrationID, data.credentialID, data.directory].find(
    (v) => typeof v === 'string',
  );
  const change = event.transition ? ` (${event.transition.from} → ${event.transition.to})` : '';
  return `${event.type}${subject ? ` ${String(subject)}` : ''}${change}`;
}

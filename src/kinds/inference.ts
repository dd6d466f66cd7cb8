/**
 * What a kind's scenario-from inference works with: the parts of an inferred scenario, each with the interactions
 * (and events) it came from, and the helpers that read a recorded answer and write its time. Here rather than
 * in src/derive/ so the kinds can use them without loading derive, which loads the registry of kinds.
 */
import type { OperationDefinition } from '../openapi/openapi.js';
import type { Interaction } from '../recordings/format.js';

export type JsonObject = Record<string, unknown>;

/** One interaction of a recording as src/derive/timeline.ts reads it. */
export interface Step {
  seq: number;
  /** Milliseconds from the recording's first interaction to this one's start. */
  at: number;
  durationMs: number;
  method: string;
  path: string;
  /** The spec's operation, when the request is one. */
  operation?: OperationDefinition;
  params: Record<string, string>;
  query: Record<string, string | string[]>;
  body: unknown;
  status: number;
  /** The answer's JSON body (a stream's is undefined). */
  answer: unknown;
  /** How the recorded answer departs from the spec; [] when it is as declared. */
  answerProblems: string[];
  stream: boolean;
  interaction: Interaction;
}

export interface TimedEvent {
  /** Milliseconds from the recording's first interaction. */
  at: number;
  type: string;
  data: Record<string, unknown>;
  /** The stream interaction it came on. */
  seq: number;
}

export interface Timeline {
  /** Wall-clock ms of the first interaction's start: offset 0. */
  origin: number;
  steps: Step[];
  events: TimedEvent[];
}

export interface Part {
  value: unknown;
  /** The interactions it was read from. */
  from: Step[];
  /** Events that placed it in time. */
  events?: TimedEvent[];
  /** What else a reader should know (how a lifecycle was read). */
  note?: string;
  /**
   * The section's one part, its value the whole section (a list of names, a record), not one item of a list:
   * the scenario takes the value as it is, and its provenance is said once, on the section.
   */
  whole?: boolean;
}

/**
 * A scenario being inferred, section by section: `project` (the scenario's own), then each kind's sections
 * in the registry's order, then `rules`; each holds parts (one per item, or one `whole` part).
 */
export type Inference = { project: Part[]; rules: Part[]; [section: string]: Part[] };

/** What a kind's inference reads: the sections inferred so far (`project` first, then the kinds before it). */
export type InferenceSoFar = { readonly project: readonly Part[]; readonly [section: string]: readonly Part[] };

/** What a kind's inference adds: parts by section, appended to the inference's (its own, or a kind's before it). */
export type Inferred = { [section: string]: Part[] };

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The answer's `data` when it is the API's envelope. */
export function dataOf(step: Step): unknown {
  return isObject(step.answer) ? step.answer.data : undefined;
}

export function tagOf(step: Step): string | undefined {
  return isObject(step.answer) && typeof step.answer._tag === 'string' ? step.answer._tag : undefined;
}

/** A recorded answer the spec declares (status and body): safe to read the world from. */
export function trusted(step: Step): boolean {
  return step.operation !== undefined && step.answerProblems.length === 0 && !step.stream;
}

/** The first trusted 200 answer of an operation: the world as it stood before the recording changed it. */
export function firstAnswer(timeline: Timeline, operationId: string): Step | undefined {
  return timeline.steps.find((s) => s.operation?.operationId === operationId && trusted(s) && s.status === 200);
}

/** `1m3s425ms`: a duration the scenario format reads, exact to the millisecond. */
export function formatDuration(ms: number): string {
  let rest = Math.max(0, Math.round(ms));
  if (rest === 0) return '0s';
  let out = '';
  for (const [unit, size] of [
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
    ['ms', 1],
  ] as const) {
    const n = Math.floor(rest / size);
    if (n) out += `${n}${unit}`;
    rest -= n * size;
  }
  return out;
}

/**
 * An instant of the recording as the scenario writes it: a duration from the start when it falls within the
 * recording, its ISO date-time when it came before (a command already running, an attempt already open).
 */
export function instant(wallMs: number, origin: number): string {
  return wallMs >= origin ? formatDuration(wallMs - origin) : new Date(wallMs).toISOString();
}

/** The middle of two offsets, for a change seen between two observations. */
export function between(before: number, after: number): number {
  return Math.floor((before + after) / 2);
}

/**
 * The sessions that parts (a form, a pending request) name but the inference does not declare, each declared for
 * the first part that names it, with `note` saying why it is there.
 */
export function undeclaredSessions(parts: readonly Part[], sessions: readonly Part[], note: string): Part[] {
  const known = new Set(sessions.map((p) => (p.value as JsonObject).id));
  const added: Part[] = [];
  for (const part of parts) {
    const sessionID = (part.value as JsonObject).sessionID as string;
    if (known.has(sessionID)) continue;
    added.push({ value: { id: sessionID }, from: part.from, note });
    known.add(sessionID);
  }
  return added;
}

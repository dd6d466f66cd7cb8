/**
 * What inference produces: the parts of a scenario, each with the interactions (and events) it came from, so
 * the written YAML can say where every part came from. Also the two ways a generated scenario writes time.
 */
import { describeStep, type Step, type TimedEvent } from './timeline.js';

export type Json = Record<string, unknown>;

export interface Part {
  value: unknown;
  /** The interactions it was read from. */
  from: Step[];
  /** Events that placed it in time. */
  events?: TimedEvent[];
  /** What else a reader should know (how a lifecycle was read). */
  note?: string;
}

/** Scenario sections in the order the format documents them; each holds parts (one per item, or one for a list). */
export const SECTIONS = [
  'project',
  'sessions',
  'turns',
  'forms',
  'shells',
  'integrations',
  'attempts',
  'ptys',
  'references',
  'plugins',
  'files',
  'model',
  'projectCopy',
  'rules',
] as const;
export type Section = (typeof SECTIONS)[number];

export type Draft = { [S in Section]: Part[] };

export function emptyDraft(): Draft {
  return Object.fromEntries(SECTIONS.map((s) => [s, []])) as unknown as Draft;
}

/** `from #3 POST /api/session, #5 GET …` (at most a handful, then a count), for a YAML comment. */
export function provenance(part: Part): string {
  const seen = new Set<number>();
  const steps = part.from.filter((s) => !seen.has(s.seq) && seen.add(s.seq)).sort((a, b) => a.seq - b.seq);
  const shown = steps.slice(0, 4).map(describeStep);
  if (steps.length > 4) shown.push(`and ${steps.length - 4} more`);
  const eventTypes = [...new Set((part.events ?? []).map((e) => `${e.type} at ${formatDuration(e.at)}`))].slice(0, 3);
  const sources = [
    shown.length ? `from ${shown.join(', ')}` : '',
    eventTypes.length ? `events: ${eventTypes.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join('; ');
  return [sources, part.note].filter(Boolean).join('\n');
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

export function isObject(value: unknown): value is Json {
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

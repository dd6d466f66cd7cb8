/**
 * Plays a recording's in-spec requests against a scenario, in this process, with the virtual clock stepped to
 * the instant each recorded answer was complete, and says per interaction where the scenario's answer departs from the
 * recorded one. What the scenario cannot be held to is skipped with the reason: requests outside the spec,
 * and recorded answers outside it (a status the operation does not declare, a page of HTML); a recorded body
 * that breaks the spec's schema is held to its status and `_tag` only. Event streams are not interactions to
 * compare one by one: the events they carried are set beside the ones the scenario published, as notes.
 */
import type { Scenario } from '../format/scenario-types.js';
import { startSimulator } from '../hosts/start-simulator.js';
import type { SimulatorHandle } from '../handle/simulator-handle.js';
import {
  compareAnswers,
  createCorrespondence,
  shown,
  translate,
  type Correspondence,
  type Departure,
} from './compare.js';
import { describeStep, eventReader, type Step, type Timeline } from './timeline.js';

export const DEFAULT_TOLERANCE_MS = 1000;

export type Verdict =
  | { seq: number; request: string; operationId: string; kind: 'same'; status: number }
  | { seq: number; request: string; operationId: string; kind: 'departs'; departure: Departure }
  | { seq: number; request: string; operationId?: string; kind: 'skipped'; reason: string };

export interface EventNote {
  /** The stream interaction. */
  seq: number;
  /** Types the recording carried more often than the scenario published them, with how many more. */
  missing: Record<string, number>;
  /** Types the scenario published more often than the recording carried them. */
  extra: Record<string, number>;
}

export interface DiffReport {
  verdicts: Verdict[];
  events: EventNote[];
  departures: number;
}

export interface DiffOptions {
  toleranceMs?: number;
  seed?: string;
}

/** `scenario`: a name, a file, or a scenario object, as `startSimulator` takes it. */
export async function scenarioDiff(
  scenario: string | Record<string, unknown>,
  timeline: Timeline,
  options: DiffOptions = {},
): Promise<DiffReport> {
  // A inference inference built is not typed as the format: the simulator checks it as it loads it.
  const given = scenario as string | Scenario;
  const sim = await startSimulator({ scenario: given, ...(options.seed ? { seed: options.seed } : {}) });
  try {
    return await play(sim, timeline, options.toleranceMs ?? DEFAULT_TOLERANCE_MS);
  } finally {
    await sim.close();
  }
}

async function play(sim: SimulatorHandle, timeline: Timeline, toleranceMs: number): Promise<DiffReport> {
  const ids = createCorrespondence();
  const verdicts: Verdict[] = [];
  const streams: Array<{ step: Step; subscription: Subscription }> = [];
  let elapsed = 0;
  const advanceTo = async (at: number) => {
    if (at > elapsed) await sim.clock.advance(at - elapsed);
    elapsed = Math.max(elapsed, at);
  };
  for (const step of timeline.steps) {
    const request = describeStep(step);
    const skip = skipReason(step);
    if (skip) {
      verdicts.push({
        seq: step.seq,
        request,
        operationId: step.operation?.operationId,
        kind: 'skipped',
        reason: skip,
      });
      continue;
    }
    const operationId = (step.operation as NonNullable<Step['operation']>).operationId;
    // An answer shows the world as it was by the time the answer was complete (a command that timed out
    // while the request was being handled shows as timed out): the clock goes to the interaction's end.
    // A stream is a subscription, from its start.
    await advanceTo(step.stream ? step.at : step.at + step.durationMs);
    if (step.stream) {
      streams.push({ step, subscription: await subscribe(`${sim.url}${step.path}`) });
      verdicts.push({
        seq: step.seq,
        request,
        operationId,
        kind: 'skipped',
        reason: 'an event stream: its events are compared below',
      });
      continue;
    }
    const answer = await send(sim.url, step, ids);
    // A body outside the spec's schema is the real server's drift, not something a scenario can answer.
    const recordedBody = step.answerProblems.length ? pick(step.answer) : step.answer;
    const scenarioBody = step.answerProblems.length ? pick(answer.body) : answer.body;
    const departure = compareAnswers(
      { status: step.status, body: recordedBody },
      { status: answer.status, body: scenarioBody },
      ids,
      { toleranceMs },
    );
    verdicts.push(
      departure
        ? { seq: step.seq, request, operationId, kind: 'departs', departure }
        : { seq: step.seq, request, operationId, kind: 'same', status: answer.status },
    );
  }
  const end = Math.max(elapsed, ...streams.map(({ step }) => step.at + step.durationMs));
  await advanceTo(end);
  const events: EventNote[] = [];
  for (const { step, subscription } of streams) {
    const published = await subscription.close();
    events.push(
      eventNote(
        step.seq,
        timeline.events.filter((e) => e.seq === step.seq).map((e) => e.type),
        published,
      ),
    );
  }
  return { verdicts, events, departures: verdicts.filter((v) => v.kind === 'departs').length };
}

function skipReason(step: Step): string | undefined {
  if (!step.operation) return 'outside the spec: no operation matches the request';
  const status = step.answerProblems.find((p) => p.startsWith('status'));
  if (status) return `the recorded answer is outside the spec: ${status}`;
  if (!step.stream && step.answer !== undefined && typeof step.answer !== 'object')
    return 'the recorded answer is outside the spec: not JSON';
  return undefined;
}

/** What of a body outside the spec is still held to: its `_tag`. */
function pick(body: unknown): unknown {
  const tag = (body as { _tag?: unknown } | undefined)?._tag;
  return tag === undefined ? undefined : { _tag: tag };
}

async function send(base: string, step: Step, ids: Correspondence): Promise<{ status: number; body: unknown }> {
  const url = new URL(translate(step.path, ids), base);
  for (const [name, value] of Object.entries(translate(step.query, ids))) {
    for (const one of Array.isArray(value) ? value : [value]) url.searchParams.append(name, one);
  }
  const body =
    step.body === undefined
      ? undefined
      : typeof step.body === 'string'
        ? step.body
        : JSON.stringify(translate(step.body, ids));
  const res = await fetch(url, {
    method: step.method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body,
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    parsed = text;
  }
  return { status: res.status, body: parsed };
}

interface Subscription {
  /** Stops reading and gives the types of the events that arrived. */
  close(): Promise<string[]>;
}

async function subscribe(url: string): Promise<Subscription> {
  const res = await fetch(url);
  // Stopped by cancelling the reader rather than aborting the fetch: a cancel settles the pending read at once,
  // where an abort may wait for the next chunk when something (nock, a proxy agent) wraps fetch.
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const types: string[] = [];
  const read = eventReader();
  const reading = (async () => {
    const decoder = new TextDecoder();
    try {
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        for (const event of read(decoder.decode(chunk.value, { stream: true }))) types.push(event.type);
      }
    } catch {
      // cancelled: the subscription is over
    }
  })();
  return {
    async close() {
      // The last frames are written as the clock moves; give them a turn of the event loop to arrive.
      await new Promise((resolve) => setTimeout(resolve, 20));
      await reader.cancel().catch(() => {});
      await reading;
      return types;
    },
  };
}

function eventNote(seq: number, recorded: string[], published: string[]): EventNote {
  const count = (types: string[]) =>
    types
      .filter((t) => t !== 'server.connected')
      .reduce((m, t) => m.set(t, (m.get(t) ?? 0) + 1), new Map<string, number>());
  const a = count(recorded);
  const b = count(published);
  const missing: Record<string, number> = {};
  const extra: Record<string, number> = {};
  for (const [type, n] of a) if (n > (b.get(type) ?? 0)) missing[type] = n - (b.get(type) ?? 0);
  for (const [type, n] of b) if (n > (a.get(type) ?? 0)) extra[type] = n - (a.get(type) ?? 0);
  return { seq, missing, extra };
}

export function formatDiff(scenario: string, recording: string, report: DiffReport): string {
  const compared = report.verdicts.filter((v) => v.kind !== 'skipped').length;
  const skipped = report.verdicts.length - compared;
  const lines = [
    `${scenario} against ${recording}: ${report.verdicts.length} interactions, ${compared} compared, ${compared - report.departures} as recorded, ${report.departures} depart${report.departures === 1 ? 's' : ''}, ${skipped} skipped`,
  ];
  for (const v of report.verdicts) {
    if (v.kind === 'departs') {
      const { field, recorded, scenario: actual } = v.departure;
      lines.push(`  DEPARTS  ${v.request}  ${field}: recorded ${shown(recorded)}, scenario ${shown(actual)}`);
    } else if (v.kind === 'skipped') {
      lines.push(`  skipped  ${v.request}  ${v.reason}`);
    }
  }
  for (const note of report.events) {
    const list = (counts: Record<string, number>) =>
      Object.entries(counts)
        .map(([t, n]) => (n > 1 ? `${t} ×${n}` : t))
        .join(', ');
    if (Object.keys(note.missing).length)
      lines.push(`  events of #${note.seq} the scenario did not publish: ${list(note.missing)}`);
    if (Object.keys(note.extra).length)
      lines.push(`  events the scenario published that #${note.seq} did not carry: ${list(note.extra)}`);
  }
  return lines.join('\n');
}

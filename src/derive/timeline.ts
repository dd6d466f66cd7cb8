/**
 * A recording read as a timeline: its interactions in the order they started, each at an offset from the
 * first one, with what the spec says of it; and the events its recorded event streams carried, each at the
 * instant it arrived. Inference and scenario-diff both read recordings through this one view.
 */
import { checkAnswer } from '../openapi/answer-check.js';
import type { SpecIndex } from '../openapi/openapi.js';
import { findOperation } from '../openapi/router.js';
import type { Interaction, ParsedRecording } from '../recordings/format.js';
import type { Step, TimedEvent, Timeline } from '../kinds/inference.js';

// Declared beside the kinds' inference, which reads them without loading derive.
export type { Step, TimedEvent, Timeline };

export function readTimeline(recording: ParsedRecording, spec: SpecIndex): Timeline {
  const started = (i: Interaction) => Date.parse(i.timing.started);
  const ordered = [...recording.interactions].sort((a, b) => started(a) - started(b) || a.seq - b.seq);
  const origin = ordered.length ? started(ordered[0] as Interaction) : 0;
  const steps = ordered.map((interaction) => toStep(interaction, started(interaction) - origin, spec));
  const events = steps.filter((s) => s.stream).flatMap((s) => eventsOf(s));
  events.sort((a, b) => a.at - b.at);
  return { origin, steps, events };
}

function toStep(interaction: Interaction, at: number, spec: SpecIndex): Step {
  const { request, response } = interaction;
  // A recording made outside the spec's knowledge (a HAR import, an older spec) is routed again here.
  let operation = interaction.operationId ? spec.byId.get(interaction.operationId) : undefined;
  let params = interaction.pathParams ?? {};
  if (!operation) {
    const routed = findOperation(spec, request.method, request.path);
    if (routed.kind === 'found') {
      operation = routed.operation;
      params = routed.params;
    }
  }
  const stream = response.chunks !== undefined;
  const answerProblems = operation
    ? stream
      ? checkAnswer(operation, response.status, undefined)
          .map((v) => v.message)
          .filter((p) => p.startsWith('status'))
      : checkAnswer(operation, response.status, response.body).map((v) => v.message)
    : [];
  return {
    seq: interaction.seq,
    at,
    durationMs: interaction.timing.durationMs,
    method: request.method,
    path: request.path,
    operation,
    params,
    query: request.query,
    body: request.body,
    status: response.status,
    answer: stream ? undefined : response.body,
    answerProblems,
    stream,
    interaction,
  };
}

/** The `data: {json}` frames of a recorded event stream, each at the instant its last byte arrived. */
function eventsOf(step: Step): TimedEvent[] {
  const events: TimedEvent[] = [];
  const reader = eventReader();
  for (const chunk of step.interaction.response.chunks ?? []) {
    for (const event of reader(chunk.data))
      events.push({ at: step.at + chunk.at, type: event.type, data: event.data, seq: step.seq });
  }
  return events;
}

/**
 * Reads an event stream as its text arrives: each call takes the next piece and gives the events whose frames
 * it completed. Comments (`: heartbeat`) and frames that are not JSON events are skipped.
 */
export function eventReader(): (text: string) => Array<{ type: string; data: Record<string, unknown> }> {
  let pending = '';
  return (text) => {
    pending += text;
    const events: Array<{ type: string; data: Record<string, unknown> }> = [];
    let end: number;
    while ((end = pending.indexOf('\n\n')) >= 0) {
      const frame = pending.slice(0, end);
      pending = pending.slice(end + 2);
      const data = frame
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).replace(/^ /, ''))
        .join('\n');
      if (!data) continue;
      try {
        const event = JSON.parse(data) as { type?: unknown; data?: unknown };
        if (typeof event.type === 'string')
          events.push({ type: event.type, data: (event.data ?? {}) as Record<string, unknown> });
      } catch {
        // not JSON: nothing a scenario can use
      }
    }
    return events;
  };
}

/** `#7 GET /api/integration/attempt/con_…`: how a generated scenario says where a part came from. */
export function describeStep(step: Step): string {
  return `#${step.seq} ${step.method} ${step.path}`;
}

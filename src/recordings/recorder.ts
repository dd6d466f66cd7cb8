/**
 * Writes interactions to a recording file as they complete: each one is a whole YAML document written with
 * a single append, so a crash (even kill -9) between two writes leaves a valid file holding every completed
 * interaction, and concurrent exchanges never interleave (the event loop writes one at a time).
 */
import { existsSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { PassThrough } from 'node:stream';
import { wallClock } from '../state/clock.js';
import type { Answer, Exchange } from '../http/io.js';
import { headerDocument, interactionDocument, parseRecording, type Interaction, type RecordingHeader } from './format.js';
import { redactBody, redactedRequestHead, redactHeaders, type RedactionRules } from './redact.js';

/** How much of one streamed answer a recording keeps. */
export const MAX_RECORDED_STREAM_BYTES = 4 * 1024 * 1024;

export interface Recorder {
  /** Records the exchange once its answer is complete; returns the answer to send (a tee for streams). `startedAt`: wall ms. */
  capture(exchange: Exchange, answer: Answer, route: { operationId?: string; pathParams?: Record<string, string> }, startedAt: number): Answer;
}

export function requestBody(exchange: Exchange): unknown {
  if (exchange.rawBody.length === 0) return undefined;
  const text = exchange.rawBody.toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * `recorded`: how many interactions the file already holds, when the caller knows (hybrid replay has just
 * read it); otherwise an existing file is read to continue its numbering.
 */
export function createRecorder(file: string, header: RecordingHeader, rules: RedactionRules, recorded?: number): Recorder {
  mkdirSync(dirname(file), { recursive: true });
  const fresh = !existsSync(file);
  let seq = fresh ? 0 : (recorded ?? parseRecording(readFileSync(file, 'utf8')).interactions.length);
  // The descriptor lives as long as the process: appends go straight to the file, nothing is buffered.
  const fd = openSync(file, 'a');
  if (fresh) writeSync(fd, headerDocument(header));

  const write = (interaction: Interaction) => {
    writeSync(fd, Buffer.from(interactionDocument(interaction)));
  };

  return {
    capture(exchange, answer, route, startedAt) {
      const base = {
        operationId: route.operationId,
        pathParams: route.pathParams,
        request: { ...redactedRequestHead(exchange, rules), body: redactBody(requestBody(exchange), rules) },
      };
      const started = new Date(startedAt).toISOString();
      if (answer.kind !== 'stream') {
        const parsed = answer.kind === 'json' || answer.kind === 'raw' ? answer.body : undefined;
        const body = parsed !== undefined ? parsed : answer.kind === 'raw' && answer.raw.length ? answer.raw.toString('utf8') : undefined;
        write({
          seq: ++seq,
          ...base,
          response: { status: answer.status, headers: redactHeaders(answer.headers ?? {}, rules), body: redactBody(body, rules) },
          timing: { started, durationMs: wallClock() - startedAt },
        });
        return answer;
      }
      // A stream is recorded chunk by chunk with its timing, and written when it ends: when the upstream ends
      // it, or (an event stream never ends by itself) when the client goes away.
      const tee = new PassThrough();
      const chunks: Array<{ at: number; data: string }> = [];
      // Offsets count from the exchange's start, as `timing.started` does, so events sit where the traffic was.
      const t0 = startedAt;
      let size = 0;
      answer.stream.on('data', (chunk: Buffer) => {
        // A stream left open for hours must not hold the simulator's memory: past the cap it passes unrecorded.
        size += chunk.length;
        if (size <= MAX_RECORDED_STREAM_BYTES) chunks.push({ at: wallClock() - t0, data: chunk.toString('utf8') });
      });
      let written = false;
      const finish = (open: boolean) => {
        if (written) return;
        written = true;
        write({
          seq: ++seq,
          ...base,
          response: { status: answer.status, headers: redactHeaders(answer.headers ?? {}, rules), chunks, ...(open ? { open } : {}) },
          timing: { started, durationMs: wallClock() - startedAt },
        });
      };
      answer.stream.once('end', () => finish(false));
      tee.once('close', () => {
        finish(true);
        // Nobody is reading any more: let go of the upstream connection too.
        (answer.stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
      });
      answer.stream.pipe(tee);
      return { ...answer, stream: tee };
    },
  };
}

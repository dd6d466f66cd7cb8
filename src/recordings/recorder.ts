/**
 * Writes interactions to a recording file as they complete: each one is a whole YAML document written with
 * a single append (cut back if the disk takes only part of it), so a crash (even kill -9) between two writes leaves a valid file holding every completed
 * interaction, and concurrent exchanges never interleave (the event loop writes one at a time).
 *
 * Why this is not a reader of the partition's log, as the journal, coverage and the exchange details are:
 * the pass-through calls it with the upstream's answer, before the pipeline logs anything, because a
 * recording needs what the log does not keep.
 * - A failed write is the client's answer (507 SimRecordingWriteError): the log's entry is made after the
 *   answer is settled, too late to change it.
 * - A streamed answer (the event stream) is recorded chunk by chunk with each chunk's timing, up to 4 MiB,
 *   and written when it ends: the log's entry is appended before the first chunk goes out, and keeps no
 *   stream body.
 * - Bodies whole: the log keeps the exchange whole only for the last 200 exchanges, with bodies cut at
 *   64 KiB, and then only as the inspector shows it (the sent headers merged with the pipeline's own `x-sim-…`
 *   and CORS headers); a recording keeps the upstream's own headers and every byte of its body.
 * - Wall-clock timing (`timing.started`, `durationMs` of the upstream round trip): the log has only virtual
 *   time.
 * - The route's `pathParams`, which replay matches on: the log has the operation, not its parameters.
 * - One file for the whole simulator, numbered across partitions: the log is per partition (created on first
 *   use), so a reader would have to follow every partition's log as it appears.
 */
import {
  closeSync,
  existsSync,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  statSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { PassThrough } from 'node:stream';
import { ConfigError } from '../config.js';
import { SimRecordingWriteError } from '../errors.js';
import { wallClock } from '../state/clock.js';
import type { Answer, Exchange } from '../exchange/exchange.js';
import {
  headerDocument,
  interactionDocument,
  parseRecording,
  type Interaction,
  type RecordingHeader,
} from './format.js';
import { redactBody, redactedRequestHead, redactHeaders, type RedactionRules } from './redact.js';

/** How much of one streamed answer a recording keeps. */
export const MAX_RECORDED_STREAM_BYTES = 4 * 1024 * 1024;

export interface Recorder {
  /** Records the exchange once its answer is complete; returns the answer to send (a tee for streams). `startedAt`: wall ms. */
  capture(
    exchange: Exchange,
    answer: Answer,
    route: { operationId?: string; pathParams?: Record<string, string> },
    startedAt: number,
  ): Answer;
  /** Closes the file; an interaction that completes after it is logged as not written. */
  close(): void;
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
/**
 * `scrub` masks secret values a client sent wherever they turn up again (an upstream echoing a key, its event
 * stream): what redaction by name cannot see.
 */
export function createRecorder(
  file: string,
  header: RecordingHeader,
  rules: RedactionRules,
  options: { recorded?: number; log?: (line: string) => void; scrub?: (text: string) => string } = {},
): Recorder {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  let fd: number;
  let seq: number;
  // A recording that cannot be written says so before the first request, not after an hour of traffic.
  try {
    mkdirSync(dirname(file), { recursive: true });
    const existing = existsSync(file) ? statSync(file) : undefined;
    if (existing && !existing.isFile()) throw Object.assign(new Error('it is not a regular file'), { code: 'EISDIR' });
    seq =
      existing && existing.size > 0
        ? (options.recorded ?? parseRecording(readFileSync(file, 'utf8')).interactions.length)
        : 0;
    // The descriptor lives as long as the process: appends go straight to the file, nothing is buffered.
    fd = openSync(file, 'a');
    if (!existing || existing.size === 0) writeSync(fd, headerDocument(header));
  } catch (error) {
    throw new ConfigError(`cannot record into ${file}: ${describeFsError(error)}`);
  }

  // Where the last whole document ends: a write that fails half-way is cut back to it, so the file stays valid.
  let end = fstatSync(fd).size;
  /** Each interaction is one document appended whole; one that fails is reported, never dropped silently. */
  const write = (interaction: Interaction) => {
    const document = interactionDocument(interaction);
    const bytes = Buffer.from(options.scrub ? options.scrub(document) : document);
    let written = 0;
    try {
      // A full disk can take part of a write and refuse the rest.
      while (written < bytes.length) written += writeSync(fd, bytes, written);
      end += bytes.length;
    } catch (error) {
      if (written > 0) ftruncateSync(fd, end);
      const failure = new SimRecordingWriteError(file, (error as NodeJS.ErrnoException).code, describeFsError(error));
      log(
        `record: interaction ${interaction.seq} (${interaction.request.method} ${interaction.request.path}) not written: ${failure.message}`,
      );
      throw failure;
    }
  };

  const writeLogged = (interaction: Interaction) => {
    try {
      write(interaction);
    } catch {
      // logged by write
    }
  };

  let closed = false;
  return {
    close() {
      if (closed) return;
      closed = true;
      closeSync(fd);
    },
    capture(exchange, answer, route, startedAt) {
      const base = {
        operationId: route.operationId,
        pathParams: route.pathParams,
        request: { ...redactedRequestHead(exchange, rules), body: redactBody(requestBody(exchange), rules) },
      };
      const started = new Date(startedAt).toISOString();
      if (answer.kind !== 'stream') {
        const parsed = answer.kind === 'json' || answer.kind === 'raw' ? answer.body : undefined;
        const body =
          parsed !== undefined
            ? parsed
            : answer.kind === 'raw' && answer.raw.length
              ? answer.raw.toString('utf8')
              : undefined;
        write({
          seq: ++seq,
          ...base,
          response: {
            status: answer.status,
            headers: redactHeaders(answer.headers ?? {}, rules),
            body: redactBody(body, rules),
          },
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
        // The answer has gone out already: the failure can only be logged (write does).
        writeLogged({
          seq: ++seq,
          ...base,
          response: {
            status: answer.status,
            headers: redactHeaders(answer.headers ?? {}, rules),
            chunks,
            ...(open ? { open } : {}),
          },
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

/** An fs failure in words a user acts on: `no space left on device (ENOSPC)`. */
function describeFsError(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  const known: Record<string, string> = {
    ENOSPC: 'no space left on device',
    EDQUOT: 'disk quota exceeded',
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    EROFS: 'read-only file system',
    ENOTDIR: 'a part of the path is a file, not a folder',
    // What creating the folders says when one of them is a file.
    EEXIST: 'a part of the path is a file, not a folder',
    EISDIR: 'it is not a regular file',
  };
  return code && known[code] ? `${known[code]} (${code})` : message;
}

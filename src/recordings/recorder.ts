/**
 * Writes interactions to a recording file as they complete: each one is a whole YAML document, and those
 * completed in one turn of the event loop go out in a single append (cut back to the last whole document if
 * the disk takes only part of it). An answer is sent only once its document is written, so a crash (even
 * kill -9) at any moment leaves a valid file holding every interaction whose answer went out, and concurrent
 * exchanges never interleave (the event loop writes one batch at a time).
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
import { SimRecordingWriteError } from '../errors/errors.js';
import { beforeWrites } from '../http/outbox.js';
import { wallClock } from '../state/clock.js';
import type { Answer, Exchange } from '../exchange/exchange.js';
import { headerDocument, interactionDocument, parseRecording, type RecordingHeader } from './format.js';
import { interactionText, requestBody } from './interaction-text.js';
import { redactBody, redactedRequestHead, redactHeaders, type RedactionRules } from './redact.js';
import { SimConfigError } from '../errors/sim-errors.js';

/** How much of one streamed answer a recording keeps. */
export const MAX_RECORDED_STREAM_BYTES = 4 * 1024 * 1024;

export interface Recorder {
  /**
   * Records the exchange once its answer is complete; returns the answer to send (a tee for streams, at once) or,
   * for a whole answer, a promise of it settled once its interaction is in the file. `startedAt`: wall ms.
   */
  capture(
    exchange: Exchange,
    answer: Answer,
    route: { operationId?: string; pathParams?: Record<string, string> },
    startedAt: number,
  ): Answer | Promise<Answer>;
  /** Writes what is queued and closes the file; an interaction that completes after it is logged as not written. */
  close(): void;
}

export { requestBody };

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
    throw new SimConfigError(`cannot record into ${file}: ${describeFsError(error)}`);
  }

  // Where the last whole document ends: a write that fails half-way is cut back to it, so the file stays valid.
  let end = fstatSync(fd).size;
  let closed = false;

  /**
   * Documents waiting for the next write, in `seq` order, each with whoever waits for it (the answer it
   * records). A group commit: every interaction completed in one turn of the event loop goes to the file in one
   * write, and each answer leaves only once its document is in the file (the kernel's, which kill -9 does not
   * undo). So "completed" stays "answered", and the simulator makes one system call per batch, not per request.
   */
  let queued: Queued[] = [];
  let flushing = false;
  const wholeText = interactionText(rules);

  /** Writes what is queued; a document the disk refused (or took only part of) is reported, never dropped silently. */
  const flush = () => {
    flushing = false;
    const batch = queued;
    queued = [];
    if (batch.length === 0) return;
    if (closed) {
      for (const { what, done } of batch) {
        log(`record: interaction ${what} not written: the recording is closed`);
        done?.(new SimRecordingWriteError(file, 'ECLOSED', 'the recording is closed'));
      }
      return;
    }
    // The batch's texts made into bytes at once: one copy, where a buffer per document was two.
    const bytes = Buffer.from(batch.length === 1 ? (batch[0] as Queued).text : batch.map((q) => q.text).join(''));
    let written = 0;
    let error: unknown;
    try {
      // A full disk can take part of a write and refuse the rest.
      while (written < bytes.length) written += writeSync(fd, bytes, written);
    } catch (caught) {
      error = caught;
    }
    // The documents wholly written are kept; the file is cut back to the end of the last of them.
    let kept = batch.length;
    let whole = written;
    if (error !== undefined) {
      kept = 0;
      whole = 0;
      for (let size; kept < batch.length; kept++) {
        size = Buffer.byteLength((batch[kept] as Queued).text);
        if (whole + size > written) break;
        whole += size;
      }
    }
    if (error !== undefined && written > whole) {
      try {
        ftruncateSync(fd, end + whole);
      } catch {
        // the file keeps a torn tail, which a reader skips
      }
    }
    end += whole;
    for (let index = 0; index < batch.length; index++) {
      const { what, done } = batch[index] as Queued;
      if (index < kept) {
        done?.();
        continue;
      }
      const failure = new SimRecordingWriteError(file, (error as NodeJS.ErrnoException).code, describeFsError(error));
      log(`record: interaction ${what} not written: ${failure.message}`);
      done?.(failure);
    }
  };

  /**
   * Queues a whole document; `done` (when given) hears once it is written, or why it was not. `what` names
   * the interaction in a log line: `12 (GET /api/session)`.
   */
  const enqueue = (what: string, document: string, done?: (failure?: SimRecordingWriteError) => void) => {
    queued.push({ what, text: options.scrub ? options.scrub(document) : document, done });
    if (!flushing) {
      flushing = true;
      // In the turn's check phase, ahead of its answers: those it lets go of are written with them.
      beforeWrites(flush);
    }
  };

  /** The answer, once its interaction is in the file; a write that fails is the client's answer (507). */
  const whenWritten = (what: string, document: string, answer: Answer) =>
    new Promise<Answer>((resolve, reject) =>
      enqueue(what, document, (failure) => (failure ? reject(failure) : resolve(answer))),
    );

  return {
    close() {
      if (closed) return;
      // What is queued is written first: every answer already decided keeps its interaction.
      flush();
      closed = true;
      closeSync(fd);
    },
    capture(exchange, answer, route, startedAt) {
      if (answer.kind !== 'stream') {
        const parts = { seq: ++seq, route, startedAt, durationMs: wallClock() - startedAt };
        const what = `${parts.seq} (${exchange.method} ${exchange.pathname})`;
        return whenWritten(what, wholeText(exchange, answer, parts), answer);
      }
      const base = {
        operationId: route.operationId,
        pathParams: route.pathParams,
        request: { ...redactedRequestHead(exchange, rules), body: redactBody(requestBody(exchange), rules) },
      };
      const started = new Date(startedAt).toISOString();
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
        // The answer has gone out already: the failure can only be logged (flush does).
        const interaction = {
          seq: ++seq,
          ...base,
          response: {
            status: answer.status,
            headers: redactHeaders(answer.headers ?? {}, rules),
            chunks,
            ...(open ? { open } : {}),
          },
          timing: { started, durationMs: wallClock() - startedAt },
        };
        enqueue(`${interaction.seq} (${exchange.method} ${exchange.pathname})`, interactionDocument(interaction));
      };
      answer.stream.once('end', () => finish(false));
      tee.once('close', () => {
        finish(true);
        // Nobody is reading any more: let go of the upstream connection too.
        (answer.stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
      });
      // An upstream that breaks off its stream breaks off the client's too (pipe alone would leave it open).
      answer.stream.once('error', (error: Error) => tee.destroy(error));
      answer.stream.pipe(tee);
      return { ...answer, stream: tee };
    },
  };
}

/** A document waiting to be written, and whoever waits for it. */
interface Queued {
  what: string;
  text: string;
  done?: (failure?: SimRecordingWriteError) => void;
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

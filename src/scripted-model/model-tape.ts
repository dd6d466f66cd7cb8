/**
 * The model's side of a recording (`--model-recording FILE`): every answer the scripted model gave a turn's
 * calls, byte for byte with its timing, so that `--model-replay FILE` gives a runtime the same answers again,
 * whatever the scenario says now. A call is placed by the turn it belongs to (the n-th turn the model saw, in
 * order), its round and its attempt, never by the runtime's ids, which change from run to run. Calls that
 * offer no tools (titles, summaries) are neither kept nor replayed: they get the short answer each time.
 *
 * The file is JSON, rewritten whole after each call (`writeWholeFile`): a crash leaves the previous version.
 * It holds what the model sent and the prompt's text, never the runtime's headers or its API key.
 */
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { writeWholeFile } from '../files/whole-file.js';

const FORMAT = 'session-agent-sim model recording 1';
/** Calls kept at most: a long session of turns is hundreds. */
const MAX_CALLS = 10_000;

export interface TapedCall {
  /** 1 for the first turn the model saw, and so on. */
  turn: number;
  round: number;
  attempt: number;
  prompt: string;
  status: number;
  headers: Record<string, string>;
  /** What was sent, each after `after` ms from the one before (from the head for the first). */
  chunks: Array<{ after: number; text: string }>;
  /** The model dropped the connection after the last chunk. */
  cut?: boolean;
}

interface TapeFile {
  format: string;
  calls: TapedCall[];
}

export class ModelTapeError extends Error {}

export function readModelTape(file: string): TapedCall[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ModelTapeError(`${file} is no model recording: ${(error as Error).message}`);
  }
  const tape = parsed as Partial<TapeFile>;
  if (tape?.format !== FORMAT || !Array.isArray(tape.calls))
    throw new ModelTapeError(`${file} is no model recording (its format should be "${FORMAT}")`);
  return tape.calls;
}

/** Keeps each call's answer as the response goes out, and the file up to date after each. */
export function createModelTape(file: string) {
  const calls: TapedCall[] = [];
  const save = () => writeWholeFile(file, `${JSON.stringify({ format: FORMAT, calls } satisfies TapeFile, null, 1)}\n`);
  save();
  return {
    /** Records what `res` sends from now on, as the call at this place. */
    keep(res: ServerResponse, place: Pick<TapedCall, 'turn' | 'round' | 'attempt' | 'prompt'>): void {
      if (calls.length >= MAX_CALLS) return;
      const call: TapedCall = { ...place, status: 200, headers: {}, chunks: [] };
      let last = Date.now();
      const add = (text: unknown) => {
        if (text === undefined || text === null || text === '') return;
        const now = Date.now();
        call.chunks.push({ after: now - last, text: Buffer.isBuffer(text) ? text.toString('utf8') : String(text) });
        last = now;
      };
      const writeHead = res.writeHead.bind(res) as (
        status: number,
        headers?: Record<string, unknown>,
      ) => ServerResponse;
      const write = res.write.bind(res) as (chunk: unknown) => boolean;
      const end = res.end.bind(res) as (chunk?: unknown) => ServerResponse;
      // The model's own writes go through these three; nothing else writes to its responses.
      Object.assign(res, {
        writeHead(status: number, headers: Record<string, unknown> = {}) {
          call.status = status;
          for (const [name, value] of Object.entries(headers))
            if (name !== 'content-length' && name !== 'connection') call.headers[name] = String(value);
          last = Date.now();
          return writeHead(status, headers);
        },
        write(chunk: unknown) {
          add(chunk);
          return write(chunk);
        },
        end(chunk?: unknown) {
          add(chunk);
          return end(chunk);
        },
      });
      res.on('close', () => {
        if (!res.writableFinished) call.cut = true;
        calls.push(call);
        save();
      });
    },
  };
}

/** Answers from a model recording: the n-th turn the runtime plays gets the n-th recorded turn's answers. */
export function createTapePlayer(calls: readonly TapedCall[]) {
  const byPlace = new Map<string, TapedCall>();
  const lastAttempt = new Map<string, number>();
  for (const call of calls) {
    byPlace.set(`${call.turn}\0${call.round}\0${call.attempt}`, call);
    const round = `${call.turn}\0${call.round}`;
    lastAttempt.set(round, Math.max(lastAttempt.get(round) ?? 0, call.attempt));
  }
  return {
    turns: new Set(calls.map((c) => c.turn)).size,
    find(turn: number, round: number, attempt: number): TapedCall | undefined {
      const last = lastAttempt.get(`${turn}\0${round}`);
      if (last === undefined) return undefined;
      return byPlace.get(`${turn}\0${round}\0${Math.min(attempt, last)}`);
    },
  };
}

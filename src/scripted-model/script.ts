/**
 * A scripted turn as the model calls that play it on a real runtime. The simulator plays a turn's steps as
 * model steps (`src/kinds/session/turns.ts`): one step streams reasoning, text and tool calls and ends after its
 * tool calls; a retry ends an attempt with a provider error; fail ends the turn. A runtime asks its model once a
 * step, so the same script cut at the same places is what the model answers call by call: round k of a turn is
 * the k-th model step, and each of its attempts but the last is an HTTP error.
 *
 * What a tool answers is not the model's to say: the runtime runs the tool for real, so `result`, `error`,
 * `structured` and `takes` have no part here.
 */
import type { TurnStep } from '../kinds/session/types.js';

/** The pause before a step's first token, and between the things a step does, when the script does not say. */
export const FIRST_TOKEN = 700;
const BETWEEN = 250;
const CHUNK = { text: 16, reasoning: 24, tool: 32 } as const;
const EVERY = { text: 50, reasoning: 40, tool: 20 } as const;
const RETRY_WAIT = 2000;

/**
 * What a streamed answer sends, each after a pause (ms, as scripted). A tool call's arguments are cut into
 * pieces only when it is sent, once fitted to the tools the request offers.
 */
export type Piece =
  | { kind: 'reasoning' | 'text'; delta: string; pause: number }
  | { kind: 'tool'; name: string; input: Record<string, unknown>; chunk: number; every: number; pause: number };

/** What one model call answers. */
export type Call =
  /** `output`: the answer's tokens, reasoning included (as a provider counts them); `reasoning`: those of it. */
  | { kind: 'answer'; pieces: Piece[]; finish: 'stop' | 'tool_calls'; output: number; reasoning?: number }
  /** An HTTP error: retried by the runtime when its status says so (429, 5xx), the turn's failure otherwise. */
  | { kind: 'error'; status: number; message: string; retryAfter?: number; pause: number }
  /** The answer starts, then its connection drops. */
  | { kind: 'cut'; pieces: Piece[]; pause: number };

/** The attempts of one model step, in order: each but the last an error the runtime retries. */
export type Round = Call[];

/** Code points, so a piece never splits a character. */
export function pieces(text: string, size: number): string[] {
  const points = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < points.length; i += size) out.push(points.slice(i, i + size).join(''));
  return out.length ? out : [''];
}

const tokensOf = (text: string) => Math.ceil(text.length / 4);

/** The model calls of a turn's steps, round by round (see the file's comment). */
export function roundsOf(steps: readonly TurnStep[]): Round[] {
  const rounds: Round[] = [];
  let round: Round = [];
  let open: Extract<Call, { kind: 'answer' }> | undefined;
  const close = (finish: 'stop' | 'tool_calls') => {
    if (!open) return;
    open.finish = finish;
    round.push(open);
    rounds.push(round);
    round = [];
    open = undefined;
  };
  steps.forEach((step, i) => {
    const opens = open === undefined;
    const pause = Math.round(step.after ?? (opens ? FIRST_TOKEN : BETWEEN));
    switch (step.kind) {
      case 'reasoning':
      case 'text': {
        open ??= { kind: 'answer', pieces: [], finish: 'stop', output: 0 };
        const every = Math.round(step.every ?? EVERY[step.kind]);
        pieces(step.text, step.chunk ?? CHUNK[step.kind]).forEach((delta, k) =>
          open?.pieces.push({ kind: step.kind, delta, pause: k === 0 ? pause + every : every }),
        );
        open.output += tokensOf(step.text);
        if (step.kind === 'reasoning') open.reasoning = (open.reasoning ?? 0) + tokensOf(step.text);
        break;
      }
      case 'tool': {
        open ??= { kind: 'answer', pieces: [], finish: 'stop', output: 0 };
        const input = { ...step.input };
        open.pieces.push({
          kind: 'tool',
          name: step.tool,
          input,
          chunk: step.chunk ?? CHUNK.tool,
          every: Math.round(step.every ?? EVERY.tool),
          pause,
        });
        open.output += tokensOf(JSON.stringify(input));
        if (steps[i + 1]?.kind !== 'tool') close('tool_calls');
        break;
      }
      case 'retry': {
        if (step.cut) {
          round.push({ kind: 'cut', pieces: open?.pieces ?? [], pause });
          open = undefined;
          break;
        }
        // What the attempt streamed before its error never reaches the runtime: an HTTP error comes first.
        open = undefined;
        const wait = Math.round(step.wait ?? RETRY_WAIT);
        round.push({
          kind: 'error',
          status: step.statusCode ?? 500,
          message: step.message,
          retryAfter: Math.max(0, Math.ceil(wait / 1000)),
          pause,
        });
        break;
      }
      case 'fail':
        // A client error is not retried: the runtime ends the step, and the turn, with its message.
        open = undefined;
        round.push({ kind: 'error', status: 400, message: step.message, pause });
        rounds.push(round);
        round = [];
        break;
    }
  });
  close('stop');
  if (round.length) rounds.push(round);
  return rounds;
}

/**
 * A scripted turn as model calls: the same steps the simulator lays out as model steps
 * (src/kinds/session/turns.ts), cut into rounds (one per model step) and the attempts of each round.
 */
import { describe, expect, it } from 'vitest';
import type { TurnStep } from '../../../src/kinds/session/types.js';
import { FIRST_TOKEN, pieces, roundsOf, type Call } from '../../../src/scripted-model/script.js';

const FORTY = 'abcdefghijklmnopqrstuvwxyz0123456789ABCD';

/** The answer call of a round, failing the test when the call is not one. */
function answer(call: Call | undefined): Extract<Call, { kind: 'answer' }> {
  if (call?.kind !== 'answer') throw new Error(`expected an answer, got ${JSON.stringify(call)}`);
  return call;
}

describe('pieces', () => {
  it('cuts a text into pieces of the given size, the last one shorter', () => {
    expect(pieces('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
    expect(pieces('abcd', 4)).toEqual(['abcd']);
  });

  it('never splits a surrogate pair', () => {
    const text = '😀👍🏽é😀x';
    const out = pieces(text, 2);
    expect(out).toEqual(['😀👍', '🏽é', '😀x']);
    expect(out.join('')).toBe(text);
    // No piece starts with a low surrogate or ends with a high one.
    for (const piece of out) expect(piece).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
    expect(pieces('😀😀😀', 1)).toEqual(['😀', '😀', '😀']);
  });

  it('gives one empty piece for an empty text', () => {
    expect(pieces('', 16)).toEqual(['']);
  });
});

describe('roundsOf', () => {
  it('has no rounds for no steps', () => {
    expect(roundsOf([])).toEqual([]);
  });

  it('plays a text-only turn as one round with one answer, in 16 code point pieces', () => {
    const rounds = roundsOf([{ kind: 'text', text: FORTY }]);
    expect(FIRST_TOKEN).toBe(700);
    expect(rounds).toStrictEqual([
      [
        {
          kind: 'answer',
          finish: 'stop',
          output: 10,
          pieces: [
            { kind: 'text', delta: FORTY.slice(0, 16), pause: 750 },
            { kind: 'text', delta: FORTY.slice(16, 32), pause: 50 },
            { kind: 'text', delta: FORTY.slice(32), pause: 50 },
          ],
        },
      ],
    ]);
  });

  it('streams reasoning in 24 code point pieces, 40 ms apart', () => {
    const text = 'r'.repeat(50);
    const [round] = roundsOf([{ kind: 'reasoning', text }]);
    const call = answer(round?.[0]);
    expect(call.pieces).toEqual([
      { kind: 'reasoning', delta: 'r'.repeat(24), pause: 740 },
      { kind: 'reasoning', delta: 'r'.repeat(24), pause: 40 },
      { kind: 'reasoning', delta: 'rr', pause: 40 },
    ]);
    expect(call.output).toBe(13);
    expect(call.finish).toBe('stop');
  });

  it('honours a step’s own after, chunk and every', () => {
    const [round] = roundsOf([{ kind: 'text', text: 'abcdefghij', after: 100, chunk: 4, every: 10 }]);
    expect(answer(round?.[0]).pieces).toEqual([
      { kind: 'text', delta: 'abcd', pause: 110 },
      { kind: 'text', delta: 'efgh', pause: 10 },
      { kind: 'text', delta: 'ij', pause: 10 },
    ]);
  });

  it('rounds fractional pauses to whole milliseconds', () => {
    const [round] = roundsOf([{ kind: 'text', text: 'ab', after: 100.4, every: 9.6 }]);
    expect(answer(round?.[0]).pieces).toEqual([{ kind: 'text', delta: 'ab', pause: 110 }]);
  });

  it('pauses 250 ms before what follows the first thing of a step', () => {
    const [round] = roundsOf([
      { kind: 'reasoning', text: 'think' },
      { kind: 'text', text: 'say' },
    ]);
    expect(round).toHaveLength(1);
    expect(answer(round?.[0]).pieces).toEqual([
      { kind: 'reasoning', delta: 'think', pause: 740 },
      { kind: 'text', delta: 'say', pause: 300 },
    ]);
  });

  it('sums the output token estimates of an answer (a quarter of the length, rounded up)', () => {
    const [round] = roundsOf([
      { kind: 'reasoning', text: 'abcde' },
      { kind: 'text', text: 'abcdefghi' },
    ]);
    expect(answer(round?.[0]).output).toBe(2 + 3);
  });

  it('ends a round after a tool call: reasoning, tool, text are two rounds', () => {
    const steps: TurnStep[] = [
      { kind: 'reasoning', text: 'think' },
      { kind: 'tool', tool: 'read', input: { filePath: 'a.ts' }, result: 'ignored', takes: 9000 },
      { kind: 'text', text: 'done' },
    ];
    const rounds = roundsOf(steps);
    const json = JSON.stringify({ filePath: 'a.ts' });
    expect(rounds).toStrictEqual([
      [
        {
          kind: 'answer',
          finish: 'tool_calls',
          output: 2 + Math.ceil(json.length / 4),
          reasoning: 2,
          pieces: [
            { kind: 'reasoning', delta: 'think', pause: 740 },
            { kind: 'tool', name: 'read', input: { filePath: 'a.ts' }, chunk: 32, every: 20, pause: 250 },
          ],
        },
      ],
      [{ kind: 'answer', finish: 'stop', output: 1, pieces: [{ kind: 'text', delta: 'done', pause: 750 }] }],
    ]);
    expect(answer(rounds[0]?.[0]).output).toBe(7);
  });

  it('copies a tool call’s input and honours its chunk, every and after', () => {
    const input = { path: 'x' };
    const [round] = roundsOf([{ kind: 'tool', tool: 'glob', input, chunk: 5, every: 7.4, after: 30 }]);
    const call = answer(round?.[0]);
    expect(call.pieces).toEqual([{ kind: 'tool', name: 'glob', input: { path: 'x' }, chunk: 5, every: 7, pause: 30 }]);
    const piece = call.pieces[0];
    expect(piece?.kind === 'tool' && piece.input).not.toBe(input);
  });

  it('answers consecutive tools as parallel calls of one round', () => {
    const rounds = roundsOf([
      { kind: 'tool', tool: 'read', input: { path: 'a' } },
      { kind: 'tool', tool: 'read', input: { path: 'b' } },
      { kind: 'text', text: 'both read' },
    ]);
    expect(rounds).toHaveLength(2);
    expect(rounds[0]).toHaveLength(1);
    const first = answer(rounds[0]?.[0]);
    expect(first.finish).toBe('tool_calls');
    expect(first.pieces).toEqual([
      { kind: 'tool', name: 'read', input: { path: 'a' }, chunk: 32, every: 20, pause: 700 },
      { kind: 'tool', name: 'read', input: { path: 'b' }, chunk: 32, every: 20, pause: 250 },
    ]);
    expect(first.output).toBe(2 * Math.ceil(JSON.stringify({ path: 'a' }).length / 4));
    expect(answer(rounds[1]?.[0]).finish).toBe('stop');
  });

  it('plays a retry as an HTTP error before the retried answer, dropping what the attempt streamed', () => {
    const rounds = roundsOf([
      { kind: 'text', text: 'lost' },
      { kind: 'retry', message: 'Overloaded', statusCode: 529, wait: 2500 },
      { kind: 'text', text: 'kept' },
    ]);
    expect(rounds).toStrictEqual([
      [
        { kind: 'error', status: 529, message: 'Overloaded', retryAfter: 3, pause: 250 },
        { kind: 'answer', finish: 'stop', output: 1, pieces: [{ kind: 'text', delta: 'kept', pause: 750 }] },
      ],
    ]);
  });

  it('retries with status 500 after 2 s when the script does not say', () => {
    const rounds = roundsOf([
      { kind: 'retry', message: 'boom' },
      { kind: 'text', text: 'ok' },
    ]);
    expect(rounds).toHaveLength(1);
    expect(rounds[0]?.[0]).toStrictEqual({ kind: 'error', status: 500, message: 'boom', retryAfter: 2, pause: 700 });
    expect(answer(rounds[0]?.[1]).pieces).toEqual([{ kind: 'text', delta: 'ok', pause: 750 }]);
  });

  it('keeps every attempt of a round in order', () => {
    const rounds = roundsOf([
      { kind: 'retry', message: 'slow down', statusCode: 429, wait: 1000 },
      { kind: 'retry', message: 'overloaded', statusCode: 529, wait: 0 },
      { kind: 'text', text: 'finally' },
    ]);
    expect(rounds).toHaveLength(1);
    expect(rounds[0]?.map((call) => call.kind)).toEqual(['error', 'error', 'answer']);
    expect(rounds[0]?.[0]).toMatchObject({ status: 429, retryAfter: 1 });
    expect(rounds[0]?.[1]).toMatchObject({ status: 529, retryAfter: 0 });
  });

  it('plays fail as a 400 error, dropping what its step streamed before it', () => {
    const rounds = roundsOf([
      { kind: 'text', text: 'partial answer' },
      { kind: 'fail', message: 'Context too long' },
    ]);
    expect(rounds).toStrictEqual([[{ kind: 'error', status: 400, message: 'Context too long', pause: 250 }]]);
  });

  it('plays fail as a round of its own after a tool round, with its own after', () => {
    const rounds = roundsOf([
      { kind: 'tool', tool: 'bash', input: { command: 'ls' } },
      { kind: 'fail', message: 'nope', after: 123 },
    ]);
    expect(rounds).toHaveLength(2);
    expect(answer(rounds[0]?.[0]).finish).toBe('tool_calls');
    expect(rounds[1]).toStrictEqual([{ kind: 'error', status: 400, message: 'nope', pause: 123 }]);
  });

  it('ends the round of a retried step with the fail', () => {
    const rounds = roundsOf([
      { kind: 'retry', message: 'busy', statusCode: 503 },
      { kind: 'fail', message: 'gave up' },
    ]);
    expect(rounds).toStrictEqual([
      [
        { kind: 'error', status: 503, message: 'busy', retryAfter: 2, pause: 700 },
        { kind: 'error', status: 400, message: 'gave up', pause: 700 },
      ],
    ]);
  });

  it('plays a cut retry as the attempt’s pieces, then the retried answer', () => {
    const rounds = roundsOf([
      { kind: 'text', text: 'half' },
      { kind: 'retry', message: 'dropped', cut: true },
      { kind: 'text', text: 'whole' },
    ]);
    expect(rounds).toStrictEqual([
      [
        { kind: 'cut', pause: 250, pieces: [{ kind: 'text', delta: 'half', pause: 750 }] },
        { kind: 'answer', finish: 'stop', output: 2, pieces: [{ kind: 'text', delta: 'whole', pause: 750 }] },
      ],
    ]);
  });
});

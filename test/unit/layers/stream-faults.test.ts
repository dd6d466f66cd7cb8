/**
 * The stream faults of a rule's `then.stream`, on a stream of frames as the event stream sends them: what
 * goes out, in what order, with what waits, and how it ends.
 */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { faultyStream, StreamFaultCut } from '../../../src/layers/stream-faults.js';
import type { StreamFault } from '../../../src/scenarios/definition.js';
import { createRandom } from '../../../src/state/random.js';

const FRAMES = [
  'data: {"type":"server.connected"}\n\n',
  ': heartbeat\n\n',
  'data: {"type":"a"}\n\n',
  'data: {"type":"b"}\n\n',
];

/** Runs the frames (split across chunks at odd places, as an upstream sends them) through the fault. */
async function run(
  fault: Partial<StreamFault>,
  { seed = 's', source = Readable.from(chunked(FRAMES.join(''))) } = {},
): Promise<{ text: string; waits: number[]; error?: Error; open: boolean }> {
  const waits: number[] = [];
  const out = faultyStream(
    source,
    { afterFrames: 0, latency: 0, jitter: 0, ...fault },
    { random: createRandom(seed), wait: async (ms) => void waits.push(ms) },
  );
  let text = '';
  out.setEncoding('utf8');
  out.on('data', (chunk: string) => (text += chunk));
  const ended = new Promise<Error | undefined>((resolve) => {
    out.once('end', () => resolve(undefined));
    out.once('error', (error) => resolve(error));
  });
  const settled = await Promise.race([ended, new Promise<'open'>((r) => setTimeout(() => r('open'), 50))]);
  if (settled === 'open') {
    out.destroy();
    return { text, waits, open: true };
  }
  return { text, waits, ...(settled ? { error: settled } : {}), open: false };
}

function chunked(text: string): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < text.length; i += 7) out.push(Buffer.from(text.slice(i, i + 7)));
  return out;
}

describe('stream faults', () => {
  it('pass everything unchanged without a fault, a retry field first when asked', async () => {
    expect(await run({})).toEqual({ text: FRAMES.join(''), waits: [], open: false });
    expect((await run({ retry: 250 })).text).toBe(`retry: 250\n\n${FRAMES.join('')}`);
  });

  it('wait latency plus seeded jitter before each frame: the same seed, the same waits', async () => {
    const first = await run({ latency: 100, jitter: 50 });
    expect(first.waits).toHaveLength(FRAMES.length);
    for (const ms of first.waits) expect(ms >= 100 && ms < 150).toBe(true);
    expect(new Set(first.waits).size).toBeGreaterThan(1);
    expect((await run({ latency: 100, jitter: 50 })).waits).toEqual(first.waits);
    expect((await run({ latency: 100, jitter: 50 }, { seed: 'other' })).waits).not.toEqual(first.waits);
  });

  it('drop after N events (heartbeats not counted), closing rather than ending', async () => {
    const dropped = await run({ afterFrames: 2, fault: 'drop' });
    expect(dropped.text).toBe(FRAMES.slice(0, 3).join(''));
    expect(dropped.error).toBeInstanceOf(StreamFaultCut);
    const atOnce = await run({ fault: 'drop', retry: 10 });
    expect(atOnce).toMatchObject({ text: 'retry: 10\n\n', open: false });
    expect(atOnce.error).toBeInstanceOf(StreamFaultCut);
  });

  it('cut the event after N in half', async () => {
    const cut = await run({ afterFrames: 1, fault: 'cut' });
    const half = FRAMES[2]?.slice(0, Math.ceil((FRAMES[2] as string).length / 2)) as string;
    expect(cut.text).toBe(FRAMES.slice(0, 2).join('') + half);
    expect(cut.error).toBeInstanceOf(StreamFaultCut);
  });

  it('stall after N events: nothing more, heartbeats neither, and the stream stays open', async () => {
    const endless = new Readable({ read() {} });
    for (const frame of FRAMES) endless.push(frame);
    const stalled = await run({ afterFrames: 1, fault: 'stall' }, { source: endless });
    expect(stalled).toEqual({ text: FRAMES[0], waits: [], open: true });
    // The source is let go with the answer.
    expect(endless.destroyed).toBe(true);
  });
});

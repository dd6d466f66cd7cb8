import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeSoon } from '../../../src/http/outbox.js';

const turn = () => new Promise((resolve) => setImmediate(resolve));

afterEach(() => {
  vi.useRealTimers();
});

describe('writeSoon', () => {
  it('writes after the callbacks of the current turn, in the order asked', async () => {
    const seen: string[] = [];
    writeSoon(() => seen.push('first'));
    process.nextTick(() => seen.push('tick'));
    await Promise.resolve();
    seen.push('microtask');
    writeSoon(() => seen.push('second'));
    expect(seen).toEqual(['microtask']);
    await turn();
    expect(seen).toEqual(['microtask', 'tick', 'first', 'second']);
  });

  it('writes one asked for while writing in the next turn, not the same one', async () => {
    const seen: string[] = [];
    writeSoon(() => {
      seen.push('a');
      writeSoon(() => seen.push('c'));
    });
    writeSoon(() => seen.push('b'));
    await turn();
    expect(seen).toEqual(['a', 'b']);
    await turn();
    expect(seen).toEqual(['a', 'b', 'c']);
  });

  it('still writes while a test fakes timers', async () => {
    const realImmediate = setImmediate;
    vi.useFakeTimers({ toFake: ['setImmediate', 'setTimeout'] });
    const written = new Promise<string>((resolve) => writeSoon(() => resolve('written')));
    await new Promise((resolve) => realImmediate(resolve));
    await expect(written).resolves.toBe('written');
  });
});

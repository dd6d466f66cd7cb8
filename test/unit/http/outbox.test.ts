import { afterEach, describe, expect, it, vi } from 'vitest';
import { beforeWrites, writeSoon } from '../../../src/http/outbox.js';

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

describe('beforeWrites', () => {
  it("runs its task after the turn's reads, and writes what the task lets go of in the same turn", async () => {
    const seen: string[] = [];
    // An answer that waits for the task (a recorded answer waits for its interaction to be in the file).
    let release: () => void = () => {};
    const decided = new Promise<void>((resolve) => (release = resolve));
    void decided.then(async () => {
      await Promise.resolve();
      writeSoon(() => seen.push('released answer'));
    });
    writeSoon(() => seen.push('answer before'));
    beforeWrites(() => {
      seen.push('task');
      release();
    });
    expect(seen).toEqual([]);
    await turn();
    expect(seen).toEqual(['answer before', 'task', 'released answer']);
  });

  it('runs the tasks of a turn once each, in order, and none again in the next', async () => {
    const seen: string[] = [];
    beforeWrites(() => seen.push('a'));
    beforeWrites(() => seen.push('b'));
    await turn();
    await turn();
    expect(seen).toEqual(['a', 'b']);
  });

  it('runs while a test fakes timers', async () => {
    const realImmediate = setImmediate;
    vi.useFakeTimers({ toFake: ['setImmediate', 'setTimeout'] });
    const ran = new Promise<string>((resolve) => beforeWrites(() => resolve('ran')));
    await new Promise((resolve) => realImmediate(resolve));
    await expect(ran).resolves.toBe('ran');
  });
});

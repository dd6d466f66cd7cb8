import { describe, expect, it } from 'vitest';
import { MAX_TIME } from '../../../src/text/duration.js';
import { createClock } from '../../../src/state/clock.js';

describe('clock.advance', () => {
  it('refuses to go past the last instant a Date holds, before anything moves or fires', () => {
    const fired: string[] = [];
    const clock = createClock({ start: 0, onDue: (key) => fired.push(key) });
    clock.schedule('session:s1', 1000);
    expect(() => clock.advance(MAX_TIME + 1)).toThrow(RangeError);
    expect(clock.now()).toBe(0);
    expect(fired).toEqual([]);
    expect(clock.advance(MAX_TIME)).toBe(MAX_TIME);
    expect(fired).toEqual(['session:s1']);
    expect(() => clock.advance(1)).toThrow(RangeError);
    expect(new Date(clock.now()).toISOString()).toBe('+275760-09-13T00:00:00.000Z');
  });
});

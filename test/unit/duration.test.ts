import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../src/duration.js';

describe('parseDuration', () => {
  it.each([
    ['250ms', 250],
    ['30s', 30_000],
    ['5m', 300_000],
    ['1h', 3_600_000],
    ['1m30s', 90_000],
    ['1.5s', 1500],
    [0, 0],
    [5000, 5000],
  ])('reads %s as %i ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', '30', '30 s', 's', '5x', '-1s', '1m 30s'])('refuses %j', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });

  it('refuses negative numbers', () => {
    expect(parseDuration(-1)).toBeUndefined();
  });
});

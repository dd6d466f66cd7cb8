import { describe, expect, it } from 'vitest';
import { describeMs, MAX_TIME, MAX_TIME_ISO, parseDuration } from '../../../src/text/duration.js';

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

describe('past what a number holds', () => {
  it('refuses a duration whose digits read as Infinity', () => {
    expect(parseDuration(`${'9'.repeat(400)}h`)).toBeUndefined();
    expect(parseDuration(Infinity)).toBeUndefined();
    expect(parseDuration(Number.NaN)).toBeUndefined();
  });

  it('knows the last instant a Date holds', () => {
    expect(new Date(MAX_TIME).toISOString()).toBe(MAX_TIME_ISO);
    expect(() => new Date(MAX_TIME + 1).toISOString()).toThrow(RangeError);
  });
});

describe('describeMs', () => {
  it.each([
    [5000, '5000 ms'],
    [3 * 3_600_000, '10800000 ms (about 3 hours)'],
    [2 * 86_400_000, '172800000 ms (about 2 days)'],
    [8.64e15, '8640000000000000 ms (about 273,785 years)'],
  ])('says %i as %s', (ms, text) => {
    expect(describeMs(ms)).toBe(text);
  });
});

import { describe, expect, it } from 'vitest';
import { closest, editDistance } from '../../../src/text/closest.js';

const COMMANDS = ['mock', 'proxy', 'record', 'replay', 'validate', 'drift', 'har-export', 'har-import', 'help'];

describe('closest', () => {
  it('finds the word one slip away', () => {
    expect(closest('mok', COMMANDS)).toBe('mock');
    expect(closest('scenaro', ['port', 'scenario', 'seed'])).toBe('scenario');
    expect(closest('recrod', COMMANDS)).toBe('record');
  });

  it('counts a swap of neighbours as one slip', () => {
    expect(closest('hlep', COMMANDS)).toBe('help');
    expect(closest('har-exprot', COMMANDS)).toBe('har-export');
  });

  it('ignores case but answers the candidate as written', () => {
    expect(closest('MOCK', COMMANDS)).toBe('mock');
    expect(closest('forms-Setling', ['Forms-Settling'])).toBe('Forms-Settling');
  });

  it('answers nothing when no candidate is near enough to be what was meant', () => {
    expect(closest('xyz', COMMANDS)).toBeUndefined();
    expect(closest('timeout', ['upstream-timeout'])).toBeUndefined();
    // Two edits are too many for a four-letter word, fine for a seven-letter one.
    expect(closest('mxkk', COMMANDS)).toBeUndefined();
    expect(closest('valdte', COMMANDS)).toBe('validate');
  });

  it('answers nothing for an empty word or no candidates', () => {
    expect(closest('', ['a', 'b'])).toBeUndefined();
    expect(closest('mock', [])).toBeUndefined();
  });

  it('prefers the nearest candidate, then the earlier one', () => {
    expect(closest('replai', ['record', 'replay'])).toBe('replay');
    expect(closest('har-xport', ['har-import', 'har-export'])).toBe('har-export');
    expect(closest('bat', ['cat', 'hat'])).toBe('cat');
    expect(closest('bat', ['hat', 'cat'])).toBe('hat');
  });

  it('answers an exact match', () => {
    expect(closest('drift', COMMANDS)).toBe('drift');
  });
});

describe('editDistance', () => {
  it('counts insertions, deletions, substitutions and neighbour swaps as one edit each', () => {
    expect(editDistance('', '')).toBe(0);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('abc', '')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('ab', 'ba')).toBe(1);
    expect(editDistance('ca', 'abc')).toBe(3);
  });

  it('counts characters outside the BMP as one', () => {
    expect(editDistance('a😀b', 'ab')).toBe(1);
  });
});

/** Option names each entry point knows (src/config/options.ts): an unknown one is refused, with the one it may have meant. */
import { describe, expect, it } from 'vitest';
import { checkOptionNames, checkSimOptions, COVERAGE_OPTIONS, SIM_OPTIONS } from '../../../src/config/options.js';
import { resolveConfig } from '../../../src/config/config.js';
import { SimConfigError } from '../../../src/errors/sim-errors.js';

function refusal(check: () => void): SimConfigError {
  try {
    check();
  } catch (error) {
    if (error instanceof SimConfigError) return error;
    throw error;
  }
  throw new Error('not refused');
}

describe('checkOptionNames', () => {
  it('takes known names, and no options at all', () => {
    expect(() => checkSimOptions({ scenario: 'default', seed: 's', redact: { headers: ['x'] } }, 'x')).not.toThrow();
    expect(() => checkSimOptions(undefined, 'x')).not.toThrow();
    expect(() => checkOptionNames({}, COVERAGE_OPTIONS, 'coverage')).not.toThrow();
  });

  it('refuses each unknown name, saying which it may have meant, one problem each', () => {
    const error = refusal(() => checkSimOptions({ scenaro: 'x', seeed: 'y', frobnicate: true }, 'startSimulator'));
    expect(error.tag).toBe('SimConfigError');
    expect(error.message).toBe(
      'startSimulator: unknown option "scenaro": did you mean "scenario"?; unknown option "seeed": did you mean "seed"?; unknown option "frobnicate"',
    );
    expect(error.problems).toEqual([
      'unknown option "scenaro": did you mean "scenario"?',
      'unknown option "seeed": did you mean "seed"?',
      'unknown option "frobnicate"',
    ]);
    expect(error.hint).toBe(`startSimulator takes ${Object.keys(SIM_OPTIONS).join(', ')}`);
  });

  it('looks inside redact too', () => {
    expect(refusal(() => checkSimOptions({ redact: { header: ['x'] } }, 'createApp')).message).toBe(
      'createApp redact: unknown option "header": did you mean "headers"?',
    );
  });

  it('refuses options that are not an object', () => {
    expect(refusal(() => checkOptionNames('default', SIM_OPTIONS, 'startSimulator')).message).toBe(
      'startSimulator takes an object of options, got string',
    );
    expect(refusal(() => checkOptionNames([], SIM_OPTIONS, 'startSimulator')).message).toMatch(/got an array$/);
  });

  it('holds for resolveConfig, the public reader of options', () => {
    expect(() => resolveConfig({ maxPartition: 3 } as never)).toThrow(
      'unknown option "maxPartition": did you mean "maxPartitions"?',
    );
  });
});

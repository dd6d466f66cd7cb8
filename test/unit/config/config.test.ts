import { describe, expect, it } from 'vitest';
import { createClock, DEFAULT_START } from '../../../src/state/clock.js';
import { resolveConfig } from '../../../src/config/config.js';
import { SimConfigError } from '../../../src/errors/sim-errors.js';
import { createJournal } from '../../../src/control/journal.js';
import { createEventLog } from '../../../src/state/log.js';

describe('resolveConfig', () => {
  it('binds loopback on 4010 by default', () => {
    expect(resolveConfig()).toMatchObject({ host: '127.0.0.1', port: 4010, dynamic: false, realTime: false });
  });

  it.each([
    [{ port: 70000 }, /port/],
    [{ port: Number('abc') }, /port/],
    [{ seed: '' }, /seed/],
    [{ projectDir: 'relative/dir' }, /projectDir/],
  ])('refuses %o naming the setting', (options, message) => {
    expect(() => resolveConfig(options)).toThrow(SimConfigError);
    expect(() => resolveConfig(options)).toThrow(message);
  });
});

describe('virtual clock', () => {
  it('stands still until advanced', () => {
    const clock = createClock();
    expect(clock.now()).toBe(DEFAULT_START);
    expect(clock.now()).toBe(DEFAULT_START);
    expect(clock.advance(5000)).toBe(DEFAULT_START + 5000);
    expect(() => clock.advance(-1)).toThrow(RangeError);
  });
});

describe('journal', () => {
  it('keeps the most recent entries in order once full', () => {
    const log = createEventLog();
    const journal = createJournal(log, 3);
    for (let i = 1; i <= 5; i++)
      log.append({
        kind: 'exchange',
        id: `req_${i}`,
        time: 0,
        method: 'GET',
        path: '/',
        layer: 'fallback',
        status: 200,
      });
    expect(journal.entries().map((e) => e.id)).toEqual(['req_3', 'req_4', 'req_5']);
  });
});

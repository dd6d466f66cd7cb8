import { expect, it } from 'vitest';
import { isoTime } from '../../../src/text/iso-time.js';

const NINE = Date.UTC(2026, 10, 22, 9, 0, 6);

it('writes every time as toISOString does, across seconds, before 1970 and past year 9999', () => {
  const times = [NINE, NINE + 7, NINE + 42, NINE + 999, NINE + 1000, 0, 5, 1.5, 999.9, -1, -1500.5, 253402300799999];
  times.push(253402300800000, 8.64e15, -8.64e15);
  for (let i = 0; i < 500; i++) times.push(NINE + Math.floor(((i * 7919) % 100_000) * 37.3));
  for (const time of times) expect(isoTime(time)).toBe(new Date(time).toISOString());
});

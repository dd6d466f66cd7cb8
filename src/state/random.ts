/**
 * Seeded randomness and ids. Everything a scenario invents (ids, generated messages) comes from here, so the
 * same seed gives the same world. Ids follow the real server's shape: prefix + 12 hex of time + 14 base62.
 */
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export interface Random {
  /** A float in [0, 1). */
  next(): number;
  int(maxExclusive: number): number;
  pick<T>(items: readonly T[]): T;
}

export function createRandom(seed: string): Random {
  // mulberry32 over a string hash: tiny, fast and good enough for fake data.
  let state = 2166136261;
  for (let i = 0; i < seed.length; i++) state = Math.imul(state ^ seed.charCodeAt(i), 16777619);
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (max) => Math.floor(next() * max),
    pick: (items) => items[Math.floor(next() * items.length)] as (typeof items)[number],
  };
}

export interface IdFactory {
  /** An id ascending with `time`, like message, shell and form ids. */
  ascending(prefix: string, time: number): string;
  /** An id descending with `time`, like session ids (newer sessions sort first). */
  descending(prefix: string, time: number): string;
}

export function createIds(random: Random): IdFactory {
  let counter = 0;
  const tail = () => {
    let out = '';
    for (let i = 0; i < 14; i++) out += BASE62[random.int(62)];
    return out;
  };
  // The real hex part is time-derived; a counter in the low bits keeps ids made at the same instant ordered.
  const hex = (value: number) => (value % 2 ** 48).toString(16).padStart(12, '0');
  return {
    ascending: (prefix, time) => `${prefix}${hex(time * 64 + (counter++ % 64))}${tail()}`,
    descending: (prefix, time) => `${prefix}${hex(2 ** 48 - 1 - (time * 64 + (counter++ % 64)))}${tail()}`,
  };
}

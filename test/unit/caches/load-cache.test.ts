import { readdirSync, rmSync, utimesSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { CACHE_DIR, hashOf, readCached, writeCached } from '../../../src/caches/load-cache.js';

// A name of this test's own, so the real results beside it are neither counted nor removed.
const NAME = `prune-test-${process.pid}`;
const OTHER = `prune-other-${process.pid}`;
const named = (name: string) => readdirSync(CACHE_DIR).filter((file) => file.startsWith(`${name}-`));
const mine = () => named(NAME);

afterEach(() => {
  for (const file of [...mine(), ...named(OTHER)]) rmSync(`${CACHE_DIR}${file}`, { force: true });
});

describe('writeCached', () => {
  it('keeps the newest results of a name and removes older ones', () => {
    const hashes = Array.from({ length: 11 }, (_, i) => hashOf(NAME, String(i)));
    hashes.forEach((hash, i) => {
      writeCached(NAME, hash, { i }, 8);
      // mtimes a second apart, oldest first: the order does not hang on the file system's clock resolution
      const when = new Date(Date.UTC(2026, 0, 1, 0, 0, i));
      utimesSync(`${CACHE_DIR}${NAME}-${hash.slice(0, 16)}.json`, when, when);
    });
    expect(mine()).toHaveLength(8);
    for (const [i, hash] of hashes.entries()) expect(readCached(NAME, hash)).toEqual(i >= 3 ? { i } : undefined);
  });

  it('leaves other names alone', () => {
    writeCached(OTHER, hashOf(OTHER, '1'), 1);
    writeCached(OTHER, hashOf(OTHER, '2'), 2);
    for (let i = 0; i < 3; i++) writeCached(NAME, hashOf(NAME, 'other', String(i)), i, 1);
    expect(mine()).toHaveLength(1);
    expect(readCached(OTHER, hashOf(OTHER, '1'))).toBe(1);
    expect(readCached(OTHER, hashOf(OTHER, '2'))).toBe(2);
  });
});

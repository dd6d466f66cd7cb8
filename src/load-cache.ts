/**
 * A disk cache for work derived from the spec text (parsed YAML, Prism's operation list): start-up reads
 * JSON instead of redoing hundreds of milliseconds of parsing. Keyed by the text's hash, so an edited spec
 * is never served stale; any cache failure just means computing afresh.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const CACHE_DIR = fileURLToPath(new URL('../node_modules/.cache/session-agent-sim/', import.meta.url));

export async function cachedJson<T>(name: string, hash: string, compute: () => T | Promise<T>): Promise<T> {
  const file = `${CACHE_DIR}${name}-${hash.slice(0, 16)}.json`;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    // Not cached yet (or unreadable): compute below.
  }
  const value = await compute();
  try {
    mkdirSync(CACHE_DIR, { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(value));
    renameSync(temp, file); // atomic: a concurrent reader sees the old state or the whole file
  } catch {
    // A read-only install still works, just without the speed-up.
  }
  return value;
}

/**
 * A disk cache for work derived from files (parsed spec, Prism's operation list, loaded scenarios): start-up
 * reads JSON instead of redoing hundreds of milliseconds of parsing and schema compiling. Keyed by a hash of
 * everything the result depends on, so an edited input is never served stale; any cache failure just means
 * computing afresh.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { packagePath } from '../files/package-path.js';
import { writeWholeFile } from '../files/whole-file.js';

export const CACHE_DIR = packagePath(import.meta.url, '../../node_modules/.cache/session-agent-sim/');
const CODE_DIR = packagePath(import.meta.url, '../');

function cacheFile(name: string, hash: string): string {
  return `${CACHE_DIR}${name}-${hash.slice(0, 16)}.json`;
}

export function readCached<T>(name: string, hash: string): T | undefined {
  try {
    return JSON.parse(readFileSync(cacheFile(name, hash), 'utf8')) as T;
  } catch {
    return undefined; // not cached yet, or unreadable
  }
}

/** Keeps the newest `kept` results of `name`, so the cache stays bounded as inputs and builds change. */
export function writeCached(name: string, hash: string, value: unknown, kept = 8): void {
  try {
    mkdirSync(CACHE_DIR, { recursive: true });
    const file = cacheFile(name, hash);
    writeWholeFile(file, JSON.stringify(value));
    const pattern = new RegExp(`^${name}-[0-9a-f]{16}\\.json$`);
    pruneOldest(CACHE_DIR, (entry) => pattern.test(entry), kept, file.slice(CACHE_DIR.length));
  } catch {
    // A read-only install still works, just without the speed-up.
  }
}

/** Removes all but the newest `kept` entries of `dir` that `matches` picks, counting `current` (never removed). */
export function pruneOldest(dir: string, matches: (entry: string) => boolean, kept: number, current: string): void {
  const older = readdirSync(dir)
    .filter((entry) => matches(entry) && entry !== current)
    .map((entry) => ({ path: `${dir}${entry}`, time: statSync(`${dir}${entry}`).mtimeMs }))
    .sort((a, b) => b.time - a.time);
  for (const { path } of older.slice(kept - 1)) rmSync(path, { recursive: true, force: true });
}

export async function cachedJson<T>(name: string, hash: string, compute: () => T | Promise<T>): Promise<T> {
  const cached = readCached<T>(name, hash);
  if (cached !== undefined) return cached;
  const value = await compute();
  writeCached(name, hash, value);
  return value;
}

let codeStamp: string | undefined;

/** Changes whenever the simulator's own code does, so results computed by older code are not reused. */
export function codeVersion(): string {
  codeStamp ??= builtStamp() ?? newestCode();
  return codeStamp;
}

/**
 * The build's own stamp (`scripts/build-cli.mjs`), while the compiled code is still that build's: in a checkout,
 * while dist/cli.js has the time the build saw. An installed package has no sources to rebuild from, and npm's
 * extraction gives its files new times, so there the stamp always holds.
 */
function builtStamp(): string | undefined {
  try {
    const stamp = JSON.parse(readFileSync(`${CODE_DIR}code-stamp.json`, 'utf8')) as { cli?: unknown; code?: unknown };
    if (typeof stamp.code !== 'string') return undefined;
    if (stamp.cli === statSync(`${CODE_DIR}cli.js`).mtimeMs || !existsSync(`${CODE_DIR}../src/`)) return stamp.code;
  } catch {
    // sources run through tsx, or a build without the stamp
  }
  return undefined;
}

function newestCode(): string {
  let newest = 0;
  for (const entry of readdirSync(CODE_DIR, { recursive: true })) {
    const name = String(entry);
    // The code that runs: compiled .js, or .ts sources run through tsx (declarations and maps change nothing).
    if (name.endsWith('.js') || (name.endsWith('.ts') && !name.endsWith('.d.ts')))
      newest = Math.max(newest, statSync(`${CODE_DIR}${name}`).mtimeMs);
  }
  return String(newest);
}

export function hashOf(...parts: string[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\0');
  return hash.digest('hex');
}

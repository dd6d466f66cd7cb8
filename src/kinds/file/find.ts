/**
 * `GET /api/fs/find`: every entry below a directory of the tree, ranked against a query. The real server's
 * ranking is typo-tolerant (it also returns entries that hold none of the query's letters); the simulator's
 * keeps what a file picker needs, in an order a person can predict: a name equal to the query, then one that
 * starts with it, one that contains it, a path that contains it, a path holding its letters in order; shorter
 * paths first within a rank. An empty query lists everything, shortest first, as the real server does.
 */
import { queryInteger } from '../../openapi/query-integer.js';
import type { FileTree } from './types.js';

export type Entry = { path: string; type: 'file' | 'directory' };

/** Entries strictly below `prefix` (a tree key: '' or ending in '/'), relative to it; `.git/` is never searched. */
export function entriesBelow(tree: FileTree, prefix: string): Entry[] {
  const found: Entry[] = [];
  for (const entries of Object.values(tree)) {
    for (const entry of entries) {
      // The directory itself is the location, not one of its entries (the real server lists it as `/`).
      if (!entry.path.startsWith(prefix) || entry.path === prefix || entry.path.startsWith('.git/')) continue;
      found.push({ path: entry.path.slice(prefix.length), type: entry.type });
    }
  }
  return found;
}

/** The `limit` query as the real server reads it: a whole number above 0, or 400 with its messages. */
export function readLimit(raw: unknown): number | undefined {
  return queryInteger(raw, 'limit', 1);
}

/** The rank of a match (lower is better), or undefined when the path does not hold the query. */
function rankOf(entry: Entry, query: string): number | undefined {
  const path = entry.path.replace(/\/$/, '').toLowerCase();
  const name = path.slice(path.lastIndexOf('/') + 1);
  if (name === query) return 0;
  if (name.startsWith(query)) return 1;
  if (name.includes(query)) return 2;
  if (path.includes(query)) return 3;
  let at = 0;
  for (const char of path) if (char === query[at]) at++;
  return at === query.length ? 4 : undefined;
}

export function findEntries(entries: Entry[], query: string, type?: 'file' | 'directory', limit?: number): Entry[] {
  const wanted = query.trim().toLowerCase();
  const ranked = entries
    .filter((e) => type === undefined || e.type === type)
    .map((entry) => ({ entry, rank: wanted ? rankOf(entry, wanted) : 0 }))
    .filter((r): r is { entry: Entry; rank: number } => r.rank !== undefined)
    .sort(
      (a, b) =>
        a.rank - b.rank ||
        a.entry.path.length - b.entry.path.length ||
        (a.entry.path < b.entry.path ? -1 : a.entry.path > b.entry.path ? 1 : 0),
    );
  return ranked.slice(0, limit).map((r) => r.entry);
}

/**
 * `GET /api/session`: the sessions of the world in the order asked (most recently updated first by default),
 * one page at a time, with cursors as the real server makes them: unpadded base64url of JSON naming the
 * filters, the order and an anchor (the session at the page's edge, its time and the direction to go).
 */
import { InvalidCursorError } from '../../errors/errors.js';
import type { ProjectContext } from '../../openapi/location.js';
import { queryInteger } from '../../openapi/query-integer.js';
import type { World } from '../../state/world.js';
import { locationOf, sessionV2Info, titleOf, updatedAt } from './info.js';
import type { SessionState } from './types.js';

type JsonObject = Record<string, unknown>;
type Order = 'asc' | 'desc';
type Direction = 'previous' | 'next';

export const DEFAULT_SESSIONS_LIMIT = 50;

interface Filters {
  search?: string;
  directory?: string;
  workspace?: string;
}

interface SessionCursor extends Filters {
  order?: Order;
  anchor: { id: string; time: number; direction: Direction };
}

export interface SessionListQuery extends Filters {
  limit?: number | string;
  order?: Order;
  cursor?: string;
}

function encode(cursor: SessionCursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decode(text: string): SessionCursor {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidCursorError('Invalid cursor');
  }
  const cursor = value as Partial<SessionCursor> | null;
  const anchor = cursor?.anchor;
  const valid =
    typeof anchor?.id === 'string' &&
    typeof anchor.time === 'number' &&
    (anchor.direction === 'previous' || anchor.direction === 'next') &&
    (cursor?.order === undefined || cursor.order === 'asc' || cursor.order === 'desc');
  if (!valid) throw new InvalidCursorError('Invalid cursor');
  return cursor as SessionCursor;
}

/**
 * Oldest first: by time, then by id, so sessions updated at the same instant still have one order. Session
 * ids descend with time (a newer session's sorts first), so between equals the greater id is the older.
 */
function before(a: { time: number; id: string }, b: { time: number; id: string }): boolean {
  return a.time < b.time || (a.time === b.time && a.id > b.id);
}

export interface SessionRow {
  time: number;
  id: string;
  state: SessionState;
}

/** The sessions that exist now and match the filters, by `time.updated` (then id) in the order asked. */
export function sessionRows(world: World, project: ProjectContext, filters: Filters, order: Order): SessionRow[] {
  const needle = filters.search?.toLowerCase();
  const rows: SessionRow[] = [];
  for (const state of world.sessions.values()) {
    if (state.status === 'scheduled') continue;
    const location = locationOf(state, project);
    if (filters.directory !== undefined && location.directory !== filters.directory) continue;
    if (filters.workspace !== undefined && location.workspaceID !== filters.workspace) continue;
    if (needle !== undefined && !titleOf(world, state).toLowerCase().includes(needle)) continue;
    rows.push({ time: updatedAt(world, state), id: state.definition.id, state });
  }
  rows.sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
  if (order === 'desc') rows.reverse();
  return rows;
}

export function listSessions(world: World, project: ProjectContext, query: SessionListQuery): JsonObject {
  if (query.cursor !== undefined && (query.order !== undefined || query.search !== undefined))
    throw new InvalidCursorError('Cursor cannot be combined with order or filters');
  const cursor = query.cursor === undefined ? undefined : decode(query.cursor);
  const limit = queryInteger(query.limit, 'limit', 1) ?? DEFAULT_SESSIONS_LIMIT;
  const order: Order = cursor?.order ?? query.order ?? 'desc';
  const filters: Filters = cursor
    ? { search: cursor.search, directory: cursor.directory, workspace: cursor.workspace }
    : { search: query.search, directory: query.directory, workspace: query.workspace };
  const rows = sessionRows(world, project, filters, order);

  let start = 0;
  let end = Math.min(rows.length, limit);
  if (cursor) {
    const { anchor } = cursor;
    // Sessions past the anchor in the list's order (next), or before it (previous), whether or not it still exists.
    const after = (row: { time: number; id: string }) => (order === 'asc' ? before(anchor, row) : before(row, anchor));
    if (anchor.direction === 'next') {
      start = rows.findIndex(after);
      if (start < 0) start = rows.length;
      end = Math.min(rows.length, start + limit);
    } else {
      end = rows.findIndex((row) => row.id === anchor.id || after(row));
      if (end < 0) end = rows.length;
      start = Math.max(0, end - limit);
    }
  }
  const page = rows.slice(start, end);
  const edge = (row: { time: number; id: string }, direction: Direction) =>
    encode({
      ...(order === 'asc' ? { order } : {}),
      ...Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined)),
      anchor: { id: row.id, time: row.time, direction },
    });
  const first = page[0];
  const last = page.at(-1);
  return {
    data: page.map((row) => sessionV2Info(world, row.state, project)),
    cursor: first && last ? { previous: edge(first, 'previous'), next: edge(last, 'next') } : {},
  };
}

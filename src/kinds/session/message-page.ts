/**
 * One page of `GET /api/session/{sessionID}/message`, cut from a session's messages held oldest first. Follows the
 * real server: newest first by default, cursors that name a message and a direction, both cursors on every non-empty
 * page and none on an empty one.
 */
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, decodeCursor, encodeCursor, type Order } from './message-cursor.js';

export interface PagedMessage {
  id: string;
  time: { created: number };
}

export interface PageQuery {
  limit?: string | null;
  order?: 'asc' | 'desc' | null;
  cursor?: string | null;
}

export interface MessagePage<M> {
  data: M[];
  cursor: { previous?: string; next?: string };
}

/**
 * messages: oldest first. The query has already been validated (limit is 1..200 digits, cursor decodes, not combined
 * with order).
 */
export function pageMessages<M extends PagedMessage>(messages: readonly M[], query: PageQuery): MessagePage<M> {
  const limit = pageSize(query.limit);

  if (query.cursor === undefined || query.cursor === null) {
    return pageOf(messages, query.order ?? 'desc', 0, limit);
  }

  const cursor = decodeCursor(query.cursor);
  // Validation should have answered 400 already; failing loudly beats silently serving a page the real server never would.
  if (!cursor) throw new TypeError('pageMessages: cursor does not decode; validate the query first');

  const chronological = indexOf(messages, cursor.id);
  if (chronological === undefined) return emptyPage();

  const position = cursor.order === 'asc' ? chronological : messages.length - 1 - chronological;
  return cursor.direction === 'next'
    ? pageOf(messages, cursor.order, position + 1, position + 1 + limit)
    : pageOf(messages, cursor.order, Math.max(0, position - limit), position);
}

function pageSize(limit: string | null | undefined): number {
  if (limit === undefined || limit === null || limit === '') return DEFAULT_PAGE_SIZE;
  const parsed = Number.parseInt(limit, 10);
  // Clamped rather than trusted so a caller that skipped validation still gets a bounded, non-empty page.
  return Number.isFinite(parsed) ? Math.min(MAX_PAGE_SIZE, Math.max(1, parsed)) : DEFAULT_PAGE_SIZE;
}

/** Display positions [start, end) in `order`, mapped onto the oldest-first array without reversing all of it. */
function pageOf<M extends PagedMessage>(
  messages: readonly M[],
  order: Order,
  start: number,
  end: number,
): MessagePage<M> {
  const total = messages.length;
  // A negative slice bound would count from the end, so both bounds must stay within the array.
  const from = Math.min(start, total);
  const to = Math.min(end, total);
  const data = order === 'asc' ? messages.slice(from, to) : messages.slice(total - to, total - from).reverse();

  const first = data[0];
  const last = data[data.length - 1];
  if (!first || !last) return emptyPage();
  return {
    data,
    cursor: {
      previous: encodeCursor({ id: first.id, order, direction: 'previous' }),
      next: encodeCursor({ id: last.id, order, direction: 'next' }),
    },
  };
}

// A factory, not a shared constant, so a caller that mutates one response cannot corrupt the next.
function emptyPage<M>(): MessagePage<M> {
  return { data: [], cursor: {} };
}

interface IdIndex {
  positions: Map<string, number>;
  /** How many leading messages `positions` covers. */
  covered: number;
}

// Keyed by the array itself so the index dies with the session's list and is built once, not scanned per request.
const indexes = new WeakMap<readonly PagedMessage[], IdIndex>();

/**
 * Session lists grow by appending and shrink when a revert truncates them, so the index extends itself for appended
 * messages and is rebuilt when the list got shorter or an entry no longer sits where the index says.
 */
function indexOf(messages: readonly PagedMessage[], id: string): number | undefined {
  let index = indexes.get(messages);
  if (!index || index.covered > messages.length) {
    index = { positions: new Map(), covered: 0 };
    indexes.set(messages, index);
  }
  extend(index, messages);

  const found = index.positions.get(id);
  if (found === undefined || messages[found]?.id === id) return found;

  index.positions.clear();
  index.covered = 0;
  extend(index, messages);
  return index.positions.get(id);
}

function extend(index: IdIndex, messages: readonly PagedMessage[]): void {
  for (let i = index.covered; i < messages.length; i++) {
    const message = messages[i];
    if (message) index.positions.set(message.id, i);
  }
  index.covered = messages.length;
}

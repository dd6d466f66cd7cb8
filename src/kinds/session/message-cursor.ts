/**
 * Message-listing cursors, in the real server's format: unpadded base64url of
 * `{"id": <message id>, "order": "asc"|"desc", "direction": "previous"|"next"}`. Opaque to clients, but a
 * decodable format lets users and recordings stay compatible with the real service.
 */
import type { Violation } from '../../openapi/violation.js';

export type Order = 'asc' | 'desc';
export type Direction = 'previous' | 'next';

export interface MessageCursor {
  id: string;
  order: Order;
  direction: Direction;
}

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

export function encodeCursor(cursor: MessageCursor): string {
  return Buffer.from(JSON.stringify({ id: cursor.id, order: cursor.order, direction: cursor.direction })).toString(
    'base64url',
  );
}

export function decodeCursor(value: string): MessageCursor | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(value)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { id, order, direction } = parsed as Record<string, unknown>;
  if (typeof id !== 'string' || !id.startsWith('msg_')) return undefined;
  if (order !== 'asc' && order !== 'desc') return undefined;
  if (direction !== 'previous' && direction !== 'next') return undefined;
  return { id, order, direction };
}

/** The rules of the message listing that its schema cannot state. */
export function checkMessageQuery(query: Record<string, unknown>): Violation[] {
  const cursor = query.cursor;
  if (typeof cursor !== 'string') return [];
  if (query.order !== undefined && query.order !== null) {
    return [{ side: 'request', in: 'query', field: 'cursor', message: 'Cursor cannot be combined with order' }];
  }
  if (!decodeCursor(cursor)) return [{ side: 'request', in: 'query', field: 'cursor', message: 'Invalid cursor' }];
  return [];
}

import { describe, expect, it } from 'vitest';
import { checkMessageQuery, decodeCursor, encodeCursor } from '../../../../src/kinds/session/message-cursor.js';

describe('message cursors', () => {
  it('round-trip in the real server format (unpadded base64url JSON)', () => {
    const cursor = { id: 'msg_203a538f90011jBWBJuVx3DB0W', order: 'desc', direction: 'next' } as const;
    const encoded = encodeCursor(cursor);
    // The real server's cursor for the same position, from a recorded exchange.
    expect(encoded).toBe(
      'eyJpZCI6Im1zZ18yMDNhNTM4ZjkwMDExakJXQkp1VngzREIwVyIsIm9yZGVyIjoiZGVzYyIsImRpcmVjdGlvbiI6Im5leHQifQ',
    );
    expect(decodeCursor(encoded)).toEqual(cursor);
  });

  it.each([
    ['not base64url', 'abc def'],
    ['not JSON', Buffer.from('hello').toString('base64url')],
    ['not a message id', encodeCursor({ id: 'ses_1', order: 'asc', direction: 'next' })],
    [
      'an unknown order',
      Buffer.from(JSON.stringify({ id: 'msg_1', order: 'up', direction: 'next' })).toString('base64url'),
    ],
  ])('rejects a cursor that is %s', (_why, value) => {
    expect(decodeCursor(value)).toBeUndefined();
  });

  it('forbids combining cursor and order, and names the cursor', () => {
    const cursor = encodeCursor({ id: 'msg_1', order: 'asc', direction: 'previous' });
    expect(checkMessageQuery({ cursor, order: 'asc' })).toEqual([
      { side: 'request', in: 'query', field: 'cursor', message: 'Cursor cannot be combined with order' },
    ]);
    expect(checkMessageQuery({ cursor })).toEqual([]);
    expect(checkMessageQuery({ order: 'asc' })).toEqual([]);
  });
});

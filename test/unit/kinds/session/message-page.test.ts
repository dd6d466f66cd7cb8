import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '../../../../src/kinds/session/message-cursor.js';
import {
  pageMessages,
  type MessagePage,
  type PagedMessage,
  type PageQuery,
} from '../../../../src/kinds/session/message-page.js';

interface TestMessage extends PagedMessage {
  text: string;
}

/** Ids sort like their creation order, so an id's number is its chronological position. */
function conversation(count: number): TestMessage[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `msg_${String(i).padStart(4, '0')}`,
    time: { created: 1795357480000 + i * 1000 },
    text: `message ${i}`,
  }));
}

function ids(page: MessagePage<PagedMessage>): string[] {
  return page.data.map((m) => m.id);
}

/** Chronological positions from..to inclusive, in the order given (to < from counts down). */
function idRange(from: number, to: number): string[] {
  const step = from <= to ? 1 : -1;
  return Array.from({ length: Math.abs(to - from) + 1 }, (_, k) => `msg_${String(from + k * step).padStart(4, '0')}`);
}

function followNext(
  messages: readonly TestMessage[],
  first: PageQuery,
  limit: string,
): { visited: string[]; pages: MessagePage<TestMessage>[] } {
  const pages = [pageMessages(messages, first)];
  for (let next = pages[0]?.cursor.next; next !== undefined; next = pages[pages.length - 1]?.cursor.next) {
    pages.push(pageMessages(messages, { limit, cursor: next }));
  }
  return { visited: pages.flatMap(ids), pages };
}

const messages = conversation(250);

describe('pageMessages', () => {
  it('answers the 50 newest messages, newest first, when the query is empty', () => {
    const page = pageMessages(messages, {});
    expect(ids(page)).toEqual(idRange(249, 200));
    expect(decodeCursor(page.cursor.previous ?? '')).toEqual({ id: 'msg_0249', order: 'desc', direction: 'previous' });
    expect(decodeCursor(page.cursor.next ?? '')).toEqual({ id: 'msg_0200', order: 'desc', direction: 'next' });
  });

  it('treats null parameters like omitted ones', () => {
    expect(pageMessages(messages, { limit: null, order: null, cursor: null })).toEqual(pageMessages(messages, {}));
  });

  it('answers the oldest messages first when the first page asks for asc', () => {
    const page = pageMessages(messages, { order: 'asc' });
    expect(ids(page)).toEqual(idRange(0, 49));
    expect(decodeCursor(page.cursor.next ?? '')).toEqual({ id: 'msg_0049', order: 'asc', direction: 'next' });
  });

  it.each([
    ['desc', idRange(249, 0)],
    ['asc', idRange(0, 249)],
  ] as const)(
    'visits every message exactly once in %s order by following next, then ends on an empty page',
    (order, expected) => {
      // 60 does not divide 250, so the last non-empty page is a short one.
      const { visited, pages } = followNext(messages, { order, limit: '60' }, '60');
      expect(visited).toEqual(expected);
      expect(pages.map((p) => p.data.length)).toEqual([60, 60, 60, 60, 10, 0]);
      expect(pages[pages.length - 1]).toStrictEqual({ data: [], cursor: {} });
    },
  );

  it.each(['desc', 'asc'] as const)('returns page 1 again when following previous from page 2 in %s order', (order) => {
    const page1 = pageMessages(messages, { order, limit: '20' });
    const page2 = pageMessages(messages, { limit: '20', cursor: page1.cursor.next });
    const back = pageMessages(messages, { limit: '20', cursor: page2.cursor.previous });
    expect(ids(page2)).not.toEqual(ids(page1));
    expect(back).toEqual(page1);
  });

  it('returns only the messages that precede the cursor when fewer than limit remain before it', () => {
    const cursor = encodeCursor({ id: 'msg_0246', order: 'desc', direction: 'previous' });
    expect(ids(pageMessages(messages, { limit: '10', cursor }))).toEqual(['msg_0249', 'msg_0248', 'msg_0247']);
  });

  it('answers an empty page when following previous from the first page', () => {
    const first = pageMessages(messages, { order: 'asc' });
    expect(pageMessages(messages, { cursor: first.cursor.previous })).toStrictEqual({ data: [], cursor: {} });
  });

  it.each([
    ['1', 1],
    ['7', 7],
    ['200', 200],
  ])('honours limit=%s on first and following pages', (limit, size) => {
    const first = pageMessages(messages, { limit });
    expect(first.data).toHaveLength(size);
    expect(pageMessages(messages, { limit, cursor: first.cursor.next }).data).toHaveLength(Math.min(size, 250 - size));
  });

  it('uses the default page size when following a cursor without a limit', () => {
    const first = pageMessages(messages, { limit: '10' });
    expect(ids(pageMessages(messages, { cursor: first.cursor.next }))).toEqual(idRange(239, 190));
  });

  it.each(['next', 'previous'] as const)(
    'answers an empty page for a well-formed %s cursor naming an unknown message',
    (direction) => {
      const cursor = encodeCursor({ id: 'msg_doesnotexist', order: 'desc', direction });
      expect(pageMessages(messages, { cursor })).toStrictEqual({ data: [], cursor: {} });
    },
  );

  it('answers an empty page without cursors for a session without messages', () => {
    const page = pageMessages([], {});
    expect(page).toStrictEqual({ data: [], cursor: {} });
    expect(Object.keys(page.cursor)).toEqual([]);
  });

  it('emits the same cursors as the real server for the recorded limit=2 exchange', () => {
    // Appendix A: three agent switches, read with limit=2; the oldest id was not recorded.
    const recorded = [
      { id: 'msg_203a538d0001aaaaaaaaaaaaaa', time: { created: 1795357489360 } },
      { id: 'msg_203a538f90011jBWBJuVx3DB0W', time: { created: 1795357489401 } },
      { id: 'msg_203a5391e001NIQj0scsULeI4p', time: { created: 1795357489439 } },
    ];
    const page = pageMessages(recorded, { limit: '2' });
    expect(ids(page)).toEqual(['msg_203a5391e001NIQj0scsULeI4p', 'msg_203a538f90011jBWBJuVx3DB0W']);
    expect(page.cursor).toEqual({
      previous:
        'eyJpZCI6Im1zZ18yMDNhNTM5MWUwMDFOSVFqMHNjc1VMZUk0cCIsIm9yZGVyIjoiZGVzYyIsImRpcmVjdGlvbiI6InByZXZpb3VzIn0',
      next: 'eyJpZCI6Im1zZ18yMDNhNTM4ZjkwMDExakJXQkp1VngzREIwVyIsIm9yZGVyIjoiZGVzYyIsImRpcmVjdGlvbiI6Im5leHQifQ',
    });
  });

  it('encodes cursors as unpadded base64url of exactly {id, order, direction}', () => {
    const page = pageMessages(messages, { order: 'asc', limit: '3' });
    for (const [value, id, direction] of [
      [page.cursor.previous, 'msg_0000', 'previous'],
      [page.cursor.next, 'msg_0002', 'next'],
    ] as const) {
      expect(value).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(Buffer.from(value ?? '', 'base64url').toString('utf8')).toBe(
        JSON.stringify({ id, order: 'asc', direction }),
      );
    }
  });

  it('reaches messages appended after the list was first paged', () => {
    const growing = conversation(5);
    const last = pageMessages(growing, { order: 'asc' });
    growing.push(...conversation(8).slice(5));
    expect(ids(pageMessages(growing, { cursor: last.cursor.next }))).toEqual(idRange(5, 7));
  });

  it('forgets messages removed from the end of the list after it was first paged', () => {
    const shrinking = conversation(10);
    const page = pageMessages(shrinking, { order: 'asc', limit: '9' });
    shrinking.splice(4);
    expect(pageMessages(shrinking, { cursor: page.cursor.next })).toStrictEqual({ data: [], cursor: {} });
    const atThree = encodeCursor({ id: 'msg_0003', order: 'asc', direction: 'previous' });
    expect(ids(pageMessages(shrinking, { cursor: atThree }))).toEqual(idRange(0, 2));
  });

  it('finds a cursor in a few thousand messages without rescanning them on each request', () => {
    let idReads = 0;
    const many = conversation(5000).map((m) => {
      const { id, ...rest } = m;
      return Object.defineProperty(rest, 'id', { enumerable: true, get: () => (idReads++, id) }) as TestMessage;
    });
    const first = pageMessages(many, { limit: '10' });
    pageMessages(many, { cursor: first.cursor.next });
    idReads = 0;

    const middle = encodeCursor({ id: 'msg_2500', order: 'desc', direction: 'next' });
    expect(ids(pageMessages(many, { limit: '3', cursor: middle }))).toEqual(idRange(2499, 2497));
    // A per-call scan would read thousands of ids; the cached index needs only the hit check and the two cursors.
    expect(idReads).toBeLessThan(10);
  });
});

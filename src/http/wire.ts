/**
 * What both ends of the simulator's own HTTP/1.1 (the lean server and the lean client) write the same way: the
 * characters a header may hold, and a head with its bytes in one write.
 */
import type { Socket } from 'node:net';

/** What a header's name may be (RFC 9110's token). */
export const HEADER_NAME = /^[\^_`a-zA-Z\-0-9!#$%&'*+.|~]+$/;
/** What a header's value may not hold, as Node checks it before it writes one. */
export const FORBIDDEN_VALUE = /[^\t\x20-\x7e\x80-\xff]/;

/**
 * The last head read on one connection, kept by its bytes: a client (a poll, a load generator) sends the same
 * head again and again, and an upstream answers with the same head until its `Date` moves on. Compared byte
 * for byte, a head read again costs no string and no hash, as a head kept by its text would.
 */
export interface LastHead<T> {
  bytes?: Buffer;
  value?: T;
  /** Where `bytes` are kept: reused for the connection's next head while it fits. */
  store?: Buffer;
}

/** What the head in `bytes` up to `end` was read as, when it is the connection's last head again. */
export function sameHead<T>(last: LastHead<T>, bytes: Buffer, end: number): T | undefined {
  const kept = last.bytes;
  return kept !== undefined && kept.length === end && bytes.compare(kept, 0, end, 0, end) === 0
    ? last.value
    : undefined;
}

/** Keeps `value` as what the head in `bytes` up to `end` reads as, in bytes of its own. */
export function keepHead<T>(last: LastHead<T>, bytes: Buffer, end: number, value: T): T {
  // Not a view of the read: that would hold the whole read (and a pooled copy its slab) for the connection's life.
  // A client whose heads differ (a page asking for one path after another) reuses the same store.
  if (last.store === undefined || last.store.length < end) last.store = Buffer.allocUnsafeSlow(Math.max(end, 256));
  bytes.copy(last.store, 0, 0, end);
  last.bytes = last.store.subarray(0, end);
  last.value = value;
  return value;
}

/** Bodies up to this size go out in the same write as their head. */
const ONE_WRITE_BYTES = 65536;

/**
 * A Latin-1 head and its bytes, in one write while the body is small: corked, the two would go out as a
 * `writev`, which costs more system time than one write under load. Latin-1 keeps every byte as it is.
 */
export function writeHeadAndBytes(socket: Socket, head: string, body: Buffer | undefined): void {
  if (!body?.length) socket.write(head, 'latin1');
  else if (body.length <= ONE_WRITE_BYTES) socket.write(head + body.toString('latin1'), 'latin1');
  else {
    socket.cork();
    socket.write(head, 'latin1');
    socket.write(body);
    socket.uncork();
  }
}

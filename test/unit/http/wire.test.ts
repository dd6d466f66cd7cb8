import { describe, expect, it } from 'vitest';
import { keepHead, sameHead, type LastHead } from '../../../src/http/wire.js';

const HEAD = 'GET /api/shell/sh_1 HTTP/1.1\r\nhost: sim\r\n\r\n';
const endOf = (bytes: Buffer) => bytes.indexOf('\r\n\r\n');

describe('sameHead and keepHead', () => {
  it('know no head before one is kept', () => {
    const bytes = Buffer.from(HEAD);
    expect(sameHead({}, bytes, endOf(bytes))).toBeUndefined();
  });

  it('give what the same bytes were read as, from another read with a body after them', () => {
    const last: LastHead<string> = {};
    const first = Buffer.from(HEAD);
    expect(keepHead(last, first, endOf(first), 'read')).toBe('read');
    const again = Buffer.from(`${HEAD}{"a":1}`);
    expect(sameHead(last, again, endOf(again))).toBe('read');
  });

  it('tell apart a head of the same length and one of another length', () => {
    const last: LastHead<string> = {};
    const first = Buffer.from(HEAD);
    keepHead(last, first, endOf(first), 'read');
    const other = Buffer.from(HEAD.replace('sh_1', 'sh_2'));
    expect(other.length).toBe(first.length);
    expect(sameHead(last, other, endOf(other))).toBeUndefined();
    const longer = Buffer.from(HEAD.replace('sh_1', 'sh_10'));
    expect(sameHead(last, longer, endOf(longer))).toBeUndefined();
  });

  it('keep a shorter head in the same store, and tell it from the longer one before', () => {
    const last: LastHead<string> = {};
    const long = Buffer.from(HEAD.replace('sh_1', 'sh_1000'));
    keepHead(last, long, endOf(long), 'long');
    const store = last.store;
    const short = Buffer.from(HEAD);
    keepHead(last, short, endOf(short), 'short');
    expect(last.store).toBe(store);
    expect(sameHead(last, short, endOf(short))).toBe('short');
    expect(sameHead(last, long, endOf(long))).toBeUndefined();
  });

  it('keep bytes of their own, whatever becomes of the read', () => {
    const last: LastHead<string> = {};
    const read = Buffer.from(HEAD);
    keepHead(last, read, endOf(read), 'read');
    read.fill(0x20);
    const again = Buffer.from(HEAD);
    expect(sameHead(last, again, endOf(again))).toBe('read');
  });
});

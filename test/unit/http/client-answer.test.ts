import { describe, expect, it } from 'vitest';
import { answerHead, framingOf, idleLimit, keptAlive, type Framing } from '../../../src/http/client-answer.js';

const head = (lines: string[]) => answerHead(lines.join('\r\n'));

/** Feeds the pieces in turn: the body read, whether it ended, and what came after it. */
function read(framing: Framing, pieces: string[]): { body: string; done: boolean; rest?: string } {
  const out: Buffer[] = [];
  for (const piece of pieces) {
    const { done, rest } = framing.feed(Buffer.from(piece, 'latin1'), out);
    if (done) return { body: Buffer.concat(out).toString('latin1'), done, rest: rest?.toString('latin1') };
  }
  return { body: Buffer.concat(out).toString('latin1'), done: false };
}

describe('answerHead', () => {
  it('reads the status and the headers, names lowercased, repeated ones as Node gives them', () => {
    const read = head([
      'HTTP/1.1 201 Created',
      'Content-Type: application/json',
      'X-A: 1',
      'x-a:  2 ',
      'Set-Cookie: a=1',
    ]);
    expect(read).toEqual({
      major11: true,
      status: 201,
      headers: { 'content-type': 'application/json', 'x-a': '1, 2', 'set-cookie': ['a=1'] },
    });
  });

  it('gives the same head for the same text, and a new one for another', () => {
    const text = ['HTTP/1.1 200 OK', 'Date: Thu, 26 Nov 2026 12:00:00 GMT'];
    expect(head(text)).toBe(head(text));
    expect(head(['HTTP/1.1 200 OK', 'Date: Thu, 26 Nov 2026 12:00:01 GMT'])).not.toBe(head(text));
  });

  it.each([
    ['no status line', ['SMTP ready']],
    ['a header without a colon', ['HTTP/1.1 200 OK', 'broken']],
    ['a header name with a space', ['HTTP/1.1 200 OK', 'X A: 1']],
    ['a folded header', ['HTTP/1.1 200 OK', 'X-A: 1', ' 2']],
  ])('refuses %s', (_what, lines) => {
    expect(() => head(lines)).toThrow(expect.objectContaining({ code: 'EBADANSWER', answered: true }));
  });
});

describe('framingOf', () => {
  it('reads no body for HEAD, 204 and 304, whatever the length says', () => {
    const withLength = head(['HTTP/1.1 200 OK', 'Content-Length: 5']);
    expect(read(framingOf('HEAD', withLength), ['next'])).toEqual({ body: '', done: true, rest: 'next' });
    expect(read(framingOf('GET', head(['HTTP/1.1 204 No Content'])), [''])).toEqual({ body: '', done: true });
    expect(read(framingOf('GET', head(['HTTP/1.1 304 Not Modified'])), [''])).toEqual({ body: '', done: true });
  });

  it('reads as many bytes as the length says, and leaves the rest', () => {
    const framing = framingOf('GET', head(['HTTP/1.1 200 OK', 'Content-Length: 5']));
    expect(read(framing, ['ab', 'cdeXY'])).toEqual({ body: 'abcde', done: true, rest: 'XY' });
    expect(() => framingOf('GET', head(['HTTP/1.1 200 OK', 'Content-Length: 1e3']))).toThrow(
      expect.objectContaining({ code: 'EBADANSWER' }),
    );
  });

  it('decodes chunks split anywhere, with extensions and trailers', () => {
    const framing = framingOf('GET', head(['HTTP/1.1 200 OK', 'Transfer-Encoding: chunked']));
    const wire = '3;x=1\r\nabc\r\nA\r\n0123456789\r\n0\r\nX-T: 1\r\n\r\nnext';
    // Every byte on its own: sizes, data and line ends each cut at every place.
    expect(read(framing, [...wire])).toEqual({ body: 'abc0123456789', done: true });
    expect(read(framingOf('GET', head(['HTTP/1.1 200 OK', 'Transfer-Encoding: chunked'])), [wire])).toEqual({
      body: 'abc0123456789',
      done: true,
      rest: 'next',
    });
  });

  it('refuses a chunk size that is no number, and a chunk longer than its size', () => {
    const chunked = () => framingOf('GET', head(['HTTP/1.1 200 OK', 'Transfer-Encoding: chunked']));
    expect(() => read(chunked(), ['zz\r\n'])).toThrow(expect.objectContaining({ code: 'EBADANSWER' }));
    expect(() => read(chunked(), ['2\r\nabc\r\n'])).toThrow(expect.objectContaining({ code: 'EBADANSWER' }));
  });

  it('reads up to the close when nothing else says where the body ends', () => {
    for (const lines of [['HTTP/1.1 200 OK'], ['HTTP/1.1 200 OK', 'Transfer-Encoding: gzip']]) {
      const framing = framingOf('GET', head(lines));
      expect(framing.endsAtClose).toBe(true);
      expect(read(framing, ['all', ' of it'])).toEqual({ body: 'all of it', done: false });
    }
  });
});

describe('keptAlive and idleLimit', () => {
  it('keeps an HTTP/1.1 connection unless it says close; never an HTTP/1.0 one', () => {
    expect(keptAlive(head(['HTTP/1.1 200 OK']))).toBe(true);
    expect(keptAlive(head(['HTTP/1.1 200 OK', 'Connection: Close']))).toBe(false);
    expect(keptAlive(head(['HTTP/1.0 200 OK', 'Connection: keep-alive']))).toBe(false);
  });

  it("takes a second off the server's own keep-alive timeout", () => {
    expect(idleLimit(head(['HTTP/1.1 200 OK', 'Keep-Alive: timeout=5, max=100']))).toBe(4000);
    expect(idleLimit(head(['HTTP/1.1 200 OK', 'Keep-Alive: timeout=0']))).toBe(0);
    expect(idleLimit(head(['HTTP/1.1 200 OK']))).toBeUndefined();
  });
});

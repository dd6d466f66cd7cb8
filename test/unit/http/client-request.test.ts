import { describe, expect, it } from 'vitest';
import { mayPipeline, requestHead } from '../../../src/http/client-request.js';

describe('requestHead', () => {
  it('writes the request line, the host and the headers, and a length where a body is expected', () => {
    expect(requestHead({ method: 'GET', path: '/a?b=1', headers: { accept: 'application/json' } }, 'h:1')).toBe(
      'GET /a?b=1 HTTP/1.1\r\nhost: h:1\r\naccept: application/json\r\n\r\n',
    );
    expect(requestHead({ method: 'POST', path: '/p', headers: {} }, 'h:1')).toBe(
      'POST /p HTTP/1.1\r\nhost: h:1\r\ncontent-length: 0\r\n\r\n',
    );
    expect(requestHead({ method: 'DELETE', path: '/d', headers: {}, body: Buffer.from('{}') }, 'h:1')).toContain(
      'content-length: 2\r\n',
    );
  });

  it('refuses what would break the request apart', () => {
    expect(() => requestHead({ method: 'GET', path: '/a b', headers: {} }, 'h')).toThrow(/path/);
    expect(() => requestHead({ method: 'GET', path: '/', headers: { 'x-a': 'b\r\nc: d' } }, 'h')).toThrow(/x-a/);
    expect(() => requestHead({ method: 'GET', path: '/', headers: { 'x a': 'b' } }, 'h')).toThrow(/x a/);
  });
});

describe('mayPipeline', () => {
  it('lets only a GET or HEAD without a body and without an event stream share a connection', () => {
    const get = { method: 'GET', path: '/', headers: {} };
    expect(mayPipeline(get)).toBe(true);
    expect(mayPipeline({ ...get, method: 'HEAD' })).toBe(true);
    expect(mayPipeline({ ...get, method: 'DELETE' })).toBe(false);
    expect(mayPipeline({ ...get, method: 'POST' })).toBe(false);
    expect(mayPipeline({ ...get, body: Buffer.from('x') })).toBe(false);
    expect(mayPipeline({ ...get, headers: { accept: 'text/event-stream' } })).toBe(false);
  });
});

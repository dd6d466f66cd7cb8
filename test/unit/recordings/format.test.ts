import { describe, expect, it } from 'vitest';
import { parseRecording, RECORDING_FORMAT } from '../../../src/recordings/format.js';

describe('reading a recording', () => {
  it('reads JSON and YAML documents, with or without a first marker, and skips empty and comment-only ones', () => {
    for (const lead of ['', '---\n', '---  \n']) {
      const text = [
        `${lead}{"format": "${RECORDING_FORMAT}", "specHash": "x"}`,
        '--- \t',
        '{\n  "seq": 1,\n  "request": {"method": "GET", "path": "/a"}\n}',
        '---',
        '# only a comment',
        '---',
        '',
        '---',
        'seq: 2',
        'request:',
        '  method: POST',
        '  path: "/b --- c"',
        '---',
      ].join('\n');
      const parsed = parseRecording(text);
      expect(parsed.header?.specHash, JSON.stringify(lead)).toBe('x');
      expect(parsed.interactions.map((i) => [i.seq, i.request.method, i.request.path])).toEqual([
        [1, 'GET', '/a'],
        [2, 'POST', '/b --- c'],
      ]);
      expect(parsed.tornTail).toBe(false);
    }
  });

  it('leaves out a last document torn mid-write', () => {
    const parsed = parseRecording('{"seq": 1, "request": {"method": "GET", "path": "/a"}}\n---\n{"seq": 2, "requ');
    expect(parsed.interactions).toHaveLength(1);
    expect(parsed.tornTail).toBe(true);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsedTarget, requestTarget } from '../../../src/http/request.js';

// The shortcut past the URL parser must read every request-target exactly as the parser does.
const pieces = [
  '/',
  '.',
  '..',
  '%',
  '%2e',
  '%2E',
  '%41',
  '%zz',
  '?',
  '&',
  '=',
  '#',
  ' ',
  '"',
  "'",
  '<',
  '\\',
  '~',
  '+',
  '@',
  ':',
  ';',
  '[',
  ']',
  '{',
  'é',
  '//',
  'api',
  'session',
  'ses_1',
  'a',
  'Z',
  '0',
];
const target = fc.array(fc.constantFrom(...pieces), { maxLength: 14 }).map((parts) => parts.join(''));

function view(t: { pathname: string; search: string; searchParams: URLSearchParams }) {
  return { pathname: t.pathname, search: t.search, query: [...t.searchParams] };
}

describe('requestTarget', () => {
  it('reads plain targets as the URL parser does, without it', () => {
    for (const raw of [
      '/',
      '/api/plugin',
      '/api/session/ses_1/message?limit=50&order=desc',
      '/api?',
      '/api/x.y?a=b?c',
      '/api/model/default?location[directory]=%2Fhome',
    ]) {
      expect(view(requestTarget(raw))).toEqual(view(parsedTarget(raw)));
    }
  });

  it('agrees with the URL parser on any target, dot segments and characters it encodes included', () => {
    fc.assert(
      fc.property(target, (tail) => {
        for (const raw of [`/${tail}`, tail, `/api/${tail}`])
          expect(view(requestTarget(raw))).toEqual(view(parsedTarget(raw)));
      }),
      { seed: 20261123, numRuns: 3000 },
    );
  });
});

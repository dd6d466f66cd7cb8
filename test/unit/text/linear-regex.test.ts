/**
 * The linear-time matcher: the same matches and named groups as V8 for patterns without flags (held to V8 over
 * generated patterns and inputs), refusals that say what to write instead, and no pattern that makes a long
 * input cost more than its length times the pattern's size.
 */
import { describe, expect, it } from 'vitest';
import { compileLinear, MAX_PATTERN_LENGTH, type LinearRegex } from '../../../src/text/linear-regex.js';

function compiled(pattern: string): LinearRegex {
  const linear = compileLinear(pattern);
  if (typeof linear === 'string') throw new Error(`refused ${pattern}: ${linear}`);
  return linear;
}

/** What V8 finds: the named groups of the first match, or undefined. */
function v8(pattern: string, input: string): Record<string, string | undefined> | undefined {
  const match = new RegExp(pattern).exec(input);
  return match ? { ...match.groups } : undefined;
}

/** A small deterministic generator (a linear congruential one), so a failure names a pattern to rerun. */
function generator(seed: number) {
  let state = seed;
  const next = (n: number) => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state % n;
  };
  const pick = <T>(items: readonly T[]) => items[next(items.length)] as T;
  return { next, pick };
}

const ATOMS = [
  'a',
  'b',
  'x',
  '/',
  '-',
  '.',
  '[ab]',
  '[^/]',
  '[a-c]',
  '[^a]',
  '[\\d-]',
  '[^\\w]',
  '[]',
  '[^]',
  '[\\b]',
  '\\d',
  '\\D',
  '\\w',
  '\\W',
  '\\s',
  '\\/',
  '\\-',
  '\\x61',
  '\\u0061',
  '\\c',
  '{',
  'a{',
  '}',
  ']',
  '\\b',
  '\\B',
  '^',
  '$',
];
const QUANTIFIERS = ['*', '+', '?', '{2}', '{1,3}', '{0,2}', '{2,}', '*?', '+?', '??', '{1,2}?'];
const ASSERTIONS = new Set(['^', '$', '\\b', '\\B']);

function randomPattern(g: ReturnType<typeof generator>, depth: number, groups: { n: number }): string {
  let out = '';
  for (let i = 0, n = 1 + g.next(3); i < n; i++) {
    let atom: string;
    if (depth > 0 && g.next(10) < 3) {
      const head = g.pick(['', '?:', `?<g${groups.n++}>`]);
      const alternative = g.next(3) === 0 ? `|${randomPattern(g, depth - 1, groups)}` : '';
      atom = `(${head}${randomPattern(g, depth - 1, groups)}${alternative})`;
    } else atom = g.pick(ATOMS);
    if (!ASSERTIONS.has(atom) && g.next(3) === 0) atom += g.pick(QUANTIFIERS);
    out += atom;
  }
  return out;
}

describe('compileLinear', () => {
  it('finds what V8 finds, named groups included, over generated patterns and inputs', () => {
    const g = generator(35);
    let compared = 0;
    for (let k = 0; k < 1500; k++) {
      const pattern = randomPattern(g, 2, { n: 0 });
      try {
        new RegExp(pattern);
      } catch {
        continue; // V8 refuses it too; its message is what compileLinear gives (below)
      }
      const linear = compiled(pattern);
      for (let j = 0; j < 12; j++) {
        let input = '';
        for (let i = 0, n = g.next(9); i < n; i++) input += g.pick(['a', 'b', 'c', 'x', '/', '-', '1', ' ']);
        expect(linear.exec(input), `${pattern} on ${JSON.stringify(input)}`).toEqual(v8(pattern, input));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(10_000);
  });

  it('matches the patterns rules are written with', () => {
    const message = compiled('^/api/session/(?<id>[^/]+)/message$');
    expect(message.names).toEqual(['id']);
    expect(message.exec('/api/session/ses_1/message')).toEqual({ id: 'ses_1' });
    expect(message.exec('/api/session/ses_1/message/x')).toBeUndefined();
    expect(compiled('\\d+').exec('/api/v2/x')).toEqual({});
    expect(compiled('(?<which>foo|bar)').exec('/x/bar/foo')).toEqual({ which: 'bar' });
    expect(compiled('^/(?<a>x)?(?<b>y)').exec('/y')).toEqual({ a: undefined, b: 'y' });
  });

  it('takes a pattern V8 backtracks on for ever, and matches a long path in one pass', () => {
    // ^/(a+)+$ on "/" and 28 a's and "!" keeps V8 busy for a second, four times longer for every two more.
    const nested = compiled('^/(?<run>a+)+$');
    const path = `/${'a'.repeat(10 * 1024)}`;
    expect(nested.exec(`${path}!`)).toBeUndefined();
    expect(nested.exec(path)).toEqual({ run: 'a'.repeat(10 * 1024) });
    // Polynomial in V8 (tens of seconds at 4 KiB): unanchored, two wildcards around a slash.
    expect(compiled('.*/.*x').exec('/'.repeat(10 * 1024))).toBeUndefined();
  });

  it('refuses what no linear-time matcher does, saying what to write instead', () => {
    expect(compileLinear('(?=a)b')).toBe(
      'uses a lookaround (?=), which matching in linear time cannot do: match the text itself (a rule ahead of this one can take what must not match)',
    );
    expect(compileLinear('(?<!a)b')).toMatch(/^uses a lookaround \(\?<!\)/);
    expect(compileLinear('(a)\\1')).toBe(
      'uses \\1, a backreference or an octal escape, which matching in linear time cannot do: match the text itself, or write a character as \\xHH',
    );
    expect(compileLinear('(?<x>a)\\k<x>')).toMatch(/^uses a backreference \(\\k\)/);
    expect(compileLinear('^/a/(')).toMatch(/^Invalid regular expression: /);
  });

  it('bounds a pattern: its length, and what its counted repetitions unroll to', () => {
    const longest = '[ab]'.repeat(MAX_PATTERN_LENGTH / 4);
    expect(compileLinear(longest)).not.toBeTypeOf('string');
    expect(compileLinear(`${longest}a`)).toBe('is 1001 characters long, more than the 1000 a pattern may have');
    expect(compileLinear('(?:[0-9a-f]{8}-){4}')).not.toBeTypeOf('string');
    expect(compileLinear('(a{100}){20}')).toBe(
      'unrolls to more than 1,000 steps (its counted repetitions, {n,m}, are too large): use * or + where a count does not matter',
    );
  });
});

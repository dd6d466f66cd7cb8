/**
 * A JavaScript pattern (no flags) read into a tree, as V8 reads it, for the linear-time matcher
 * (`linear-regex.ts`): character sets as sorted ranges of UTF-16 units, and what no linear-time engine can
 * do (backreferences, lookarounds) refused with a sentence.
 */

export class Refusal extends Error {}

// ---------------------------------------------------------------------------------------------------------
// Character sets: sorted, disjoint [from, to] ranges of UTF-16 code units (no `u` flag: a unit is a character).

type Ranges = number[];
export interface CharSet {
  ranges: Ranges;
  negated: boolean;
}

const DIGIT: Ranges = [0x30, 0x39];
const WORD: Ranges = [0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a];
const SPACE: Ranges = [
  0x09, 0x0d, 0x20, 0x20, 0xa0, 0xa0, 0x1680, 0x1680, 0x2000, 0x200a, 0x2028, 0x2029, 0x202f, 0x202f, 0x205f, 0x205f,
  0x3000, 0x3000, 0xfeff, 0xfeff,
];
/** What `.` does not match without the `s` flag: the line terminators. */
const LINE_END: Ranges = [0x0a, 0x0a, 0x0d, 0x0d, 0x2028, 0x2029];

function normalized(ranges: Ranges): Ranges {
  const pairs: Array<[number, number]> = [];
  for (let i = 0; i < ranges.length; i += 2) pairs.push([ranges[i] as number, ranges[i + 1] as number]);
  pairs.sort((a, b) => a[0] - b[0]);
  const out: Ranges = [];
  for (const [from, to] of pairs) {
    const last = out.length - 1;
    if (last > 0 && from <= (out[last] as number) + 1) out[last] = Math.max(out[last] as number, to);
    else out.push(from, to);
  }
  return out;
}

function complement(ranges: Ranges): Ranges {
  const out: Ranges = [];
  let next = 0;
  for (let i = 0; i < ranges.length; i += 2) {
    if ((ranges[i] as number) > next) out.push(next, (ranges[i] as number) - 1);
    next = (ranges[i + 1] as number) + 1;
  }
  if (next <= 0xffff) out.push(next, 0xffff);
  return out;
}

export function inSet(set: CharSet, unit: number): boolean {
  const { ranges } = set;
  let found = false;
  for (let i = 0; i < ranges.length; i += 2) {
    if (unit < (ranges[i] as number)) break;
    if (unit <= (ranges[i + 1] as number)) {
      found = true;
      break;
    }
  }
  return found !== set.negated;
}

export const isWordUnit = (unit: number) =>
  (unit >= 0x30 && unit <= 0x39) || (unit >= 0x41 && unit <= 0x5a) || unit === 0x5f || (unit >= 0x61 && unit <= 0x7a);

// ---------------------------------------------------------------------------------------------------------
// The pattern as a tree, read as V8 reads a pattern without flags (Annex B: a `{` that starts no quantifier,
// a lone `]` or `}`, an escaped letter with no meaning are the characters themselves).

export type Assertion = 'start' | 'end' | 'boundary' | 'notBoundary';
export type Node =
  | { type: 'empty' }
  | { type: 'set'; set: CharSet }
  | { type: 'assert'; kind: Assertion }
  | { type: 'group'; index: number | undefined; body: Node }
  | { type: 'alt'; options: Node[] }
  | { type: 'seq'; items: Node[] }
  | { type: 'repeat'; body: Node; min: number; max: number; greedy: boolean };

export interface Group {
  index: number;
  name: string | undefined;
}

const single = (unit: number): Node => ({ type: 'set', set: { ranges: [unit, unit], negated: false } });
const SUGGESTION = 'matching in linear time cannot do';

export class Parser {
  private at = 0;
  private readonly groups: Group[] = [];

  constructor(private readonly text: string) {}

  parse(): { tree: Node; groups: Group[] } {
    const tree = this.disjunction();
    return { tree, groups: this.groups };
  }

  private peek(offset = 0): string | undefined {
    return this.text[this.at + offset];
  }

  private disjunction(): Node {
    const options = [this.alternative()];
    while (this.peek() === '|') {
      this.at++;
      options.push(this.alternative());
    }
    return options.length === 1 ? (options[0] as Node) : { type: 'alt', options };
  }

  private alternative(): Node {
    const items: Node[] = [];
    while (this.at < this.text.length && this.peek() !== '|' && this.peek() !== ')') {
      const atom = this.term();
      items.push(this.quantified(atom));
    }
    if (items.length === 0) return { type: 'empty' };
    return items.length === 1 ? (items[0] as Node) : { type: 'seq', items };
  }

  /** A quantifier after `atom`, if one follows (the pattern compiled, so one never follows an assertion). */
  private quantified(atom: Node): Node {
    const c = this.peek();
    let min: number;
    let max: number;
    if (c === '*' || c === '+' || c === '?') {
      this.at++;
      [min, max] = c === '*' ? [0, Infinity] : c === '+' ? [1, Infinity] : [0, 1];
    } else if (c === '{') {
      const braced = /^\{(\d+)(,(\d*))?\}/.exec(this.text.slice(this.at));
      if (!braced) return atom;
      this.at += braced[0].length;
      min = Number(braced[1]);
      max = braced[2] === undefined ? min : braced[3] === '' ? Infinity : Number(braced[3]);
    } else return atom;
    let greedy = true;
    if (this.peek() === '?') {
      this.at++;
      greedy = false;
    }
    return { type: 'repeat', body: atom, min, max, greedy };
  }

  private term(): Node {
    const c = this.peek() as string;
    this.at++;
    switch (c) {
      case '^':
        return { type: 'assert', kind: 'start' };
      case '$':
        return { type: 'assert', kind: 'end' };
      case '.':
        return { type: 'set', set: { ranges: LINE_END, negated: true } };
      case '(':
        return this.group();
      case '[':
        return { type: 'set', set: this.charClass() };
      case '\\':
        return this.atomEscape();
      default:
        return single(c.charCodeAt(0));
    }
  }

  private group(): Node {
    let name: string | undefined;
    let capturing = true;
    if (this.peek() === '?') {
      const head = this.text.slice(this.at, this.at + 3);
      if (head.startsWith('?:')) {
        capturing = false;
        this.at += 2;
      } else if (head === '?<=' || head === '?<!' || head.startsWith('?=') || head.startsWith('?!')) {
        throw new Refusal(
          `uses a lookaround (${head.startsWith('?<') ? head : head.slice(0, 2)}), which ${SUGGESTION}: match the text itself (a rule ahead of this one can take what must not match)`,
        );
      } else if (head.startsWith('?<')) {
        const end = this.text.indexOf('>', this.at);
        name = this.text.slice(this.at + 2, end);
        this.at = end + 1;
      } else {
        throw new Refusal(`uses the group (${head}…), which ${SUGGESTION}: write it as (?:…) or (?<name>…)`);
      }
    }
    let index: number | undefined;
    if (capturing) {
      index = this.groups.length + 1;
      this.groups.push({ index, name });
    }
    const body = this.disjunction();
    this.at++; // the `)`: the pattern compiled, so it is there
    return { type: 'group', index, body };
  }

  private atomEscape(): Node {
    const c = this.peek() as string;
    if (c === 'b' || c === 'B') {
      this.at++;
      return { type: 'assert', kind: c === 'b' ? 'boundary' : 'notBoundary' };
    }
    return { type: 'set', set: this.escapeSet(false) };
  }

  /** The set an escape after its backslash stands for, in a class or out of one. */
  private escapeSet(inClass: boolean): CharSet {
    const c = this.peek() as string;
    this.at++;
    const of = (ranges: Ranges, negated = false): CharSet => ({ ranges, negated });
    const unit = (u: number) => of([u, u]);
    switch (c) {
      case 'd':
        return of(DIGIT);
      case 'D':
        return of(DIGIT, true);
      case 'w':
        return of(WORD);
      case 'W':
        return of(WORD, true);
      case 's':
        return of(SPACE);
      case 'S':
        return of(SPACE, true);
      case 't':
        return unit(0x09);
      case 'n':
        return unit(0x0a);
      case 'v':
        return unit(0x0b);
      case 'f':
        return unit(0x0c);
      case 'r':
        return unit(0x0d);
      case 'b':
        return unit(0x08); // only in a class: outside one it is the word boundary
      case 'k':
        throw new Refusal(`uses a backreference (\\k), which ${SUGGESTION}: match the text itself`);
      case 'c': {
        const letter = this.peek();
        if (letter !== undefined && /[A-Za-z]/.test(letter)) {
          this.at++;
          return unit(letter.charCodeAt(0) % 32);
        }
        if (inClass && letter !== undefined && /[\d_]/.test(letter)) {
          this.at++;
          return unit(letter.charCodeAt(0) % 32);
        }
        // Annex B: `\c` with nothing to control is a backslash, and the `c` is read next.
        this.at--;
        return unit(0x5c);
      }
      case 'x':
      case 'u': {
        const digits = c === 'x' ? 2 : 4;
        const hex = this.text.slice(this.at, this.at + digits);
        if (hex.length === digits && /^[0-9A-Fa-f]+$/.test(hex)) {
          this.at += digits;
          return unit(parseInt(hex, 16));
        }
        return unit(c.charCodeAt(0));
      }
      default:
        if (c === '0' && !/[0-9]/.test(this.peek() ?? '')) return unit(0);
        if (/[0-9]/.test(c))
          throw new Refusal(
            `uses \\${c}, a backreference or an octal escape, which ${SUGGESTION}: match the text itself, or write a character as \\xHH`,
          );
        return unit(c.charCodeAt(0));
    }
  }

  /** After the `[`: the class up to its `]`. */
  private charClass(): CharSet {
    let negated = false;
    if (this.peek() === '^') {
      negated = true;
      this.at++;
    }
    const ranges: Ranges = [];
    /** A class atom: one character (its code unit) or a set (`\d`). */
    const atom = (): number | CharSet => {
      const c = this.peek() as string;
      this.at++;
      if (c !== '\\') return c.charCodeAt(0);
      const set = this.escapeSet(true);
      const isUnit = !set.negated && set.ranges.length === 2 && set.ranges[0] === set.ranges[1];
      const escaped = this.text[this.at - 1];
      return isUnit && escaped !== 'd' && escaped !== 'w' && escaped !== 's' ? (set.ranges[0] as number) : set;
    };
    const add = (item: number | CharSet) => {
      if (typeof item === 'number') ranges.push(item, item);
      else ranges.push(...(item.negated ? complement(normalized(item.ranges)) : item.ranges));
    };
    while (this.peek() !== ']') {
      const from = atom();
      if (this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== undefined) {
        this.at++;
        const to = atom();
        // Annex B: a range with a class escape at either end is its parts and a `-`.
        if (typeof from === 'number' && typeof to === 'number') ranges.push(from, to);
        else {
          add(from);
          add(0x2d);
          add(to);
        }
      } else add(from);
    }
    this.at++; // the `]`
    return { ranges: normalized(ranges), negated };
  }
}

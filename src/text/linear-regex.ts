/**
 * A JavaScript regular expression (no flags) matched in time linear in the input: a user's pattern meets
 * every request a server sees, and V8's backtracking takes exponential time on `^/(a+)+$` (a second at 28
 * characters, four times that for every two more) and polynomial time on patterns nobody would suspect (two
 * `.*` on either side of a slash, then a letter, take tens of seconds on a 4 KiB path). Here the pattern is
 * parsed into a program and run as a Pike VM (Thompson's construction with submatches): every thread advances
 * one character at a time, at most one thread per instruction, so a match costs input length × program size
 * whatever the pattern.
 *
 * Threads keep the priority order a backtracking engine tries them in, so the match and its groups are the
 * ones `RegExp.prototype.exec` finds (leftmost, then the first alternative, greedy or lazy as written), and
 * each iteration of a quantified group clears the groups inside it and, past the quantifier's minimum, fails
 * if it matched nothing, as JavaScript's do. (One corner is left: a lazy choice inside a loop whose body can
 * match nothing, `(a*?)+?`, may leave a group other text than V8 does, as a Pike VM keeps one thread per
 * instruction where a backtracker tries both. Whether the pattern matches never differs.) What no linear-time
 * engine can do (backreferences, lookarounds) is refused with a sentence, as is a pattern longer than
 * `MAX_PATTERN_LENGTH` or whose counted repetitions unroll past `MAX_PROGRAM_SIZE` instructions.
 */

import {
  inSet,
  isWordUnit,
  Parser,
  Refusal,
  type Assertion,
  type CharSet,
  type Group,
  type Node,
} from './regex-syntax.js';

export const MAX_PATTERN_LENGTH = 1_000;
/**
 * Instructions a pattern unrolls to (`a{500}` is 500): the factor every character of input costs. At this
 * bound the worst pattern takes about a second on a 64 KiB path (the longest request head the server takes);
 * a pattern that names a route is a few dozen.
 */
export const MAX_PROGRAM_SIZE = 1_000;

export interface LinearRegex {
  readonly source: string;
  /** The named groups, each once, in the order they open. */
  readonly names: readonly string[];
  /** The first match in `input`: each named group's text (undefined when it took no part), or undefined. */
  exec(input: string): Record<string, string | undefined> | undefined;
}

/** A pattern compiled, or why it is refused: a sentence that says what to write instead. */
export function compileLinear(pattern: string): LinearRegex | string {
  if (pattern.length > MAX_PATTERN_LENGTH)
    return `is ${pattern.length} characters long, more than the ${MAX_PATTERN_LENGTH} a pattern may have`;
  try {
    new RegExp(pattern);
  } catch (error) {
    return (error as Error).message;
  }
  let tree: Node;
  let groups: Group[];
  try {
    ({ tree, groups } = new Parser(pattern).parse());
  } catch (error) {
    if (error instanceof Refusal) return error.message;
    throw error;
  }
  const compiledTree = compile(tree, 2 * (groups.length + 1));
  if (typeof compiledTree === 'string') return compiledTree;
  const { program, slots } = compiledTree;
  const names = [...new Set(groups.flatMap((g) => (g.name === undefined ? [] : [g.name])))];
  return {
    source: pattern,
    names,
    exec(input) {
      const caps = run(program, slots, input);
      if (!caps) return undefined;
      const found: Record<string, string | undefined> = {};
      for (const name of names) found[name] = undefined;
      for (const group of groups) {
        const start = caps[2 * group.index];
        const end = caps[2 * group.index + 1];
        if (group.name !== undefined && start !== undefined && start >= 0 && end !== undefined && end >= 0)
          found[group.name] ??= input.slice(start, end);
      }
      return found;
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// The program.

type Instruction =
  | { op: 'set'; set: CharSet }
  | { op: 'split'; first: number; second: number }
  | { op: 'jump'; to: number }
  | { op: 'save'; slot: number }
  | { op: 'clear'; from: number; to: number }
  /** Notes in `slot` where an iteration began; `progress` ends the thread if it is still there. */
  | { op: 'mark'; slot: number }
  | { op: 'progress'; slot: number }
  | { op: 'assert'; kind: Assertion }
  | { op: 'match' };

/** The capture groups a node holds, as the range of their indexes (`[0, -1]` for none). */
function groupsIn(node: Node): [number, number] {
  let low = Infinity;
  let high = -1;
  const walk = (n: Node) => {
    if (n.type === 'group') {
      if (n.index !== undefined) {
        low = Math.min(low, n.index);
        high = Math.max(high, n.index);
      }
      walk(n.body);
    } else if (n.type === 'alt') n.options.forEach(walk);
    else if (n.type === 'seq') n.items.forEach(walk);
    else if (n.type === 'repeat') walk(n.body);
  };
  walk(node);
  return high < 0 ? [0, -1] : [low, high];
}

/** Whether a node can match the empty string. */
function nullable(n: Node): boolean {
  switch (n.type) {
    case 'empty':
    case 'assert':
      return true;
    case 'set':
      return false;
    case 'group':
      return nullable(n.body);
    case 'alt':
      return n.options.some(nullable);
    case 'seq':
      return n.items.every(nullable);
    case 'repeat':
      return n.min === 0 || nullable(n.body);
  }
}

/** The program, and how many slots a thread carries: two per group, then one per loop that checks progress. */
function compile(tree: Node, firstFreeSlot: number): { program: Instruction[]; slots: number } | string {
  const program: Instruction[] = [];
  let slots = firstFreeSlot;
  const tooLarge = () =>
    `unrolls to more than ${MAX_PROGRAM_SIZE.toLocaleString('en-US')} steps (its counted repetitions, {n,m}, are too large): use * or + where a count does not matter`;
  const emit = (instruction: Instruction): number => {
    if (program.length >= MAX_PROGRAM_SIZE) throw new Refusal(tooLarge());
    program.push(instruction);
    return program.length - 1;
  };
  const split = () => emit({ op: 'split', first: -1, second: -1 });
  const point = (at: number, first: number, second: number) => {
    program[at] = { op: 'split', first, second };
  };

  const node = (n: Node): void => {
    switch (n.type) {
      case 'empty':
        return;
      case 'set':
        emit({ op: 'set', set: n.set });
        return;
      case 'assert':
        emit({ op: 'assert', kind: n.kind });
        return;
      case 'group':
        if (n.index === undefined) return node(n.body);
        emit({ op: 'save', slot: 2 * n.index });
        node(n.body);
        emit({ op: 'save', slot: 2 * n.index + 1 });
        return;
      case 'seq':
        n.items.forEach(node);
        return;
      case 'alt': {
        // The first option is tried first: each split prefers to go on into the option it precedes.
        const jumps: number[] = [];
        n.options.forEach((option, i) => {
          if (i < n.options.length - 1) {
            const at = split();
            node(option);
            jumps.push(emit({ op: 'jump', to: -1 }));
            point(at, at + 1, program.length);
          } else node(option);
        });
        for (const at of jumps) program[at] = { op: 'jump', to: program.length };
        return;
      }
      case 'repeat':
        return repeat(n);
    }
  };

  /**
   * One iteration: the groups inside cleared first, as each iteration of a quantifier does in JavaScript; one
   * past the minimum (`mark` a slot) that matched nothing is refused, as JavaScript refuses it. Whether a path
   * matches, and where, would be the same without the check; the groups would not.
   */
  const iteration = (body: Node, clear: [number, number], mark?: number) => {
    if (mark !== undefined) emit({ op: 'mark', slot: mark });
    if (clear[1] >= clear[0]) emit({ op: 'clear', from: 2 * clear[0], to: 2 * clear[1] + 1 });
    node(body);
    if (mark !== undefined) emit({ op: 'progress', slot: mark });
  };

  const repeat = ({ body, min, max, greedy }: Extract<Node, { type: 'repeat' }>) => {
    const clear = groupsIn(body);
    if (min > MAX_PROGRAM_SIZE || (max !== Infinity && max > MAX_PROGRAM_SIZE)) throw new Refusal(tooLarge());
    for (let i = 0; i < min; i++) iteration(body, clear);
    const mark = max > min && nullable(body) ? slots++ : undefined;
    if (max === Infinity) {
      // L: split(body, out); body; jump L.
      const loop = split();
      iteration(body, clear, mark);
      emit({ op: 'jump', to: loop });
      const out = program.length;
      point(loop, greedy ? loop + 1 : out, greedy ? out : loop + 1);
      return;
    }
    // Each optional iteration nested in the one before: x{0,3} is (?:x(?:x(?:x)?)?)?.
    const exits: number[] = [];
    for (let i = min; i < max; i++) {
      exits.push(split());
      iteration(body, clear, mark);
    }
    const out = program.length;
    for (const at of exits) point(at, greedy ? at + 1 : out, greedy ? out : at + 1);
  };

  try {
    emit({ op: 'save', slot: 0 });
    node(tree);
    emit({ op: 'save', slot: 1 });
    emit({ op: 'match' });
  } catch (error) {
    if (error instanceof Refusal) return error.message;
    throw error;
  }
  return { program, slots };
}

// ---------------------------------------------------------------------------------------------------------
// The Pike VM.

type Captures = Int32Array;

/** The captures of the first match in `input` (-1: unset), or undefined. */
function run(program: Instruction[], slots: number, input: string): Captures | undefined {
  const size = program.length;
  // The instructions a thread has reached at the current position, by the position's number (no clearing).
  const seen = new Int32Array(size).fill(-1);
  let current: Array<{ pc: number; caps: Captures }> = [];
  let next: Array<{ pc: number; caps: Captures }> = [];
  let matched: Captures | undefined;
  const stack: Array<{ pc: number; caps: Captures }> = [];

  const wordAt = (i: number) => i >= 0 && i < input.length && isWordUnit(input.charCodeAt(i));
  const holds = (kind: Assertion, at: number): boolean => {
    switch (kind) {
      case 'start':
        return at === 0;
      case 'end':
        return at === input.length;
      case 'boundary':
        return wordAt(at - 1) !== wordAt(at);
      case 'notBoundary':
        return wordAt(at - 1) === wordAt(at);
    }
  };

  /** Follows every instruction that reads no character from `pc`, in priority order, into `list`. */
  const add = (list: Array<{ pc: number; caps: Captures }>, pc: number, caps: Captures, at: number) => {
    stack.push({ pc, caps });
    while (stack.length) {
      const thread = stack.pop() as { pc: number; caps: Captures };
      if (seen[thread.pc] === at) continue;
      seen[thread.pc] = at;
      const instruction = program[thread.pc] as Instruction;
      switch (instruction.op) {
        case 'jump':
          stack.push({ pc: instruction.to, caps: thread.caps });
          break;
        case 'split':
          // The second is pushed first, so the first is followed first.
          stack.push({ pc: instruction.second, caps: thread.caps });
          stack.push({ pc: instruction.first, caps: thread.caps });
          break;
        case 'save': {
          const copy = thread.caps.slice();
          copy[instruction.slot] = at;
          stack.push({ pc: thread.pc + 1, caps: copy });
          break;
        }
        case 'clear': {
          const copy = thread.caps.slice();
          copy.fill(-1, instruction.from, instruction.to + 1);
          stack.push({ pc: thread.pc + 1, caps: copy });
          break;
        }
        case 'assert':
          if (holds(instruction.kind, at)) stack.push({ pc: thread.pc + 1, caps: thread.caps });
          break;
        case 'mark': {
          const copy = thread.caps.slice();
          copy[instruction.slot] = at;
          stack.push({ pc: thread.pc + 1, caps: copy });
          break;
        }
        case 'progress':
          if (thread.caps[instruction.slot] !== at) stack.push({ pc: thread.pc + 1, caps: thread.caps });
          break;
        default:
          list.push(thread);
      }
    }
  };

  const fresh = new Int32Array(slots).fill(-1);
  for (let at = 0; at <= input.length; at++) {
    // A match not yet found may start here, behind every thread already under way.
    if (!matched) add(current, 0, fresh, at);
    else if (current.length === 0) break;
    const unit = at < input.length ? input.charCodeAt(at) : -1;
    for (const thread of current) {
      const instruction = program[thread.pc] as Instruction;
      if (instruction.op === 'match') {
        // Every thread after this one would match later in the order a backtracking engine tries them.
        matched = thread.caps;
        break;
      }
      if (instruction.op === 'set' && unit >= 0 && inSet(instruction.set, unit))
        add(next, thread.pc + 1, thread.caps, at + 1);
    }
    [current, next] = [next, current];
    next.length = 0;
  }
  return matched;
}

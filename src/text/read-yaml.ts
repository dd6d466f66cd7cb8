/**
 * The one way YAML a user gives is read (scenarios from a file, over `PUT /__sim/scenario`, by `validate` and
 * `--watch`; recordings; specs), so every reader refuses the same things the same way: text that is not YAML,
 * and aliases that expand past a bound. An alias stands for its anchor's whole value, so a few lines of
 * anchors that each repeat the one before ("billion laughs") stand for hundreds of millions of values: the
 * library's own guard throws a bare ReferenceError from `toJS`, which each caller met differently (a stack
 * trace from the CLI, a 500 over HTTP). Here the expansion is counted on the parsed document before any value
 * is built, and what is refused says where and why.
 */
import type { Alias, Document, LineCounter, Node } from 'yaml';
import { yaml } from './yaml.js';

/**
 * The most values aliases may add to a document beyond those written in it. Generous for anchors used as
 * they are meant to be (a repeated block, a shared default); an alias bomb is millions of times past it.
 */
export const MAX_ALIAS_VALUES = 100_000;

export interface YamlProblem {
  /** Where in the text (a character offset; 0 when the problem has no place). */
  offset: number;
  /** One line, starting with `YAML:`. */
  message: string;
}

/** The text is not one YAML document this simulator reads; `problems` say where and why. */
export class YamlTextError extends Error {
  constructor(readonly problems: YamlProblem[]) {
    super(problems.map((p) => p.message).join('\n'));
    this.name = 'YamlTextError';
  }
}

export interface ReadYaml {
  document: Document.Parsed;
  /** The document as plain JavaScript values. */
  value: unknown;
}

/** Parses one YAML document (JSON is YAML), or throws `YamlTextError`. */
export function readYaml(text: string, options: { lineCounter?: LineCounter } = {}): ReadYaml {
  const { parseDocument } = yaml();
  let document: Document.Parsed;
  try {
    document = parseDocument(text, { lineCounter: options.lineCounter, prettyErrors: false });
  } catch (error) {
    // The parser recurses per nesting level: text nested past the stack is refused, not thrown on.
    throw new YamlTextError([{ offset: 0, message: `YAML: ${firstLine(error)}` }]);
  }
  if (document.errors.length)
    throw new YamlTextError(
      document.errors.map((e) => ({ offset: e.pos[0], message: `YAML: ${e.message.split('\n')[0]}` })),
    );
  const refused = aliasProblem(document);
  if (refused) throw new YamlTextError([refused]);
  try {
    // The expansion is already bounded above; the library's own count refuses an anchor used 101 times.
    return { document, value: document.toJS({ maxAliasCount: -1 }) };
  } catch (error) {
    throw new YamlTextError([{ offset: 0, message: `YAML: ${firstLine(error)}` }]);
  }
}

const count = (n: number) => n.toLocaleString('en-US');
const firstLine = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0];

/**
 * What is wrong with the document's aliases: one that names no anchor before it, one inside the value it
 * names (an endless value), or all of them together adding more than `MAX_ALIAS_VALUES` values.
 */
function aliasProblem(document: Document.Parsed): YamlProblem | undefined {
  const { isAlias, isCollection, isNode, isPair, visit } = yaml();
  // An alias names the last node anchored so before it in document order, as the library resolves it.
  const targets = new Map<Alias, Node | undefined>();
  const anchored = new Map<string, Node>();
  visit(document, {
    Node(_key, node) {
      if (isAlias(node)) targets.set(node, anchored.get(node.source));
      else if (node.anchor) anchored.set(node.anchor, node);
    },
  });
  if (targets.size === 0) return undefined;
  const at = (alias: Alias) => alias.range?.[0] ?? 0;
  for (const [alias, target] of targets)
    if (!target)
      return {
        offset: at(alias),
        message: `YAML: alias *${alias.source} names no anchor before it: anchor a value with &${alias.source} first`,
      };

  // Values each node stands for once its aliases are expanded; a node is counted once, however often named.
  const sizes = new Map<unknown, number>();
  const open = new Set<unknown>();
  let cycle: Alias | undefined;
  const size = (node: unknown): number => {
    if (isAlias(node)) {
      const target = targets.get(node) as Node;
      if (open.has(target)) {
        cycle ??= node;
        return 1;
      }
      return size(target);
    }
    if (!isCollection(node)) return isNode(node) ? 1 : 0;
    const known = sizes.get(node);
    if (known !== undefined) return known;
    open.add(node);
    let total = 1;
    for (const item of node.items) total += isPair(item) ? size(item.key) + size(item.value) : size(item);
    open.delete(node);
    sizes.set(node, total);
    return total;
  };
  const expanded = size(document.contents);
  if (cycle)
    return {
      offset: at(cycle),
      message: `YAML: alias *${cycle.source} is inside the value &${cycle.source} it names, which would make that value endless: refused`,
    };
  let written = 0;
  visit(document, { Node: () => void written++ });
  if (expanded - written <= MAX_ALIAS_VALUES) return undefined;
  // The alias that stands for the most is the one to point at.
  let largest: [Alias, number] | undefined;
  for (const alias of targets.keys()) {
    const n = size(alias);
    if (!largest || n > largest[1]) largest = [alias, n];
  }
  const [alias, n] = largest as [Alias, number];
  return {
    offset: at(alias),
    message: `YAML: aliases would expand this document to ${count(expanded)} values, more than ${count(MAX_ALIAS_VALUES)} beyond the ${count(written)} written (*${alias.source} alone stands for ${count(n)}): refused, as an alias bomb would be; write the repeated values out, or repeat fewer`,
  };
}

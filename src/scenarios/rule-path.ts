/**
 * The paths a rule matches by, instead of an operation: `when.path`, a template (`/api/gateway/{name}`), or
 * `when.pathPattern`, a regular expression. A rule is plain JSON (a scenario's definitions are cached on disk),
 * so the compiled form is kept here, by its text, rather than on the rule. A pattern is a user's, met by every
 * request's path: it is matched in linear time (src/text/linear-regex.ts), never by V8's backtracking, which
 * a pattern such as `^/(a+)+$` keeps busy for seconds on a path of thirty characters.
 */
import { keepBounded } from '../caches/bounded-map.js';
import { compileLinear } from '../text/linear-regex.js';
import type { OperationDefinition, SpecIndex } from '../openapi/openapi.js';
import { safeDecode } from '../openapi/router.js';

export interface CompiledPath {
  /** The parameters it names: a template's `{name}` segments, or a pattern's named groups. */
  readonly names: readonly string[];
  /** Each of `names`' values as matched in `pathname` (undefined: its group took no part), or undefined. */
  exec(pathname: string): Array<string | undefined> | undefined;
}

const PARAM = /^\{([A-Za-z_$][\w$.-]*)\}$/;

/** A template compiled, or what is wrong with it (a sentence). */
export function compileTemplate(template: string): CompiledPath | string {
  const names: string[] = [];
  const parts: string[] = [];
  for (const segment of template.split('/')) {
    const param = PARAM.exec(segment);
    if (param) {
      const name = param[1] as string;
      if (names.includes(name)) return `names the parameter {${name}} twice`;
      names.push(name);
      parts.push('([^/]+)');
    } else if (segment.includes('{') || segment.includes('}')) {
      return `segment "${segment}" is neither literal nor a whole parameter: write {name} as a segment of its own`;
    } else {
      parts.push(segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    }
  }
  // Literal segments and `[^/]+` between slashes: V8 matches these in linear time.
  const regex = new RegExp(`^${parts.join('/')}$`);
  return { names, exec: (pathname) => regex.exec(pathname)?.slice(1) };
}

/**
 * A pattern compiled, or why it is refused: not a regular expression, too long, or something no linear-time
 * matcher does (a backreference, a lookaround). The reason names the pattern, as a rule's problem is read
 * without it.
 */
export function compilePattern(pattern: string): CompiledPath | string {
  const linear = compileLinear(pattern);
  if (typeof linear === 'string') {
    // V8's own message already shows the pattern.
    if (linear.startsWith('Invalid regular expression')) return linear;
    return `pattern ${JSON.stringify(pattern.length > 60 ? `${pattern.slice(0, 60)}…` : pattern)} ${linear}`;
  }
  return {
    names: linear.names,
    exec: (pathname) => {
      const groups = linear.exec(pathname);
      return groups && linear.names.map((name) => groups[name]);
    },
  };
}

/** Compiled paths by `t:` / `p:` and their text: rules are capped, and a cleared cache just compiles again. */
const compiled = new Map<string, CompiledPath>();
const CAPACITY = 2048;

function compiledPath(rule: { path?: string; pathPattern?: string }): CompiledPath | undefined {
  const key =
    rule.path !== undefined ? `t:${rule.path}` : rule.pathPattern !== undefined ? `p:${rule.pathPattern}` : '';
  if (!key) return undefined;
  const known = compiled.get(key);
  if (known) return known;
  // A rule is read (and its path checked) before it is used, so a failure here means a rule never read.
  const made = rule.path !== undefined ? compileTemplate(rule.path) : compilePattern(rule.pathPattern as string);
  if (typeof made === 'string') return undefined;
  return keepBounded(compiled, CAPACITY, key, made);
}

/**
 * The parameters of `pathname` (as sent, percent-encoded) if the rule's path or pattern matches it, each
 * decoded; undefined when it does not match or the rule matches by operation.
 */
export function matchRulePath(
  rule: { path?: string; pathPattern?: string },
  pathname: string,
): Record<string, string> | undefined {
  const path = compiledPath(rule);
  if (!path) return undefined;
  const values = path.exec(pathname);
  if (!values) return undefined;
  const params: Record<string, string> = {};
  path.names.forEach((name, i) => {
    const value = values[i];
    if (value !== undefined) params[name] = safeDecode(value);
  });
  return params;
}

/** The operation a method and template name: the same method and the same segments, whatever its parameters are called. */
export function operationAt(spec: SpecIndex, method: string, template: string): OperationDefinition | undefined {
  const shape = (segments: readonly string[]) => segments.map((s) => (PARAM.test(s) ? '{}' : s)).join('/');
  const wanted = shape(template.split('/').slice(1));
  return spec.operations.find((op) => op.method === method && shape(op.segments) === wanted);
}

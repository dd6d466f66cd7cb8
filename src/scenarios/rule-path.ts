/**
 * The paths a rule matches by, instead of an operation: `when.path`, a template (`/api/gateway/{name}`), or
 * `when.pathPattern`, a regular expression. A rule is plain JSON (a scenario's definitions are cached on disk),
 * so the compiled form is kept here, by its text, rather than on the rule.
 */
import { keepBounded } from '../bounded-map.js';
import type { OperationDefinition, SpecIndex } from '../openapi/openapi.js';
import { safeDecode } from '../openapi/router.js';

export interface CompiledPath {
  readonly regex: RegExp;
  /** The parameters it names: a template's `{name}` segments, or a pattern's named groups. */
  readonly names: readonly string[];
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
  return { regex: new RegExp(`^${parts.join('/')}$`), names };
}

/** A pattern compiled, or the reason it is no regular expression. */
export function compilePattern(pattern: string): CompiledPath | string {
  let regex: RegExp;
  try {
    regex = new RegExp(pattern);
  } catch (error) {
    return (error as Error).message;
  }
  const names = [...pattern.matchAll(/\(\?<([A-Za-z_$][\w$]*)>/g)].map((m) => m[1] as string);
  return { regex, names };
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
  const match = path.regex.exec(pathname);
  if (!match) return undefined;
  const params: Record<string, string> = {};
  if (rule.path !== undefined) path.names.forEach((name, i) => (params[name] = safeDecode(match[i + 1] as string)));
  else
    for (const [name, value] of Object.entries(match.groups ?? {}))
      if (value !== undefined) params[name] = safeDecode(value);
  return params;
}

/** The operation a method and template name: the same method and the same segments, whatever its parameters are called. */
export function operationAt(spec: SpecIndex, method: string, template: string): OperationDefinition | undefined {
  const shape = (segments: readonly string[]) => segments.map((s) => (PARAM.test(s) ? '{}' : s)).join('/');
  const wanted = shape(template.split('/').slice(1));
  return spec.operations.find((op) => op.method === method && shape(op.segments) === wanted);
}

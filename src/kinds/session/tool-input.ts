/**
 * A scripted tool call's input held to the real tool's schema (./real-tools.ts): what the real runtime would
 * refuse before running the tool (a missing field, one the tool does not take, a value of the wrong type or
 * out of bounds) is a scenario problem, named by the field, with the field probably meant where one is near.
 *
 * Only the parts of JSON Schema the real tools use are read (types, properties, required, additional
 * properties, items, local `$ref`s, enums, bounds, allOf and anyOf); a keyword beyond them accepts anything,
 * so a newer server's schema never refuses what it would take.
 */
import { closest } from '../../text/closest.js';
import type { ToolSchema } from './real-tools.js';

export interface ToolInputProblem {
  /** Within the input: `['questions', 0, 'header']`. */
  path: Array<string | number>;
  message: string;
  /** The problem is the key itself (a field the tool does not take), not its value. */
  atKey: boolean;
}

type Schema = Readonly<Record<string, unknown>>;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `questions[0].header`, as the input's author would reach it. */
function fieldName(path: ReadonlyArray<string | number>): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

/**
 * The property a mistyped or renamed key stands for: a near spelling (`comand`), one it ends or starts with
 * (`filePath` for `path`, `timeoutMs` for `timeout`), the way a tool's field is often renamed, or one it
 * abbreviates (`desc`).
 */
export function nearField(key: string, known: readonly string[]): string | undefined {
  const near = closest(key, known);
  if (near !== undefined) return near;
  const lower = key.toLowerCase();
  return known.find((p) => {
    const name = p.toLowerCase();
    return (
      (name.length >= 3 && (lower.endsWith(name) || lower.startsWith(name))) ||
      (lower.length >= 3 && name.startsWith(lower))
    );
  });
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function fitsType(value: unknown, type: string): boolean {
  const actual = typeOf(value);
  return actual === type || (type === 'number' && actual === 'integer');
}

const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);
const shown = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
};

/** Problems of `input` against the real `tool`'s schema; none when it would be taken. */
export function toolInputProblems(tool: string, input: unknown, schema: ToolSchema): ToolInputProblem[] {
  const problems: ToolInputProblem[] = [];
  const prefix = `${tool} input:`;
  const defs = isObject(schema.$defs) ? schema.$defs : {};

  const resolve = (s: Schema): Schema => {
    const ref = s.$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#/$defs/')) return s;
    const target = defs[ref.slice('#/$defs/'.length)];
    return isObject(target) ? { ...target, ...Object.fromEntries(Object.entries(s).filter(([k]) => k !== '$ref')) } : s;
  };

  const walk = (raw: Schema, value: unknown, path: Array<string | number>, out: ToolInputProblem[]): void => {
    const s = resolve(raw);
    const at = path.length ? `${fieldName(path)} ` : '';
    const types = typeof s.type === 'string' ? [s.type] : Array.isArray(s.type) ? (s.type as string[]) : [];
    if (types.length && !types.some((t) => fitsType(value, t))) {
      out.push({
        path,
        message: `${prefix} ${at || 'it '}must be ${types.map(article).join(' or ')}, got ${shown(value)}`,
        atKey: false,
      });
      return;
    }
    if (Array.isArray(s.enum) && !s.enum.some((v) => JSON.stringify(v) === JSON.stringify(value))) {
      const near =
        typeof value === 'string'
          ? closest(
              value,
              s.enum.filter((v) => typeof v === 'string'),
            )
          : undefined;
      out.push({
        path,
        message: `${prefix} ${at}must be one of ${s.enum.map((v) => JSON.stringify(v)).join(', ')}, got ${shown(value)}.${near === undefined ? '' : ` Did you mean ${JSON.stringify(near)}?`}`,
        atKey: false,
      });
    }
    if ('const' in s && JSON.stringify(s.const) !== JSON.stringify(value))
      out.push({ path, message: `${prefix} ${at}must be ${shown(s.const)}, got ${shown(value)}`, atKey: false });
    if (typeof value === 'number') {
      const bound = (keyword: string, fails: (limit: number) => boolean, words: string) => {
        const limit = s[keyword];
        if (typeof limit === 'number' && fails(limit))
          out.push({ path, message: `${prefix} ${at}must be ${words} ${limit}, got ${value}`, atKey: false });
      };
      bound('minimum', (l) => value < l, 'at least');
      bound('maximum', (l) => value > l, 'at most');
      bound('exclusiveMinimum', (l) => value <= l, 'greater than');
      bound('exclusiveMaximum', (l) => value >= l, 'less than');
    }
    if (typeof value === 'string') {
      const length = [...value].length;
      if (typeof s.minLength === 'number' && length < s.minLength)
        out.push({ path, message: `${prefix} ${at}must be at least ${s.minLength} characters long`, atKey: false });
      if (typeof s.maxLength === 'number' && length > s.maxLength)
        out.push({ path, message: `${prefix} ${at}must be at most ${s.maxLength} characters long`, atKey: false });
    }
    if (Array.isArray(value)) {
      if (typeof s.minItems === 'number' && value.length < s.minItems)
        out.push({ path, message: `${prefix} ${at}must hold at least ${s.minItems} items`, atKey: false });
      if (typeof s.maxItems === 'number' && value.length > s.maxItems)
        out.push({ path, message: `${prefix} ${at}must hold at most ${s.maxItems} items`, atKey: false });
      if (isObject(s.items)) value.forEach((item, i) => walk(s.items as Schema, item, [...path, i], out));
    }
    if (isObject(value)) objectProblems(s, value, path, out);
    for (const part of Array.isArray(s.allOf) ? s.allOf : []) if (isObject(part)) walk(part, value, path, out);
    if (Array.isArray(s.anyOf)) {
      const branches = s.anyOf.filter(isObject).map((branch) => {
        const found: ToolInputProblem[] = [];
        walk(branch, value, path, found);
        return found;
      });
      // The branch that went furthest says most about what was meant.
      if (branches.length && branches.every((b) => b.length))
        out.push(...branches.reduce((best, b) => (b.length < best.length ? b : best)));
    }
  };

  const objectProblems = (
    s: Schema,
    value: Record<string, unknown>,
    path: Array<string | number>,
    out: ToolInputProblem[],
  ): void => {
    const properties = isObject(s.properties) ? s.properties : {};
    const known = Object.keys(properties);
    const within = path.length ? ` in ${fieldName(path)}` : '';
    // A field spelled another way is said once: the unknown one, with the name meant; not also as missing.
    const meant = new Set<string>();
    const inFields: ToolInputProblem[] = [];
    for (const [key, item] of Object.entries(value)) {
      const property = Object.hasOwn(properties, key) ? properties[key] : undefined;
      if (isObject(property)) {
        walk(property, item, [...path, key], inFields);
        continue;
      }
      if (s.additionalProperties === false) {
        const near = nearField(
          key,
          known.filter((p) => !Object.hasOwn(value, p) && !meant.has(p)),
        );
        if (near !== undefined) meant.add(near);
        inFields.push({
          path: [...path, key],
          message: `${prefix} unknown field "${key}"${within}: the real ${tool} tool refuses it.${near === undefined ? (known.length ? ` Fields it takes: ${known.join(', ')}.` : '') : ` Did you mean "${near}"?`}`,
          atKey: true,
        });
      } else if (isObject(s.additionalProperties)) walk(s.additionalProperties, item, [...path, key], inFields);
    }
    for (const name of Array.isArray(s.required) ? (s.required as string[]) : [])
      if (!Object.hasOwn(value, name) && !meant.has(name))
        out.push({
          path,
          message: `${prefix} missing field "${name}"${within}, which the real ${tool} tool requires`,
          atKey: false,
        });
    out.push(...inFields);
  };

  walk(schema, input, [], problems);
  return problems;
}

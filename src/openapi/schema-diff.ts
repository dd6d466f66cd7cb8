/**
 * Two schemas compared structurally, for `spec-diff.ts`: `$ref`s followed on both sides (a schema moved into a
 * component, or out of one, is no change), documentation (`description`, `examples`, `x-…`) ignored, and a
 * pair of places already under comparison assumed equal when met again, which ends recursive schemas. Each
 * change says how it moves the set of values the newer document accepts at that place: `widened`,
 * `narrowed`, or `changed` (neither, or not worked out).
 */
import { resolvePointer } from './openapi.js';

type JsonObject = Record<string, unknown>;
/** Keywords that document a schema without changing what it accepts. */
const IGNORED = new Set([
  'description',
  'title',
  'summary',
  'example',
  'examples',
  'default',
  'externalDocs',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$comment',
  '$id',
  '$schema',
  // Which variant a value is follows from the variants themselves; the mapping only names them.
  'discriminator',
]);
/** Keywords compared on their own rules below; any other keyword is compared as plain JSON. */
const HANDLED = new Set([
  'type',
  'nullable',
  'enum',
  'const',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'oneOf',
  'anyOf',
]);

export type Effect = 'widened' | 'narrowed' | 'changed';

export type ChangeKind =
  | 'type'
  | 'enum'
  | 'property-added'
  | 'property-removed'
  | 'required-added'
  | 'required-removed'
  | 'additional-properties'
  | 'variant-added'
  | 'variant-removed'
  | 'keyword'
  | 'parameter-added'
  | 'parameter-removed'
  | 'body-added'
  | 'body-removed'
  | 'body-required'
  | 'status-added'
  | 'status-removed';

export interface ShapeChange {
  /** What the change is about: the request (parameters and body) or a response. */
  side: 'request' | 'response';
  kind: ChangeKind;
  effect: Effect;
  /** The response status it is about (response changes only). */
  status?: string;
  /** A JSON pointer into the newer document (for something removed, where it would be). */
  pointer: string;
  message: string;
}

type Found = Omit<ShapeChange, 'side'>;

export class SchemaComparer {
  /** Results by the pair of places compared; a pair still being compared counts as equal (recursion). */
  private readonly done = new Map<string, Found[]>();
  private readonly running = new Set<string>();

  constructor(
    readonly oldDoc: JsonObject,
    readonly newDoc: JsonObject,
  ) {}

  compare(a: JsonObject, aAt: string, b: JsonObject, bAt: string): Found[] {
    const left = follow(this.oldDoc, a, aAt);
    const right = follow(this.newDoc, b, bAt);
    const key = `${left.at}\0${right.at}`;
    const known = this.done.get(key);
    if (known) return known;
    if (this.running.has(key)) return [];
    this.running.add(key);
    const found = this.compareResolved(left.value, left.at, right.value, right.at);
    this.running.delete(key);
    this.done.set(key, found);
    return found;
  }

  private compareResolved(a: JsonObject, aAt: string, b: JsonObject, bAt: string): Found[] {
    const found: Found[] = [];
    const add = (kind: ChangeKind, effect: Effect, message: string, pointer = bAt) =>
      found.push({ kind, effect, pointer, message });

    // Unions first: a union of one is its variant, and anyOf and oneOf read alike here.
    const va = this.variants(a, aAt);
    const vb = this.variants(b, bAt);
    if (va.length > 1 || vb.length > 1) {
      found.push(...this.compareVariants(va, vb, bAt));
      // Beside a union, what its schema says of every variant; a side without a union is all variant.
      const rest = (s: JsonObject) =>
        s.oneOf || s.anyOf ? Object.fromEntries(Object.entries(s).filter(([k]) => k !== 'oneOf' && k !== 'anyOf')) : {};
      if (hasKeywords(rest(a)) || hasKeywords(rest(b))) found.push(...this.compareResolved(rest(a), aAt, rest(b), bAt));
      return found;
    }
    if (va.length === 1 && vb.length === 1 && (va[0]?.schema !== a || vb[0]?.schema !== b)) {
      const [x, y] = [va[0] as Variant, vb[0] as Variant];
      return this.compare(x.schema, x.at, y.schema, y.at);
    }

    const ta = typesOf(a);
    const tb = typesOf(b);
    const setChange = compareSets(ta, tb);
    if (setChange) add('type', setChange, `type ${describeSet(ta, 'any')} → ${describeSet(tb, 'any')}`);

    const ea = valuesOf(a);
    const eb = valuesOf(b);
    const enumChange = compareSets(ea, eb);
    if (enumChange) add('enum', enumChange, `values ${describeSet(ea, 'any')} → ${describeSet(eb, 'any')}`);

    const pa = (a.properties ?? {}) as Record<string, JsonObject>;
    const pb = (b.properties ?? {}) as Record<string, JsonObject>;
    const closedA = a.additionalProperties === false;
    const closedB = b.additionalProperties === false;
    const ra = new Set((a.required ?? []) as string[]);
    const rb = new Set((b.required ?? []) as string[]);
    for (const [name, schema] of Object.entries(pa)) {
      const at = `${bAt}/properties/${escapePointer(name)}`;
      const now = pb[name];
      if (now === undefined) add('property-removed', closedB ? 'narrowed' : 'widened', `property ${name} removed`, at);
      else found.push(...this.compare(schema, `${aAt}/properties/${escapePointer(name)}`, now, at));
    }
    for (const name of Object.keys(pb))
      if (!(name in pa) && !rb.has(name))
        // Strictly a property newly constrained narrows an open object; the world made for the older shape does
        // not send it, so for what it answers it only widens.
        add('property-added', 'widened', `property ${name} added`, `${bAt}/properties/${escapePointer(name)}`);
    for (const name of rb)
      if (!ra.has(name))
        add('required-added', 'narrowed', `property ${name} ${name in pa ? 'now required' : 'added (required)'}`);
    for (const name of ra)
      if (!rb.has(name) && name in pb) add('required-removed', 'widened', `property ${name} now optional`);

    const ap = a.additionalProperties;
    const bp = b.additionalProperties;
    if (isSchema(ap) && isSchema(bp))
      found.push(...this.compare(ap, `${aAt}/additionalProperties`, bp, `${bAt}/additionalProperties`));
    else if (closedA !== closedB)
      add(
        'additional-properties',
        closedB ? 'narrowed' : 'widened',
        closedB ? 'no longer allows other properties' : 'now allows other properties',
      );
    else if (isSchema(ap) !== isSchema(bp))
      add('additional-properties', 'changed', 'other properties are checked differently');

    if (isSchema(a.items) && isSchema(b.items))
      found.push(...this.compare(a.items, `${aAt}/items`, b.items, `${bAt}/items`));
    else if (isSchema(a.items) !== isSchema(b.items))
      add(
        'keyword',
        isSchema(b.items) ? 'narrowed' : 'widened',
        `items ${isSchema(b.items) ? 'now' : 'no longer'} checked`,
      );

    // Every other keyword that constrains (format, pattern, bounds, allOf, …), compared as written.
    const others = new Set([...Object.keys(a), ...Object.keys(b)].filter(isOtherKeyword));
    for (const keyword of [...others].sort()) {
      const x = a[keyword];
      const y = b[keyword];
      if (x === undefined) add('keyword', 'narrowed', `${keyword} ${short(y)} added`);
      else if (y === undefined) add('keyword', 'widened', `${keyword} ${short(x)} removed`);
      else if (!sameJson(this.oldDoc, x, this.newDoc, y))
        add('keyword', 'changed', `${keyword} ${short(x)} → ${short(y)}`);
    }
    return found;
  }

  private variants(schema: JsonObject, at: string): Variant[] {
    const union = (schema.oneOf ?? schema.anyOf) as JsonObject[] | undefined;
    const key = schema.oneOf ? 'oneOf' : 'anyOf';
    if (!Array.isArray(union)) return [{ schema, at }];
    const out: Variant[] = [];
    const seen = new Set<string>();
    union.forEach((v, i) => {
      const doc = at.startsWith(OLD) ? this.oldDoc : this.newDoc;
      const resolved = follow(doc, v, `${at}/${key}/${i}`);
      // The real server's document repeats a variant (`anyOf: [SessionNotFoundError, SessionNotFoundError]`).
      if (seen.has(resolved.at)) return;
      seen.add(resolved.at);
      for (const inner of this.variants(resolved.value, resolved.at)) out.push(inner);
    });
    return out;
  }

  /** Pairs variants by what names them (a component, a `type` or `_tag` constant), then by shape. */
  private compareVariants(va: Variant[], vb: Variant[], bAt: string): Found[] {
    const found: Found[] = [];
    const left = [...va];
    const right = [...vb];
    const take = (match: (x: Variant, y: Variant) => boolean) => {
      for (let i = 0; i < left.length; i++) {
        const j = right.findIndex((y) => match(left[i] as Variant, y));
        if (j < 0) continue;
        const [x] = left.splice(i--, 1);
        const [y] = right.splice(j, 1);
        found.push(...this.compare((x as Variant).schema, (x as Variant).at, (y as Variant).schema, (y as Variant).at));
      }
    };
    take((x, y) => variantName(x) !== undefined && variantName(x) === variantName(y));
    take((x, y) => this.compare(x.schema, x.at, y.schema, y.at).length === 0);
    if (left.length === 1 && right.length === 1) take(() => true);
    for (const x of left)
      found.push({
        kind: 'variant-removed',
        effect: 'narrowed',
        pointer: bAt,
        message: `variant ${describeVariant(x)} removed`,
      });
    for (const y of right)
      found.push({
        kind: 'variant-added',
        effect: 'widened',
        pointer: y.at,
        message: `variant ${describeVariant(y)} added`,
      });
    return found;
  }
}

interface Variant {
  schema: JsonObject;
  at: string;
}

/**
 * Pointers of the older document carry this prefix inside the comparer, so that a place in either document
 * is told apart from the same place in the other; it is never shown (changes point into the newer document).
 */
export const OLD = 'old:';

export function follow(doc: JsonObject, node: JsonObject, at: string): { value: JsonObject; at: string } {
  let value = node;
  let where = at;
  const prefix = at.startsWith(OLD) ? OLD : '';
  for (let hops = 0; typeof value?.$ref === 'string' && hops < 32; hops++) {
    const ref = value.$ref;
    if (!ref.startsWith('#')) break; // another document: compared as written
    where = `${prefix}${ref.slice(1)}`;
    value = resolvePointer(doc, ref);
  }
  return { value: value ?? {}, at: where };
}

function hasKeywords(schema: JsonObject): boolean {
  return Object.keys(schema).some((k) => !IGNORED.has(k) && !k.startsWith('x-'));
}

function isOtherKeyword(key: string): boolean {
  return !IGNORED.has(key) && !HANDLED.has(key) && !key.startsWith('x-') && key !== '$ref';
}

function isSchema(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The types a schema allows; empty for any. OpenAPI 3.0's `nullable` is 3.1's `null` type. */
function typesOf(schema: JsonObject): Set<string> {
  const raw = schema.type;
  const types = new Set<string>(Array.isArray(raw) ? (raw as string[]) : typeof raw === 'string' ? [raw] : []);
  if (types.size && schema.nullable === true) types.add('null');
  // An integer is a number: `number` → `integer` narrows, and is reported as a change of type all the same.
  return types;
}

/** The values a schema allows by `enum` or `const`, as JSON text; empty for any. */
function valuesOf(schema: JsonObject): Set<string> {
  if (schema.const !== undefined) return new Set([JSON.stringify(schema.const)]);
  if (Array.isArray(schema.enum)) return new Set(schema.enum.map((v) => JSON.stringify(v)));
  return new Set();
}

/** How the newer set compares with the older, an empty set meaning "anything". */
function compareSets(older: Set<string>, newer: Set<string>): Effect | undefined {
  if (older.size === newer.size && [...older].every((v) => newer.has(v))) return undefined;
  if (older.size === 0) return 'narrowed';
  if (newer.size === 0) return 'widened';
  if ([...older].every((v) => newer.has(v))) return 'widened';
  if ([...newer].every((v) => older.has(v))) return 'narrowed';
  return 'changed';
}

function describeSet(values: Set<string>, none: string): string {
  if (!values.size) return none;
  const list = [...values].sort();
  return list.length > 4 ? `${list.slice(0, 4).join('|')}|… (${list.length})` : list.join('|');
}

/** What names a variant: the constant of a tag property it has (so an inline variant meets its component), else its component. */
function variantName(v: Variant): string | undefined {
  const props = (v.schema.properties ?? {}) as Record<string, JsonObject>;
  for (const tag of ['_tag', 'type', 'name', 'status']) {
    const value = props[tag]?.const ?? (props[tag]?.enum as unknown[] | undefined)?.[0];
    if (value !== undefined) return `${tag} ${JSON.stringify(value)}`;
  }
  const component = /^(?:old:)?\/components\/schemas\/([^/]+)$/.exec(v.at)?.[1];
  return component && `component ${component}`;
}

function describeVariant(v: Variant): string {
  const component = /^(?:old:)?\/components\/schemas\/([^/]+)$/.exec(v.at)?.[1];
  if (component) return component;
  const name = variantName(v);
  if (name) return name;
  const types = typesOf(v.schema);
  return types.size ? [...types].join('|') : 'schema';
}

/** Two keyword values as JSON, `$ref`s inside followed one level (a referenced schema compares by its place). */
function sameJson(oldDoc: JsonObject, x: unknown, newDoc: JsonObject, y: unknown): boolean {
  return JSON.stringify(canonical(oldDoc, x)) === JSON.stringify(canonical(newDoc, y));
}

function canonical(doc: JsonObject, value: unknown, depth = 0): unknown {
  if (Array.isArray(value)) return value.map((v) => canonical(doc, v, depth));
  if (!isSchema(value)) return value;
  if (typeof value.$ref === 'string' && value.$ref.startsWith('#') && depth < 4)
    return canonical(doc, resolvePointer(doc, value.$ref), depth + 1);
  return Object.fromEntries(
    Object.keys(value)
      .filter((k) => !IGNORED.has(k) && !k.startsWith('x-'))
      .sort()
      .map((k) => [k, canonical(doc, value[k], depth)]),
  );
}

function short(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
}

export function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

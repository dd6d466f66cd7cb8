/**
 * Two versions of the interface compared operation by operation: which operations were added, removed or
 * moved (same operationId, another method or path), and how the shapes of the others changed (parameters,
 * request body, response statuses and schemas), each change at a JSON pointer into the newer document.
 *
 * Schemas are compared structurally (`schema-diff.ts`); each change says how it moves the set of values the
 * newer document accepts at that place: `widened`, `narrowed`, or `changed`. That is what `simulationFits`
 * reads.
 */
import { OLD, SchemaComparer, escapePointer, follow, type ShapeChange } from './schema-diff.js';

export type { ChangeKind, Effect, ShapeChange } from './schema-diff.js';

type JsonObject = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;
const JSON_MEDIA = 'application/json';
export interface OperationRef {
  operationId: string;
  method: string;
  path: string;
}

export interface ChangedOperation extends OperationRef {
  /** Where the older document had it, when it moved. */
  from?: { method: string; path: string };
  changes: ShapeChange[];
}

export interface SpecDiff {
  added: OperationRef[];
  removed: OperationRef[];
  /** Same operationId, another method or path; their shape changes too, if any. */
  moved: ChangedOperation[];
  /** Same method and path, some shape changed. */
  changed: ChangedOperation[];
  /** How many operations each document has. */
  counts: { old: number; new: number };
}

interface Located {
  ref: OperationRef;
  pointer: string;
  operation: JsonObject;
  item: JsonObject;
}

export function diffSpecs(oldDoc: JsonObject, newDoc: JsonObject): SpecDiff {
  const olds = operationsOf(oldDoc, OLD);
  const news = operationsOf(newDoc, '');
  const comparer = new SchemaComparer(oldDoc, newDoc);
  const diff: SpecDiff = { added: [], removed: [], moved: [], changed: [], counts: { old: olds.size, new: news.size } };
  for (const [id, before] of olds) {
    const after = news.get(id);
    if (!after) {
      diff.removed.push(before.ref);
      continue;
    }
    const changes = compareOperations(comparer, before, after);
    const moved = before.ref.method !== after.ref.method || before.ref.path !== after.ref.path;
    if (moved) diff.moved.push({ ...after.ref, from: { method: before.ref.method, path: before.ref.path }, changes });
    else if (changes.length) diff.changed.push({ ...after.ref, changes });
  }
  for (const [id, after] of news) if (!olds.has(id)) diff.added.push(after.ref);
  return diff;
}

export function isIdentical(diff: SpecDiff): boolean {
  return !diff.added.length && !diff.removed.length && !diff.moved.length && !diff.changed.length;
}

/**
 * Whether the world, written for the older shape of an operation, still fits its newer shape (the simulator's
 * decision, not the interface's):
 * - its answers: every change to a success response (2xx) widens what the newer document accepts (an optional
 *   property added, a variant added), so every answer shaped by the older one still validates. Error responses
 *   do not count: their bodies are the simulator's shared error kinds, not the world's shapes, and the answer
 *   check still reports any that the newer document refuses (`x-sim-violations`). Without this, the real
 *   server's stricter `InvalidRequestError` (no null `kind`) would take the simulation from every operation;
 * - its input: every request change narrows what the newer document accepts (the world understood all of the
 *   older input), or adds an optional parameter or property, which the world ignores; nothing the older
 *   document declared is gone. A moved route fits on the same terms: its path keeps the older parameter names
 *   (a parameter added to the path, as an attempt moved under its integration, is one the world ignores).
 */
export function simulationFits(changes: readonly ShapeChange[]): boolean {
  return changes.every((c) =>
    c.side === 'response'
      ? c.effect === 'widened' || Number(c.status) >= 300
      : c.kind === 'property-added' || c.kind === 'parameter-added'
        ? true
        : c.effect === 'narrowed' && c.kind !== 'property-removed' && c.kind !== 'parameter-removed',
  );
}

function operationsOf(doc: JsonObject, prefix: string): Map<string, Located> {
  const out = new Map<string, Located>();
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, JsonObject>)) {
    for (const method of METHODS) {
      const operation = item[method] as JsonObject | undefined;
      if (!operation) continue;
      const id = typeof operation.operationId === 'string' ? operation.operationId : `${method.toUpperCase()} ${path}`;
      out.set(id, {
        ref: { operationId: id, method: method.toUpperCase(), path },
        pointer: `${prefix}/paths/${escapePointer(path)}/${method}`,
        operation,
        item,
      });
    }
  }
  return out;
}

function compareOperations(comparer: SchemaComparer, before: Located, after: Located): ShapeChange[] {
  const changes: ShapeChange[] = [];
  const request = (change: Omit<ShapeChange, 'side'>) => changes.push({ side: 'request', ...change });

  // Parameters by where and name; the path item's apply unless the operation redeclares them.
  const oldParams = parametersOf(comparer.oldDoc, before);
  const newParams = parametersOf(comparer.newDoc, after);
  for (const [key, param] of oldParams) {
    const now = newParams.get(key);
    if (!now) {
      request({
        kind: 'parameter-removed',
        effect: 'changed',
        pointer: `${after.pointer}/parameters`,
        message: `${param.label} removed`,
      });
      continue;
    }
    if (!param.required && now.required)
      request({
        kind: 'required-added',
        effect: 'narrowed',
        pointer: now.pointer,
        message: `${now.label} now required`,
      });
    if (param.required && !now.required)
      request({
        kind: 'required-removed',
        effect: 'widened',
        pointer: now.pointer,
        message: `${now.label} now optional`,
      });
    for (const change of comparer.compare(param.schema, param.schemaAt, now.schema, now.schemaAt)) request(change);
  }
  for (const [key, param] of newParams) {
    if (oldParams.has(key)) continue;
    request({
      kind: 'parameter-added',
      effect: param.required ? 'narrowed' : 'widened',
      pointer: param.pointer,
      message: `${param.label} added${param.required ? ' (required)' : ''}`,
    });
  }

  // The request body (its JSON content).
  const oldBody = bodyOf(comparer.oldDoc, before);
  const newBody = bodyOf(comparer.newDoc, after);
  const bodyAt = `${after.pointer}/requestBody`;
  if (oldBody && !newBody)
    request({ kind: 'body-removed', effect: 'changed', pointer: bodyAt, message: 'body removed' });
  else if (!oldBody && newBody)
    request({ kind: 'body-added', effect: 'changed', pointer: bodyAt, message: 'body added' });
  else if (oldBody && newBody) {
    if (oldBody.required !== newBody.required)
      request({
        kind: 'body-required',
        effect: newBody.required ? 'narrowed' : 'widened',
        pointer: bodyAt,
        message: `body now ${newBody.required ? 'required' : 'optional'}`,
      });
    for (const change of comparer.compare(oldBody.schema, oldBody.at, newBody.schema, newBody.at)) request(change);
  }

  // Responses, status by status.
  const oldResponses = responsesOf(comparer.oldDoc, before);
  const newResponses = responsesOf(comparer.newDoc, after);
  for (const [status, response] of oldResponses) {
    const now = newResponses.get(status);
    const at = `${after.pointer}/responses/${status}`;
    const respond = (change: Omit<ShapeChange, 'side'>) =>
      changes.push({ side: 'response', status, ...change, message: `${status}: ${change.message}` });
    if (!now) {
      respond({
        kind: 'status-removed',
        effect: 'narrowed',
        pointer: `${after.pointer}/responses`,
        message: 'removed',
      });
      continue;
    }
    if (response.schema && now.schema)
      for (const change of comparer.compare(response.schema, response.at, now.schema, now.at)) respond(change);
    else if (response.schema || now.schema)
      respond({
        kind: 'keyword',
        effect: 'changed',
        pointer: at,
        message: now.schema ? 'now has a JSON body' : 'no longer has a JSON body',
      });
  }
  for (const status of newResponses.keys())
    if (!oldResponses.has(status))
      changes.push({
        side: 'response',
        status,
        kind: 'status-added',
        effect: 'widened',
        pointer: `${after.pointer}/responses/${status}`,
        message: `${status}: added`,
      });
  return changes;
}

interface Parameter {
  label: string;
  required: boolean;
  pointer: string;
  schema: JsonObject;
  schemaAt: string;
}

function parametersOf(doc: JsonObject, at: Located): Map<string, Parameter> {
  const out = new Map<string, Parameter>();
  const itemPointer = at.pointer.replace(/\/[a-z]+$/, '');
  const lists: Array<[unknown, string]> = [
    [at.item.parameters, `${itemPointer}/parameters`],
    [at.operation.parameters, `${at.pointer}/parameters`],
  ];
  for (const [list, base] of lists) {
    if (!Array.isArray(list)) continue;
    list.forEach((raw: JsonObject, i) => {
      const { value, at: where } = follow(doc, raw, `${base}/${i}`);
      const name = String(value.name);
      const place = String(value.in);
      out.set(`${place} ${name}`, {
        label: `${place} parameter ${name}`,
        required: value.required === true,
        pointer: where,
        schema: (value.schema ?? {}) as JsonObject,
        schemaAt: `${where}/schema`,
      });
    });
  }
  return out;
}

function bodyOf(doc: JsonObject, at: Located): { required: boolean; schema: JsonObject; at: string } | undefined {
  if (!at.operation.requestBody) return undefined;
  const { value, at: where } = follow(doc, at.operation.requestBody as JsonObject, `${at.pointer}/requestBody`);
  const media = (value.content as JsonObject | undefined)?.[JSON_MEDIA] as JsonObject | undefined;
  return {
    required: value.required === true,
    schema: (media?.schema ?? {}) as JsonObject,
    at: `${where}/content/${escapePointer(JSON_MEDIA)}/schema`,
  };
}

function responsesOf(doc: JsonObject, at: Located): Map<string, { schema?: JsonObject; at: string }> {
  const out = new Map<string, { schema?: JsonObject; at: string }>();
  for (const [status, raw] of Object.entries((at.operation.responses ?? {}) as Record<string, JsonObject>)) {
    const { value, at: where } = follow(doc, raw, `${at.pointer}/responses/${status}`);
    const media = (value.content as JsonObject | undefined)?.[JSON_MEDIA] as JsonObject | undefined;
    out.set(status, {
      schema: media?.schema as JsonObject | undefined,
      at: `${where}/content/${escapePointer(JSON_MEDIA)}/schema`,
    });
  }
  return out;
}

/**
 * The diff in short human lines: one per operation added, removed or moved, and one per shape change. A change
 * to a component that several operations share is said once, above them, with the number of operations.
 */
export function describeDiff(diff: SpecDiff, options: { maxChanges?: number } = {}): string[] {
  const max = options.maxChanges ?? 8;
  const ops = [...diff.moved, ...diff.changed];
  const text = (c: ShapeChange) => `${c.message} (${c.effect}) at ${c.pointer}`;
  const uses = new Map<string, { change: ShapeChange; ops: Set<string> }>();
  for (const op of ops)
    for (const c of op.changes)
      if (c.pointer.startsWith('/components/')) {
        const key = `${c.side} ${text(c).replace(/^\d{3}: /, '')}`;
        const entry = uses.get(key) ?? { change: c, ops: new Set<string>() };
        entry.ops.add(op.operationId);
        uses.set(key, entry);
      }
  const shared = new Map([...uses].filter(([, u]) => u.ops.size >= SHARED_AT_LEAST));
  const sharedKey = (c: ShapeChange) => `${c.side} ${text(c).replace(/^\d{3}: /, '')}`;
  const lines: string[] = [];
  for (const [key, { ops: where }] of shared) lines.push(`shared   ${key}, in ${where.size} operations`);
  const changeLines = (changes: ShapeChange[]) => {
    const own = changes.filter((c) => !shared.has(sharedKey(c)));
    const shown = own.slice(0, max).map((c) => `    ${c.side} ${text(c)}`);
    if (own.length > max) shown.push(`    … ${own.length - max} more (--json lists every one)`);
    return shown;
  };
  const counted = (op: ChangedOperation) => {
    const common = op.changes.filter((c) => shared.has(sharedKey(c))).length;
    const n = op.changes.length;
    return `${n} change${n === 1 ? '' : 's'}${common ? `, ${common} of them shared` : ''}`;
  };
  for (const op of diff.added) lines.push(`added    ${op.operationId}  ${op.method} ${op.path}`);
  for (const op of diff.removed) lines.push(`removed  ${op.operationId}  ${op.method} ${op.path}`);
  for (const op of diff.moved) {
    lines.push(`moved    ${op.operationId}  ${op.from?.method} ${op.from?.path} → ${op.method} ${op.path}`);
    lines.push(...changeLines(op.changes));
  }
  for (const op of diff.changed) {
    lines.push(`changed  ${op.operationId}  ${op.method} ${op.path}: ${counted(op)}`);
    lines.push(...changeLines(op.changes));
  }
  lines.push(summary(diff));
  return lines;
}

/** In how many operations a component's change must show before it is said once for all of them. */
const SHARED_AT_LEAST = 3;

export function summary(diff: SpecDiff): string {
  const { added, removed, moved, changed, counts } = diff;
  if (isIdentical(diff)) return `identical: ${counts.old} operations, same methods, paths and shapes`;
  return (
    `${counts.old} → ${counts.new} operations: ${added.length} added, ${removed.length} removed, ` +
    `${moved.length} moved, ${changed.length} changed`
  );
}

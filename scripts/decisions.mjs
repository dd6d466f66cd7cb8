// Prints where each operation of the spec comes from (its x-source: the interface document, or the real
// server's document as `npm run spec:import` brought it) and every decision the spec records, by operationId:
// each operation with what was decided for it (the top-level x-decisions that name it, and the x-decision
// notes on the operation, its parameters and inline schemas), then the component schemas, then what holds
// everywhere. Someone wondering why an operation answers as it does looks it up by the id the client uses.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

const spec = parse(readFileSync(new URL('../spec/session-agent.openapi.yaml', import.meta.url), 'utf8'));
const METHODS = ['get', 'put', 'post', 'patch', 'delete'];
const operations = Object.entries(spec.paths).flatMap(([path, item]) =>
  METHODS.filter((method) => item[method]).map((method) => ({ path, method: method.toUpperCase(), op: item[method] })),
);

/** Every x-decision under `value` (not following $ref), with the path of keys that leads to it. */
function notes(value, at = []) {
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) => {
    if (key === 'x-decision') return [{ at, text: child }];
    // A parameter is named by where it goes and its name, not by its place in the list.
    const label =
      child && typeof child === 'object' && typeof child.in === 'string' ? `${child.in} ${child.name}` : key;
    return notes(child, [...at, label]);
  });
}

const ids = operations.map(({ op }) => op.operationId);
const named = (text) => ids.filter((id) => new RegExp(`\\b${id.replace(/\./g, '\\.')}\\b`).test(text));
/**
 * A top-level decision concerns an operation when it starts with its method and path, or names its id; one
 * naming more than two operations is a rule for all of them, listed once under Everywhere.
 */
const concerns = (text, { path, method, op }) =>
  /^[:( ]/.test(text.slice(`${method} ${path}`.length)) && text.startsWith(`${method} ${path}`)
    ? true
    : named(text).length <= 2 && named(text).includes(op.operationId);

const topLevel = spec['x-decisions'] ?? [];
const placed = new Set();
const sourceOf = (op) => String(op['x-source'] ?? 'unmarked');
const bySource = new Map();
for (const { op } of operations) {
  const kind = sourceOf(op).split(/[;(]/)[0].trim();
  bySource.set(kind, (bySource.get(kind) ?? 0) + 1);
}
const out = [
  `${operations.length} operations: ${[...bySource].map(([kind, n]) => `${n} from ${kind}`).join(', ')}`,
  '',
];
for (const operation of operations) {
  const lines = [`source: ${sourceOf(operation.op)}`];
  for (const text of topLevel.filter((t) => concerns(t, operation))) {
    placed.add(text);
    lines.push(
      text.startsWith(`${operation.method} ${operation.path}: `)
        ? text.slice(`${operation.method} ${operation.path}: `.length)
        : text,
    );
  }
  for (const { at, text } of notes(operation.op)) {
    const where = at
      .filter((k) => !/^(content|application\/json|schema|properties|responses|requestBody|parameters)$/.test(k))
      .join(' ');
    const line = where ? `${where}: ${text}` : text;
    if (!lines.includes(text)) lines.push(line);
  }
  out.push(
    `${operation.op.operationId}  ${operation.method} ${operation.path}`,
    ...[...new Set(lines)].map((line) => `  - ${line}`),
    '',
  );
}

out.push('Schemas');
for (const [name, schema] of Object.entries(spec.components?.schemas ?? {})) {
  for (const { at, text } of notes(schema))
    out.push(`  - ${[name, ...at.filter((k) => k !== 'properties')].join('.')}: ${text}`);
}
for (const [kind, group] of Object.entries(spec.components ?? {})) {
  if (kind === 'schemas') continue;
  for (const [name, value] of Object.entries(group))
    for (const { text } of notes(value)) out.push(`  - ${kind} ${name}: ${text}`);
}

out.push('', 'Everywhere');
for (const text of topLevel.filter((t) => !placed.has(t))) out.push(`  - ${text}`);
console.log(out.join('\n'));

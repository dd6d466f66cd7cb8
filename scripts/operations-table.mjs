// Writes the table of operations in docs/operations.md: each operation of the spec, where it comes from (x-source) and
// who answers it in the mock: the world (a kind's handler, or the event stream and a session's own log) or
// the fallback (the spec's examples and schemas).
//
//   npm run operations             rewrite the table between the page's markers
//   npm run operations -- --check  change nothing; exit 1 if the table is not what the spec and kinds make
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { parse } from 'yaml';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PAGE = `${ROOT}docs/operations.md`;
const BEGIN = '<!-- operations:begin (npm run operations) -->';
const END = '<!-- operations:end -->';
const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

const { KINDS } = await tsImport('../src/kinds/registry.ts', import.meta.url);
const { EVENT_STREAM_OPERATION } = await tsImport('../src/layers/event-stream.ts', import.meta.url);
const byKind = new Map();
for (const kind of KINDS.list) for (const id of Object.keys(kind.handlers ?? {})) byKind.set(id, kind.name);
// A kind's stream operations read the event stream's log: the table has always said so.
for (const id of [EVENT_STREAM_OPERATION, ...Object.keys(KINDS.streams)]) byKind.set(id, 'event stream');

const spec = parse(readFileSync(`${ROOT}spec/session-agent.openapi.yaml`, 'utf8'));
const rows = [];
for (const [path, item] of Object.entries(spec.paths))
  for (const method of METHODS) {
    const op = item[method];
    if (!op) continue;
    const source = String(op['x-source'] ?? '').startsWith('interface-document') ? 'interface document' : 'real server';
    const kind = byKind.get(op.operationId);
    rows.push({
      id: op.operationId,
      line: `| \`${op.operationId}\` | \`${method.toUpperCase()} ${path}\` | ${source} | ${kind ? `world (${kind})` : 'fallback'} |`,
    });
  }
rows.sort((a, b) => a.id.localeCompare(b.id));
const simulated = rows.filter((r) => !r.line.endsWith('| fallback |')).length;
const table = [
  BEGIN,
  `${rows.length} operations; the world simulates ${simulated}, the fallback answers ${rows.length - simulated}.`,
  '',
  '| operation | method and path | source | answered by |',
  '|---|---|---|---|',
  ...rows.map((r) => r.line),
  END,
].join('\n');

const page = readFileSync(PAGE, 'utf8');
const start = page.indexOf(BEGIN);
const end = page.indexOf(END);
if (start < 0 || end < 0) {
  console.error(`docs/operations.md has no ${BEGIN} … ${END} markers`);
  process.exit(1);
}
const next = page.slice(0, start) + table + page.slice(end + END.length);
if (process.argv.includes('--check')) {
  if (next !== page) {
    console.error('operations: the table in docs/operations.md is out of date; run npm run operations');
    process.exit(1);
  }
  console.log(`operations: the table in docs/operations.md lists ${rows.length} operations`);
} else {
  writeFileSync(`${PAGE}.tmp`, next);
  renameSync(`${PAGE}.tmp`, PAGE);
  console.log(`operations: wrote ${rows.length} operations to docs/operations.md`);
}

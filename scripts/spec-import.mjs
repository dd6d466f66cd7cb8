// Imports the real server's v2 operations into the spec the simulator serves.
//
//   npm run spec:import                      start the real server (opencode-linux-x64), read its GET /doc
//   npm run spec:import -- --doc FILE|URL    read a document already saved or served
//   npm run spec:import -- --check           change nothing; exit 1 if the spec is not what an import of the
//                                            kept document (spec/real-server/) makes; needs no server
//
// The spec is the union of the interface document's operations (written by hand, `x-source:
// interface-document`) and every operation under /api/ and /experimental/ of the real server's document. Where
// both describe an operation, the interface document's stays. Everything else comes from the real server,
// marked `x-source: real-server …`, with the component schemas it refers to; where a schema of the same name
// is already in the spec, the interface document's shape is kept (one top-level x-decision says so). An import
// first removes what the last one added, so importing a newer server again replaces it. The v2 part of the
// real server's document is kept beside the spec (spec/real-server/), so that tests can hold answers to it and
// `--check` needs no server.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { tsImport } from 'tsx/esm/api';
import { parseDocument, isMap } from 'yaml';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const METHODS = ['get', 'put', 'post', 'patch', 'delete'];
const SHARED_NAMES =
  "spec:import, components: where a schema of the real server has the name of one the interface document shows, the interface document's shape is kept for every operation that refers to it — interface document";

const NORMALIZED =
  "spec:import, imported operations: where the real server's document trips the spec lint, the import mends it and nothing else — duplicate anyOf members are dropped, an anyOf with an empty (any-value) member is that empty schema, the location query parameter is the interface document's, an operation with no security list gets the empty one every operation has (authentication is the server's global middleware), one with no summary gets its operation id, and one with no 400 answer gets the 400 InvalidRequestError the server's validation answers to bad input (real-server notes §0) — simulator decision";

/** The real server's schema as the spec holds it: the same values, without the shapes the lint refuses. */
function mended(value) {
  if (Array.isArray(value)) return value.map(mended);
  if (!value || typeof value !== 'object') return value;
  const out = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mended(v)]));
  if (Array.isArray(out.anyOf)) {
    const members = [...new Map(out.anyOf.map((m) => [JSON.stringify(m), m])).values()];
    delete out.anyOf;
    if (members.some((m) => Object.keys(m).length === 0)) return out;
    if (members.length === 1) return { ...members[0], ...out };
    out.anyOf = members;
  }
  return out;
}

function mendedOperation(operation) {
  const out = mended(operation);
  // The interface document shows the location parameter (a workspace id starts with wrk, either may be null):
  // its shape stands for every operation that takes one.
  if (out.parameters)
    out.parameters = out.parameters.map((p) =>
      p.in === 'query' && p.name === 'location' && p.style === 'deepObject'
        ? { $ref: '#/components/parameters/Location' }
        : p,
    );
  out.security ??= [];
  out.summary ??= operation.operationId;
  if (!out.responses?.['400'])
    out.responses = {
      ...out.responses,
      400: {
        description: 'InvalidRequestError',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/InvalidRequestError' } } },
      },
    };
  return out;
}

const { values } = parseArgs({
  options: {
    doc: { type: 'string' },
    check: { type: 'boolean' },
    version: { type: 'string' },
    // Where the spec and the kept document are: the project's own unless a test says otherwise.
    spec: { type: 'string', default: join(ROOT, 'spec/session-agent.openapi.yaml') },
    kept: { type: 'string', default: join(ROOT, 'spec/real-server') },
  },
});
const SPEC = values.spec;
const KEPT = values.kept;

/** The real server's version: the binary's package when it is started here. */
function binaryVersion() {
  const pkg = join(ROOT, 'node_modules/opencode-linux-x64/package.json');
  return existsSync(pkg) ? JSON.parse(readFileSync(pkg, 'utf8')).version : undefined;
}

/** Starts the real server as the tests do (test/support/real-server.ts: offline, loopback) and reads /doc. */
async function docFromRealServer() {
  const { realServerAvailable, startRealServer } = await tsImport('../test/support/real-server.ts', import.meta.url);
  if (!realServerAvailable())
    throw new Error(
      'no real server (opencode-linux-x64): install the dev dependencies (npm ci), or pass --doc FILE|URL',
    );
  const server = await startRealServer();
  try {
    const res = await fetch(`${server.url}/doc`);
    if (!res.ok) throw new Error(`the real server answered GET /doc with ${res.status}`);
    return await res.json();
  } finally {
    await server.stop();
  }
}

async function readDoc(source) {
  if (/^https?:\/\//.test(source)) return (await fetch(source)).json();
  return JSON.parse(readFileSync(source, 'utf8'));
}

const isV2 = (path) => path.startsWith('/api/') || path.startsWith('/experimental/');

/** Every `$ref` under a value. */
function refsIn(value, out = new Set()) {
  if (Array.isArray(value)) for (const v of value) refsIn(v, out);
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.add(v);
      else refsIn(v, out);
    }
  return out;
}

/**
 * The names of the component schemas `roots` refer to, directly or through other schemas; the walk does not
 * go through a schema `stop` names.
 */
function reachedSchemas(roots, schemas, stop = () => false) {
  const reached = new Set();
  const nameOf = (ref) => ref.replace('#/components/schemas/', '');
  const queue = [...refsIn(roots)].map(nameOf);
  while (queue.length) {
    const name = queue.pop();
    if (reached.has(name) || stop(name)) continue;
    if (!schemas?.[name]) throw new Error(`the real server's document refers to ${name}, which it does not define`);
    reached.add(name);
    queue.push(...[...refsIn(schemas[name])].map(nameOf));
  }
  return reached;
}

/** The v2 part of the real server's document: its operations, and the component schemas they reach. */
function v2Part(doc) {
  const paths = Object.fromEntries(Object.entries(doc.paths).filter(([path]) => isV2(path)));
  const reached = reachedSchemas(paths, doc.components?.schemas);
  const schemas = Object.fromEntries([...reached].sort().map((name) => [name, doc.components.schemas[name]]));
  const usedTags = new Set(Object.values(paths).flatMap((item) => METHODS.flatMap((m) => item[m]?.tags ?? [])));
  return {
    openapi: doc.openapi,
    info: doc.info,
    // Its tag list names some tags more than once.
    tags: [...new Map((doc.tags ?? []).filter((t) => usedTags.has(t.name)).map((t) => [t.name, t])).values()],
    paths,
    components: { schemas },
  };
}

function merge(specText, real, source) {
  const spec = parseDocument(specText);
  const plain = spec.toJS();
  const imported = (node) => typeof node?.['x-source'] === 'string' && node['x-source'].startsWith('real-server');
  // What the last import added goes first, so that this one replaces it.
  for (const [path, item] of Object.entries(plain.paths)) {
    for (const method of METHODS) if (imported(item[method])) spec.deleteIn(['paths', path, method]);
    const left = spec.getIn(['paths', path]);
    if (isMap(left) && left.items.length === 0) spec.deleteIn(['paths', path]);
  }
  for (const [name, schema] of Object.entries(plain.components?.schemas ?? {}))
    if (imported(schema)) spec.deleteIn(['components', 'schemas', name]);
  // From the last, so that each index still names the tag it named.
  for (const [index, tag] of [...(plain.tags ?? []).entries()].reverse())
    if (imported(tag)) spec.deleteIn(['tags', index]);
  const kept = spec.toJS();
  const shown = new Map();
  for (const [path, item] of Object.entries(kept.paths))
    for (const method of METHODS) if (item[method]) shown.set(item[method].operationId, { path, method });

  const served = new Set(
    Object.values(real.paths).flatMap((item) => METHODS.map((m) => item[m]?.operationId).filter(Boolean)),
  );
  // The interface document's operations are marked anew, so a newer server that drops one says so.
  for (const [operationId, { path, method }] of shown)
    spec.setIn(
      ['paths', path, method, 'x-source'],
      `interface-document; the real server (${source}) ${served.has(operationId) ? 'serves it too' : 'does not serve it'}`,
    );

  const added = { operations: 0, schemas: 0, tags: 0 };
  const importedOperations = [];
  for (const [path, item] of Object.entries(real.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation || shown.has(operation.operationId)) continue;
      spec.setIn(
        ['paths', path, method],
        spec.createNode({ ...mendedOperation(operation), 'x-source': `real-server ${source}` }),
      );
      importedOperations.push(operation);
      added.operations += 1;
    }
  }
  // The schemas the added operations reach; the walk stops at a name the spec keeps, whose shape is its own.
  const reached = reachedSchemas(importedOperations, real.components.schemas, (name) =>
    Boolean(kept.components?.schemas?.[name]),
  );
  for (const [name, schema] of Object.entries(real.components.schemas)) {
    if (!reached.has(name)) continue;
    spec.setIn(
      ['components', 'schemas', name],
      spec.createNode({ ...mended(schema), 'x-source': `real-server ${source}` }),
    );
    added.schemas += 1;
  }
  const tagNames = new Set((kept.tags ?? []).map((t) => t.name));
  for (const tag of real.tags)
    if (!tagNames.has(tag.name)) {
      spec.addIn(['tags'], spec.createNode({ ...tag, 'x-source': `real-server ${source}` }));
      added.tags += 1;
    }
  // The import's own decisions are written anew each time, so that a reworded one replaces the old.
  for (const [index, text] of [...(kept['x-decisions'] ?? []).entries()].reverse())
    if (text.startsWith('spec:import, ')) spec.deleteIn(['x-decisions', index]);
  for (const decision of [SHARED_NAMES, NORMALIZED]) spec.addIn(['x-decisions'], decision);
  return { text: spec.toString({ lineWidth: 0, flowCollectionPadding: false, doubleQuotedAsJSON: true }), added };
}

function writeAtomically(file, text) {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}

/** The document an import was made from, kept beside the spec: what `--check` compares against. */
function keptDocument() {
  const files = existsSync(KEPT) ? readdirSync(KEPT).filter((f) => /^opencode-.+\.openapi\.json$/.test(f)) : [];
  if (files.length !== 1)
    throw new Error(`spec:import --check needs one kept document in ${relative(process.cwd(), KEPT)}, or --doc FILE`);
  return join(KEPT, files[0]);
}

const from = values.doc ?? (values.check ? keptDocument() : undefined);
const doc = from ? await readDoc(from) : await docFromRealServer();
const version = values.version ?? (from ? doc['x-server-version'] : binaryVersion()) ?? 'unknown';
const real = { ...v2Part(doc), 'x-server-version': version };
const source = `opencode ${version} (GET /doc)`;
const keptFile = join(KEPT, `opencode-${version}.openapi.json`);
const keptText = `${JSON.stringify(real, null, 2)}\n`;
const current = readFileSync(SPEC, 'utf8');
const { text, added } = merge(current, real, source);

if (values.check) {
  const stale = [
    text !== current && SPEC,
    existsSync(keptFile) && readFileSync(keptFile, 'utf8') !== keptText && keptFile,
  ]
    .filter(Boolean)
    .map((f) => relative(process.cwd(), f));
  if (stale.length) {
    console.error(
      `spec:import --check: ${stale.join(' and ')} differ from what an import makes; run npm run spec:import`,
    );
    process.exit(1);
  }
  console.log(
    `spec:import --check: the spec holds the real server's ${Object.keys(real.paths).length} v2 paths (${source})`,
  );
} else {
  mkdirSync(KEPT, { recursive: true });
  writeAtomically(keptFile, keptText);
  writeAtomically(SPEC, text);
  console.log(
    `spec:import: ${added.operations} operations, ${added.schemas} schemas and ${added.tags} tags from ${source}; the real server's v2 document is in ${relative(process.cwd(), keptFile)}`,
  );
}

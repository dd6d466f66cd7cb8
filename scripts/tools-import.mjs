// Imports the input schemas of the tools the real server offers its model into spec/tools.json, which the
// simulator reads to refuse a scripted tool call the real tool would refuse.
//
//   npm run tools:import                     start the real server (opencode-linux-x64) with a model on loopback,
//                                            prompt a session, and keep the tools of the model call it makes
//   npm run tools:import -- --check          change nothing; exit 1 if the kept file is not in the shape an
//                                            import writes, or was imported from another version than the one
//                                            installed; needs no server
//   npm run tools:import -- --check --live   the same, and compare with what the installed real server offers
//
// The tools are what the runtime sends in `tools` of POST /v1/chat/completions: the schemas are kept as the
// facts they are (property names, types, required, enums, bounds), their prose (`description`, `title`,
// `examples`) left out. The file ships with the package (spec/, not spec/real-server/): scenarios are checked
// against it wherever they load.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { tsImport } from 'tsx/esm/api';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: {
    check: { type: 'boolean' },
    live: { type: 'boolean' },
    // Where the kept file is: the project's own unless a test says otherwise.
    file: { type: 'string', default: join(ROOT, 'spec/tools.json') },
  },
});
const FILE = values.file;
const shown = relative(process.cwd(), FILE);

/** Schema keywords whose value is prose, not a fact about the input. */
const PROSE = new Set(['description', 'title', 'examples', '$comment']);
/** Keywords whose value is a map from names to schemas. */
const SCHEMA_MAPS = new Set(['properties', '$defs', 'definitions', 'patternProperties']);
/** Keywords whose value is a schema or a list of schemas. */
const SCHEMA_VALUES = new Set(['items', 'additionalProperties', 'not', 'allOf', 'anyOf', 'oneOf', 'prefixItems']);

/** A schema without its prose; a property called `description` is a name, not prose, and stays. */
function factsOf(schema) {
  if (Array.isArray(schema)) return schema.map(factsOf);
  if (!schema || typeof schema !== 'object') return schema;
  const out = {};
  for (const [key, value] of Object.entries(schema)) {
    if (PROSE.has(key)) continue;
    if (SCHEMA_MAPS.has(key) && value && typeof value === 'object')
      out[key] = Object.fromEntries(Object.entries(value).map(([name, s]) => [name, factsOf(s)]));
    else if (SCHEMA_VALUES.has(key)) out[key] = factsOf(value);
    else out[key] = value;
  }
  return out;
}

const factsOfTools = (tools) => Object.fromEntries(Object.entries(tools).map(([name, s]) => [name, factsOf(s)]));

function binaryVersion() {
  const pkg = join(ROOT, 'node_modules/opencode-linux-x64/package.json');
  return existsSync(pkg) ? JSON.parse(readFileSync(pkg, 'utf8')).version : undefined;
}

/** A streamed answer that ends the turn at once: one word, then stop. */
function minimalAnswer(model) {
  const chunk = (delta, finish) =>
    `data: ${JSON.stringify({ id: 'chatcmpl-import', object: 'chat.completion.chunk', created: 0, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  return `${chunk({ role: 'assistant', content: 'ok' }, null)}${chunk({}, 'stop')}data: [DONE]\n\n`;
}

/** The tools of the first model call that offers any, from the real server started here. */
async function toolsFromRealServer() {
  const { realServerAvailable, startRealServer } = await tsImport('../test/support/real-server.ts', import.meta.url);
  const { opencodeConfig } = await tsImport('../src/scripted-model/wiring.ts', import.meta.url);
  if (!realServerAvailable())
    throw new Error('no real server (opencode-linux-x64): install the dev dependencies (npm ci)');
  const identity = { provider: 'sim', model: 'scripted-1' };
  let offered;
  let seen;
  const capture = new Promise((resolve) => (seen = resolve));
  const model = createServer((req, res) => {
    const parts = [];
    req.on('data', (chunk) => parts.push(chunk));
    req.on('end', () => {
      if (!req.url?.includes('/chat/completions')) {
        res.writeHead(404).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(parts).toString('utf8'));
      if (Array.isArray(body.tools) && body.tools.length && !offered) {
        offered = body.tools;
        seen();
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' }).end(minimalAnswer(identity.model));
    });
  });
  await new Promise((resolve) => model.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${model.address().port}/v1`;
  const server = await startRealServer({
    files: { 'opencode.json': JSON.stringify(opencodeConfig(url, identity)) },
  });
  try {
    const post = async (path, body) => {
      const res = await fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`the real server answered POST ${path} with ${res.status}: ${await res.text()}`);
      return res.json();
    };
    const session = await post('/api/session', { location: { directory: server.directory } });
    await post(`/api/session/${session.data.id}/prompt`, { prompt: { text: 'hi' } });
    let timer;
    await Promise.race([
      capture,
      new Promise((_, fail) => {
        timer = setTimeout(() => fail(new Error('the real server made no model call with tools within 60 s')), 60_000);
      }),
    ]);
    clearTimeout(timer);
  } finally {
    await server.stop();
    await new Promise((resolve) => model.close(resolve));
  }
  return factsOfTools(Object.fromEntries(offered.map((t) => [t.function.name, t.function.parameters ?? {}])));
}

function fileText(version, tools) {
  const kept = {
    'x-server-version': version,
    'x-source': `opencode ${version}: the tools of the build agent's first model call (POST /v1/chat/completions), their prose left out`,
    tools,
  };
  return `${JSON.stringify(kept, null, 2)}\n`;
}

/** What is wrong with the kept file's shape: each tool an object schema, with no prose anywhere. */
function shapeProblems(kept) {
  const problems = [];
  if (typeof kept?.['x-server-version'] !== 'string') problems.push('it names no x-server-version');
  if (!kept?.tools || typeof kept.tools !== 'object' || !Object.keys(kept.tools).length)
    return [...problems, 'it holds no tools'];
  for (const [name, schema] of Object.entries(kept.tools)) {
    if (schema?.type !== 'object' || typeof schema.properties !== 'object')
      problems.push(`tool ${name} is not an object schema with properties`);
    else if (!Array.isArray(schema.required ?? [])) problems.push(`tool ${name}: required is not a list`);
  }
  if (
    !problems.length &&
    fileText(kept['x-server-version'], factsOfTools(kept.tools)) !== fileText(kept['x-server-version'], kept.tools)
  )
    problems.push('it holds prose (description, title, examples) an import leaves out');
  return problems;
}

if (values.check) {
  if (!existsSync(FILE)) {
    console.error(`tools:import --check: there is no ${shown}; run npm run tools:import`);
    process.exit(1);
  }
  const text = readFileSync(FILE, 'utf8');
  const kept = JSON.parse(text);
  const problems = shapeProblems(kept);
  if (!problems.length && text !== fileText(kept['x-server-version'], kept.tools))
    problems.push('it is not written as an import writes it');
  const installed = binaryVersion();
  if (installed && installed !== kept['x-server-version'])
    problems.push(`it was imported from opencode ${kept['x-server-version']}, and ${installed} is installed`);
  if (!problems.length && values.live) {
    const live = fileText(installed ?? 'unknown', await toolsFromRealServer());
    if (live !== text) problems.push('the installed real server offers other tools or schemas');
  }
  if (problems.length) {
    console.error(`tools:import --check: ${shown}: ${problems.join('; ')}; run npm run tools:import`);
    process.exit(1);
  }
  console.log(
    `tools:import --check: ${shown} holds the ${Object.keys(kept.tools).length} tools of opencode ${kept['x-server-version']}${values.live ? ', as the real server offers them' : ''}`,
  );
} else {
  const tools = await toolsFromRealServer();
  const temporary = `${FILE}.${process.pid}.tmp`;
  writeFileSync(temporary, fileText(binaryVersion() ?? 'unknown', tools));
  renameSync(temporary, FILE);
  console.log(`tools:import: ${Object.keys(tools).length} tools (${Object.keys(tools).join(', ')}) in ${shown}`);
}

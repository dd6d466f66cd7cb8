#!/usr/bin/env node
/**
 * The browser build of `session-agent-sim/msw`: `src/msw/browser.ts` bundled by esbuild into
 * `dist/browser/msw.js`, with the data Node works out (the parsed spec, the examples table Prism makes, the
 * scenarios folder) inlined, and msw left to the page's own copy. The core's few uses of Node's modules meet
 * small browser versions (`src/browser/`), or the packages Node's own modules were made from (streams,
 * buffers, paths). Run after `tsc` (`npm run build`, `prepare`): it reads the data through `dist/`.
 * `--json` prints the sizes; `--meta FILE` writes esbuild's account of what went in.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const OUT = join(ROOT, 'dist/browser/msw.js');

const { DEFAULT_SPEC_PATH, loadSpecOnce } = await import(join(ROOT, 'dist/openapi/openapi.js'));
const { storedExamples } = await import(join(ROOT, 'dist/layers/fallback.js'));
const { createScenarioLibrary, scenarioNames } = await import(join(ROOT, 'dist/scenarios/scenario-library.js'));

const spec = await loadSpecOnce(DEFAULT_SPEC_PATH);
const data = {
  document: spec.document,
  hash: spec.hash,
  examples: await storedExamples(spec, undefined, { named: true }),
  // The scenarios folder read and checked here, as Node keeps it in its cache: the page skips the YAML, the
  // schemas and the checks.
  definitions: Object.fromEntries(scenarioNames().map((name) => [name, createScenarioLibrary(spec).load(name)])),
};

const src = (file) => join(ROOT, 'src/browser', file);
const misc = src('node-misc.ts');
const alias = {
  'node:fs': src('node-fs.ts'),
  'node:crypto': src('node-crypto.ts'),
  'node:path': 'path-browserify',
  'node:stream': 'readable-stream',
  'node:string_decoder': 'string_decoder',
  'node:url': misc,
  'node:util': misc,
  'node:module': misc,
  'node:http': misc,
  'node:https': misc,
  'node:net': misc,
  'node:tls': misc,
};

const entry = `import { browserHandlers } from './src/msw/browser.ts';
import data from 'session-agent-sim:bundle-data';
export { DEFAULT_BASE_URL } from './src/msw/handlers.ts';
export { SimulatorError } from './src/errors/sim-errors.ts';
export const simulatorHandlers = (options) => browserHandlers(data, options);
`;

const result = await build({
  stdin: { contents: entry, resolveDir: ROOT, sourcefile: 'browser-entry.js', loader: 'js' },
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  outfile: OUT,
  external: ['msw'],
  alias,
  inject: [src('globals.ts')],
  define: { global: 'globalThis' },
  metafile: true,
  logLevel: 'warning',
  plugins: [
    {
      // Modules of the core with a browser version of their own, by the file they resolve to: a module beside
      // one imports it as `./yaml.js`, one elsewhere as `../text/yaml.js`.
      name: 'browser-twins',
      setup(b) {
        const twins = { [join(ROOT, 'src/text/yaml.js')]: src('yaml.ts') };
        b.onResolve({ filter: /\/yaml\.js$/ }, (args) => {
          const twin = twins[join(args.resolveDir, args.path)];
          return twin ? { path: twin } : undefined;
        });
      },
    },
    {
      // The real tools' input schemas (spec/tools.json), which Node reads from the package: inlined, so that a
      // scenario given to the page is held to them as it is in Node.
      name: 'real-tools',
      setup(b) {
        const module = join(ROOT, 'src/kinds/session/real-tools.js');
        b.onResolve({ filter: /\/real-tools\.js$/ }, (args) =>
          join(args.resolveDir, args.path) === module ? { path: 'real-tools', namespace: 'sim-real-tools' } : undefined,
        );
        b.onLoad({ filter: /.*/, namespace: 'sim-real-tools' }, () => ({
          contents: `const tools = new Map(Object.entries(${JSON.stringify(
            JSON.parse(readFileSync(join(ROOT, 'spec/tools.json'), 'utf8')).tools,
          )}));\nexport const REAL_TOOLS_PATH = 'spec/tools.json';\nexport function realTools() { return tools; }\n`,
          loader: 'js',
        }));
      },
    },
    {
      name: 'bundle-data',
      setup(b) {
        b.onResolve({ filter: /^session-agent-sim:bundle-data$/ }, () => ({ path: 'data', namespace: 'sim-data' }));
        b.onLoad({ filter: /.*/, namespace: 'sim-data' }, () => ({ contents: JSON.stringify(data), loader: 'json' }));
      },
    },
  ],
});

mkdirSync(dirname(OUT), { recursive: true });
const meta = process.argv.indexOf('--meta');
if (meta > 0) writeFileSync(process.argv[meta + 1], JSON.stringify(result.metafile));
const bytes = readFileSync(OUT);
const sizes = { bytes: bytes.length, gzip: gzipSync(bytes).length };
if (process.argv.includes('--json')) console.log(JSON.stringify(sizes));
else
  console.log(
    `dist/browser/msw.js: ${(sizes.bytes / 1024).toFixed(0)} KiB, ${(sizes.gzip / 1024).toFixed(0)} KiB gzipped`,
  );

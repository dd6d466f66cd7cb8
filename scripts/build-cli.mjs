#!/usr/bin/env node
/**
 * The CLI as one file: `dist/cli.js` and what it imports bundled by esbuild into `dist/cli.bundle.js`, which
 * `bin/session-agent-sim.js` runs. Resolving and compiling some 280 modules of ours and 90 of ajv's was half of
 * the start-up to the first answer; one file takes a third of that. Run after `tsc` (`npm run build`,
 * `prepare`), since it bundles `dist/`.
 *
 * Also writes `dist/code-stamp.json`, the identity of this build that the start-up caches are keyed by
 * (`codeVersion()` in `src/caches/load-cache.ts`), so a start need not look at every file of `dist/` to know it.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const DIST = join(ROOT, 'dist');
const OUT = join(DIST, 'cli.bundle.js');

/**
 * A module's `import.meta.url` becomes its own URL again, computed from the bundle's: the package's files
 * (spec, scenarios, inspector, cache) are found relative to each module's place in `dist/`, and the bundle
 * sits in `dist/` too, wherever the package is installed.
 */
const moduleUrls = {
  name: 'module-urls',
  setup(b) {
    b.onLoad({ filter: /[\\/]dist[\\/].*\.js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const rel = `./${relative(dirname(OUT), args.path).split('\\').join('/')}`;
      return {
        contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(rel)}, import.meta.url).href`),
        loader: 'js',
      };
    });
  },
};

await build({
  entryPoints: [join(DIST, 'cli.js')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outfile: `${OUT}.tmp`,
  // Loaded only when asked for (dynamic bodies, forwarding, tests' interception, the tsx fallback), and Prism is
  // found through require.resolve at run time: they stay in node_modules.
  external: [
    '@stoplight/*',
    'json-schema-faker',
    'express',
    'tsx',
    'tsx/*',
    'msw',
    'msw/*',
    'nock',
    '@lydell/node-pty',
    'node-pty',
    'undici',
  ],
  // Bundled CommonJS packages call require for Node's own modules.
  banner: {
    js: "import { createRequire as __simRequire } from 'node:module'; const require = __simRequire(import.meta.url);",
  },
  plugins: [moduleUrls],
  logLevel: 'warning',
});
renameSync(`${OUT}.tmp`, OUT);

function codeFiles(dir) {
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((name) => name.endsWith('.js'))
    .sort();
}

const hash = createHash('sha256');
for (const name of codeFiles(DIST))
  hash
    .update(name)
    .update('\0')
    .update(readFileSync(join(DIST, name)))
    .update('\0');
// tsc rewrites every file it emits, dist/cli.js included: a stamp whose cli.js time no longer matches was
// written for other code, and the caches fall back to looking at every file.
const stamp = { cli: statSync(join(DIST, 'cli.js')).mtimeMs, code: hash.digest('hex').slice(0, 32) };
writeFileSync(join(DIST, 'code-stamp.json'), `${JSON.stringify(stamp)}\n`);

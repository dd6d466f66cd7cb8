#!/usr/bin/env node
// Runs the compiled CLI (dist/). In a checkout being edited (src/ present) it runs the TypeScript sources
// through tsx instead whenever dist/ is older than any source, so stale code never runs; a fresh checkout
// (`npm ci` builds dist/ through the prepare script) starts in about two thirds of the time tsx needs.
// An installed package has dist/ only: no src/, no tsx.
import { readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = new URL('../', import.meta.url);

/** mtime of the newest .ts file under src/, or undefined when there is no src/ (an installed package). */
function newestSource() {
  const src = fileURLToPath(new URL('src/', root));
  let newest = 0;
  // A walk with string paths: readdirSync's own recursive mode and URL paths cost four times as long, a
  // tenth of the CLI's start-up.
  const walk = (dir) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return dir !== src; // no src/ at all: an installed package; a folder deleted while we looked: skip it
    }
    for (const entry of entries) {
      if (entry.isDirectory()) walk(`${dir}${entry.name}/`);
      else if (entry.name.endsWith('.ts'))
        newest = Math.max(newest, statSync(`${dir}${entry.name}`, { throwIfNoEntry: false })?.mtimeMs ?? 0);
    }
    return true;
  };
  return walk(src) ? newest : undefined;
}

function modifiedTime(file) {
  try {
    return statSync(new URL(file, root)).mtimeMs;
  } catch {
    return undefined;
  }
}

/**
 * The one-file build of dist/cli.js (scripts/build-cli.mjs) starts faster; in a checkout it is used while it is
 * as new (a plain `tsc` leaves it behind). An installed package is never rebuilt, and npm's extraction gives its
 * files the time they were written, in no set order: there the bundle is always the build's.
 */
function compiledEntry(compiled, installed) {
  const bundled = modifiedTime('dist/cli.bundle.js');
  if (bundled === undefined) return '../dist/cli.js';
  return installed || bundled >= compiled ? '../dist/cli.bundle.js' : '../dist/cli.js';
}

async function runSources() {
  let register;
  try {
    ({ register } = await import('tsx/esm/api'));
  } catch {
    return false; // tsx is a dev dependency: absent after `npm ci --omit=dev`
  }
  register();
  await import('../src/cli.ts');
  return true;
}

const compiled = modifiedTime('dist/cli.js');
const sources = newestSource();

if (compiled !== undefined && (sources === undefined || compiled >= sources)) {
  await import(compiledEntry(compiled, sources === undefined));
} else if (sources !== undefined && (await runSources())) {
  // ran the sources
} else if (compiled !== undefined) {
  process.stderr.write(
    'session-agent-sim: dist/ is older than src/ and tsx is not installed; running dist/ (npm run build updates it)\n',
  );
  await import(compiledEntry(compiled, sources === undefined));
} else {
  process.stderr.write('session-agent-sim: dist/cli.js is missing: run `npm run build` (or reinstall the package)\n');
  process.exitCode = 1;
}

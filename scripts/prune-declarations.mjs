#!/usr/bin/env node
/**
 * Removes from `dist/` the declarations (.d.ts) no public entry point reaches. The exports map lets a consumer
 * import only `.`, `./app` and `./msw`, so a declaration outside what their declarations import is never read:
 * tsc emits one per module (some 280), and about two thirds of them would ride in the package for nothing.
 * Run after `tsc` (`npm run build`, `prepare`). `--dry-run` lists what it would remove.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** Every `types` target of a package.json under `root`: its `types` field and each `types` condition of its exports. */
export function entryDeclarations(root) {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const found = manifest.types ? [manifest.types] : [];
  const walk = (node) => {
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'types' && typeof value === 'string') found.push(value);
      else walk(value);
    }
  };
  walk(manifest.exports);
  return [...new Set(found)].map((path) => resolve(root, path));
}

/**
 * What a declaration file names: import and export declarations (`export type * as x from` among them, which
 * `ts.preProcessFile` misses), `import('…')` types and `/// <reference path>`.
 */
function specifiers(file) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const found = source.referencedFiles.map((reference) => reference.fileName);
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier)
      found.push(node.moduleSpecifier.text);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) found.push(node.argument.literal.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The declaration file a relative specifier names (`./x.js` is `./x.d.ts`); undefined when there is none. */
function declarationOf(from, specifier) {
  const target = resolve(dirname(from), specifier);
  const candidates = [target.replace(/\.js$/, '.d.ts'), `${target}.d.ts`, join(target, 'index.d.ts')];
  if (target.endsWith('.d.ts')) candidates.unshift(target);
  return candidates.find((candidate) => existsSync(candidate));
}

/**
 * The declarations `entries` reach, directly or through others, and each relative specifier among them that
 * names no declaration (a package with one would not type-check for its users).
 */
export function reachableDeclarations(entries) {
  const files = new Set();
  const missing = [];
  const pending = [...entries];
  while (pending.length) {
    const file = pending.pop();
    if (files.has(file)) continue;
    if (!existsSync(file)) {
      missing.push(`${file} (an entry point)`);
      continue;
    }
    files.add(file);
    for (const specifier of specifiers(file).filter((name) => name.startsWith('.'))) {
      const next = declarationOf(file, specifier);
      if (next === undefined) missing.push(`${specifier} (named by ${file})`);
      else if (!files.has(next)) pending.push(next);
    }
  }
  return { files, missing };
}

function main() {
  const root = fileURLToPath(new URL('../', import.meta.url));
  const dist = join(root, 'dist');
  const { files, missing } = reachableDeclarations(entryDeclarations(root));
  if (missing.length) {
    console.error(`prune-declarations: declarations not built:\n  ${missing.join('\n  ')}`);
    process.exit(1);
  }
  const unused = readdirSync(dist, { recursive: true })
    .map((name) => join(dist, String(name)))
    .filter((path) => path.endsWith('.d.ts') && !files.has(path));
  if (process.argv.includes('--dry-run')) for (const path of unused) console.log(relative(root, path));
  else for (const path of unused) rmSync(path);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();

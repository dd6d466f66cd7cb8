#!/usr/bin/env node
/**
 * Fails on an import cycle in src/: between files, and between folders (each top-level folder of src/ is one
 * node, each file at the top its own). Between files only imports that load at run time count: a type-only
 * import vanishes when compiled and cannot make a module load before another. Between folders every import
 * counts, types too, because the folders are the floors of the design and a type that points back up ties
 * two floors as surely as a value does. `--graph` prints the folder-level graph; `--root DIR` checks DIR.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

const rootFlag = process.argv.indexOf('--root');
// --root DIR checks another tree (the script's own test does).
const root = rootFlag > 0 ? resolve(process.argv[rootFlag + 1]) : resolve(import.meta.dirname, '..', 'src');

function sourceFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

/** Whether an import or export declaration brings in values at run time. */
function loadsAtRunTime(node) {
  if (ts.isImportDeclaration(node)) {
    const clause = node.importClause;
    if (!clause) return true; // a side-effect import
    if (clause.isTypeOnly) return false;
    if (clause.name) return true;
    const bindings = clause.namedBindings;
    if (!bindings || ts.isNamespaceImport(bindings)) return true;
    return bindings.elements.length === 0 || bindings.elements.some((e) => !e.isTypeOnly);
  }
  if (ts.isExportDeclaration(node)) {
    if (node.isTypeOnly) return false;
    const clause = node.exportClause;
    return !clause || !ts.isNamedExports(clause) || clause.elements.some((e) => !e.isTypeOnly);
  }
  return false;
}

/** The files a file imports: `runtime`, those it loads when it runs; `all`, types and augmentations too. */
function importsOf(file) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const found = { runtime: [], all: [] };
  const visit = (node) => {
    const declaration = ts.isImportDeclaration(node) || ts.isExportDeclaration(node);
    const dynamic = ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword;
    const typeImport = ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument);
    // `declare module './x.js'` adds to x's types (a kind's sections, its tables): a tie to x's floor.
    const augmentation = ts.isModuleDeclaration(node) && ts.isStringLiteral(node.name);
    const specifier = declaration
      ? node.moduleSpecifier
      : dynamic
        ? node.arguments[0]
        : typeImport
          ? node.argument.literal
          : augmentation
            ? node.name
            : undefined;
    if (specifier && ts.isStringLiteral(specifier) && specifier.text.startsWith('.')) {
      const target = resolve(dirname(file), specifier.text.replace(/\.js$/, '.ts'));
      found.all.push(target);
      if (dynamic || (declaration && loadsAtRunTime(node))) found.runtime.push(target);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Strongly connected components of more than one node (Tarjan), each a cycle. */
function cycles(graph) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const connect = (v) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) connect(v);
  return found;
}

const imports = new Map(sourceFiles(root).map((f) => [f, importsOf(f)]));
const files = new Map([...imports].map(([file, found]) => [file, found.runtime]));
const nodeOf = (file) => relative(root, file).split(sep)[0];
const folders = new Map();
for (const [file, found] of imports) {
  const from = nodeOf(file);
  if (!folders.has(from)) folders.set(from, new Set());
  for (const target of found.all) if (nodeOf(target) !== from) folders.get(from).add(nodeOf(target));
}

if (process.argv.includes('--graph')) {
  for (const [from, to] of [...folders].sort(([a], [b]) => a.localeCompare(b))) {
    console.log(`${from} → ${[...to].sort().join(', ') || '(nothing)'}`);
  }
}

const fileCycles = cycles(files);
const folderCycles = cycles(folders);
for (const cycle of fileCycles)
  console.error(`Import cycle between files: ${cycle.map((f) => relative(root, f)).join(', ')}`);
for (const cycle of folderCycles) {
  const ties = cycle.flatMap((a) => [...folders.get(a)].filter((b) => cycle.includes(b)).map((b) => `${a} → ${b}`));
  console.error(`Import cycle between folders of src/: ${ties.join('; ')}`);
}
if (fileCycles.length || folderCycles.length) {
  console.error('Break it: move what both sides need into a module below them, or import only its types.');
  process.exit(1);
}
console.log(
  `No import cycles among ${files.size} files in ${folders.size} folders of ${relative(process.cwd(), root) || '.'}/ (types counted between folders).`,
);

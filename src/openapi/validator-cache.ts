/**
 * Compiled validators kept on disk as ajv's standalone code, one small file each: a start whose validators are
 * all on disk never builds an ajv instance, never reads the whole spec into it and never compiles a schema.
 * Those three were a fifth of the CLI's start-up to its first answer (about 75 ms of 390). A validator is
 * written when this process first compiles it, so the files fill in as a spec's operations are used, and a
 * file that is missing, unreadable or refuses to load just means compiling again.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import standaloneModule from 'ajv/dist/standalone/index.js';
import * as equal from 'ajv/dist/runtime/equal.js';
import * as ucs2length from 'ajv/dist/runtime/ucs2length.js';
import * as uri from 'ajv/dist/runtime/uri.js';
import * as validationError from 'ajv/dist/runtime/validation_error.js';
import * as formats from 'ajv-formats/dist/formats.js';
import { CACHE_DIR, codeVersion, hashOf, pruneOldest } from '../caches/load-cache.js';
import { writeWholeFile } from '../files/whole-file.js';

/** Compiles one schema, or loads its compiled code; the key names the schema within one spec. */
export type CompileSchema = (key: string, schema: Record<string, unknown>) => ValidateFunction;

/** Older spec versions' folders kept beside the newest: a few branches' worth, not every edit's. */
const FOLDERS_KEPT = 4;

// The CommonJS modules arrive as `{ default }` under Node's own loader and as the exports under a bundler's.
type Module = Record<string, unknown>;
const exportsOf = (ns: Module): Module =>
  typeof ns.default === 'object' && ns.default !== null ? (ns.default as Module) : ns;
const standaloneCode = ((standaloneModule as unknown as Module).default ?? standaloneModule) as (
  ajv: Ajv2020,
  validate: ValidateFunction,
) => string;

/** What ajv's standalone code asks `require` for: its runtime helpers and ajv-formats' formats. */
const RUNTIME: Record<string, Module> = {
  'ajv/dist/runtime/equal': exportsOf(equal as Module),
  'ajv/dist/runtime/ucs2length': exportsOf(ucs2length as Module),
  'ajv/dist/runtime/uri': exportsOf(uri as Module),
  'ajv/dist/runtime/validation_error': exportsOf(validationError as Module),
  'ajv-formats/dist/formats': exportsOf(formats as Module),
};

function runtimeRequire(id: string): Module {
  const found = RUNTIME[id];
  if (!found) throw new Error(`standalone validator code requires ${id}, which is not provided`);
  return found;
}

/** Runs one validator's standalone code (CommonJS) and returns the function it exports. */
export function loadValidator(code: string): ValidateFunction {
  const module = { exports: {} as Module };
  // ajv itself turns generated code into functions this way; this is the code ajv generated, kept on disk.
  new Function('require', 'module', 'exports', code)(runtimeRequire, module, module.exports);
  const validate = (module.exports.default ?? module.exports) as unknown;
  if (typeof validate !== 'function') throw new Error('standalone validator code exports no function');
  return validate as ValidateFunction;
}

/**
 * A compiler for one spec's schemas that reads and writes the disk cache. `getAjv` is called only when a
 * schema has to be compiled; its instance must be made with `code: { source: true }` so the code can be kept.
 * `settings` names everything else the generated code depends on (the ajv options).
 */
export function cachedCompiler(
  specHash: string,
  settings: string,
  getAjv: () => Ajv2020,
  root = CACHE_DIR,
): CompileSchema {
  const name = folderName(specHash, settings);
  const folder = name && `${root}${name}/`;
  return (key, schema) => {
    const file = folder && `${folder}${createHash('sha256').update(key).digest('hex').slice(0, 24)}.js`;
    if (file) {
      const code = readText(file);
      if (code !== undefined) {
        try {
          return loadValidator(code);
        } catch {
          // Unusable (another ajv's code, a helper not provided): compile it afresh below.
        }
      }
    }
    const ajv = getAjv();
    const validate = ajv.compile(schema);
    if (file) save(root, name as string, file, standaloneOf(ajv, validate));
    return validate;
  };
}

function folderName(specHash: string, settings: string): string | undefined {
  try {
    return `validators-${hashOf(specHash, settings, codeVersion()).slice(0, 16)}`;
  } catch {
    return undefined; // no filesystem (the browser build): compile every time
  }
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** The validator's standalone code, when ajv can make it and it loads here: no file is kept that would fail. */
function standaloneOf(ajv: Ajv2020, validate: ValidateFunction): string | undefined {
  try {
    const code = standaloneCode(ajv, validate);
    loadValidator(code);
    return code;
  } catch {
    return undefined;
  }
}

function save(root: string, name: string, file: string, code: string | undefined): void {
  if (code === undefined) return;
  try {
    if (!isFolder(`${root}${name}`)) {
      mkdirSync(`${root}${name}`, { recursive: true });
      pruneOldest(root, (entry) => entry.startsWith('validators-'), FOLDERS_KEPT + 1, name);
    }
    writeWholeFile(file, code);
  } catch {
    // A read-only install: the validator works, it is just not kept.
  }
}

function isFolder(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
}

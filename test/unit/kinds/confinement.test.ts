/**
 * The promise of src/kinds/, held to the code: outside its folder, a kind's name appears only in the registry
 * and in generated files, so a new kind is its folder and one registry line. Other kinds' folders may name it
 * (a form belongs to its session); every other file under src/ is held, src/kinds/*.ts included.
 *
 * "A kind's name", in code (comments are trivia the parser drops; prose inside a message string is not code):
 * - a module path into its folder (`kinds/pty/…`, or `./pty/…` from src/kinds/);
 * - one of its world tables (its `WorldTables` keys) read off a world (`world.ptys`, `engine.world?.sessions`);
 * - one of its scenario sections (its format's properties) read off a scenario (`scenario.ptys`);
 * - a string that is one of its event types (its `EventCatalog` keys), or a type under its name that its folder
 *   publishes (`'session.updated'`);
 * - a string that is an operation it claims (a handler's, stream's or ticketed operationId: `'v2.pty.connect'`);
 * - an API path whose resource is the kind, in a string, template or regular expression
 *   (`/api/pty/{ptyID}/connect`, `/session/…`);
 * - a class its errors.ts declares, and any identifier ending in `Error` that starts with its name
 *   (`SessionBusyError`);
 * - an identifier its folder exports that starts with its name (`sessionOf`, `PtyState`);
 * - for a kind whose name is no everyday word (`pty`, `project-copy`), any identifier that starts with its name
 *   and goes on (`ptyConnection`, `PROJECT_COPY…`).
 *
 * Not counted, because the word is English or the API's before it is a kind's: a bare identifier that is only
 * the word (`file`, `session`, `console.log`), compounds of an everyday word the kind does not declare
 * (`CommandSpec` of the CLI, `ServerResponse`), and the API's own field names (`sessionID`, `messageID`),
 * which every layer that routes or records a request reads without knowing any kind. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../../src/kinds/registry.js';

const ROOT = join(import.meta.dirname, '../../..');
const SRC = join(ROOT, 'src');
const KINDS_DIR = join(SRC, 'kinds');

/** Wire field names of the API: its JSON's words, read by code that routes and records without a kind. */
const API_FIELDS = new Set(['sessionID', 'messageID', 'partID', 'providerID', 'modelID', 'ptyID', 'formID']);

/**
 * Kinds named by an everyday word (a CLI `command`, a `file` path, `console.log`, an HTTP `ServerResponse`): for
 * these an identifier is the kind's only when the kind declares it or it is an error class under its name.
 * A kind not listed (`pty`, `project-copy`, every new one) owns every identifier that starts with its name.
 */
const WORDS = new Set([
  'agent',
  'attempt',
  'capability',
  'command',
  'console',
  'file',
  'form',
  'integration',
  'model',
  'permission',
  'plugin',
  'question',
  'reference',
  'resource',
  'server',
  'session',
  'shell',
  'skill',
  'tool',
  'workspace',
  'worktree',
]);

/**
 * Files that name a kind on purpose, each with why; the test fails too when one no longer needs its place here.
 * The scripted model and the real runtime are built on the session kind: they play a scenario's session turns
 * (their steps, their matching, their tool permissions) against a real runtime, so they read its sections and
 * types as another kind would. `validate` prints how many sessions and forms a scenario has. The package's
 * SERVER_ERRORS says which errors come from the real server's document, some of them kinds'.
 */
const ALLOWED: ReadonlyArray<{ file: string; kinds: readonly string[]; why: string }> = [
  {
    file: 'src/kinds/api-errors.ts',
    kinds: ['pty', 'permission', 'model', 'session', 'workspace', 'worktree'],
    why: "SERVER_ERRORS, a public map, names the errors the real server's document adds to the interface's",
  },
  { file: 'src/cli/files.ts', kinds: ['session', 'form'], why: "validate's summary line counts them" },
  { file: 'src/cli/model.ts', kinds: ['session', 'model'], why: "the scripted model's turn matching; ModelTapeError" },
  { file: 'src/real-runtime/real-runtime.ts', kinds: ['session'], why: "the scripted model's turn matching" },
  {
    file: 'src/real-runtime/runtime-config.ts',
    kinds: ['session', 'agent', 'permission'],
    why: "a real runtime's permissions, from the scenario's agents, saved permissions and scripted asks",
  },
  {
    file: 'src/scripted-model/model-tape.ts',
    kinds: ['model'],
    why: "ModelTapeError: an LLM's tape, not the model kind",
  },
  { file: 'src/scripted-model/script.ts', kinds: ['session'], why: "a turn's steps as the model plays them" },
  { file: 'src/scripted-model/scripted-model.ts', kinds: ['session'], why: "the scenario's session turns it plays" },
];

interface KindNames {
  readonly folder: string;
  readonly name: string;
  /** Name forms an identifier may start with: `projectCopy`, `ProjectCopy`, `PROJECT_COPY`. */
  readonly words: readonly string[];
  readonly tables: ReadonlySet<string>;
  readonly sections: ReadonlySet<string>;
  /** Its domain event types, and the published types its folder names under its name (`session.updated`). */
  readonly events: ReadonlySet<string>;
  /** The operations it claims: handlers, streams, WebSocket upgrades. */
  readonly operations: ReadonlySet<string>;
  readonly errors: ReadonlySet<string>;
  /** What its folder exports under its name (`sessionOf`, `PtyState`): an import of it lands here. */
  readonly exported: ReadonlySet<string>;
  /** Its name is an everyday word, so only the identifiers its folder declares count as its name. */
  readonly word: boolean;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return filesUnder(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

const camel = (kebab: string) => kebab.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
const pascal = (kebab: string) => camel(kebab).replace(/^\w/, (c) => c.toUpperCase());

/** Keys of an interface a kind augments (`interface WorldTables { readonly ptys: … }`). */
function augmented(source: ts.SourceFile, interfaceName: string): string[] {
  const keys: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isInterfaceDeclaration(node) && node.name.text === interfaceName) {
      for (const member of node.members) {
        if (member.name && (ts.isIdentifier(member.name) || ts.isStringLiteral(member.name))) {
          keys.push(member.name.text);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return keys;
}

/** The strings of a file that are event types under a kind's name (`'session.updated'`). */
function published(source: ts.SourceFile, name: string): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) && new RegExp(`^${name}\\.[a-z][\\w.]*$`).test(node.text)) found.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function parse(path: string): ts.SourceFile {
  return ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
}

/** Each kind's folder (from the registry's imports) with the names that are its own. */
function kindNames(): KindNames[] {
  const registry = readFileSync(join(KINDS_DIR, 'registry.ts'), 'utf8');
  const folders = [...registry.matchAll(/from '\.\/([\w-]+)\/[\w-]+\.js'/g)].map((m) => m[1] as string);
  return folders.map((folder) => {
    const files = filesUnder(join(KINDS_DIR, folder)).map(parse);
    const all = (name: string) => new Set(files.flatMap((f) => augmented(f, name)));
    const errorsFile = files.find((f) => f.fileName.endsWith(`${sep}errors.ts`));
    const errors = new Set<string>();
    errorsFile?.forEachChild((node) => {
      if (ts.isClassDeclaration(node) && node.name) errors.add(node.name.text);
    });
    const words = [camel(folder), pascal(folder), folder.replace(/-/g, '_').toUpperCase()];
    const exported = new Set<string>();
    for (const file of files) {
      file.forEachChild((node) => {
        const modifiers = ts.canHaveModifiers(node) ? ts.getModifiers(node) : undefined;
        if (!modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) return;
        const names = ts.isVariableStatement(node)
          ? node.declarationList.declarations.map((d) => d.name)
          : 'name' in node && node.name
            ? [node.name as ts.Node]
            : [];
        for (const name of names) {
          if (ts.isIdentifier(name) && words.some((w) => startsWithWord(name.text, w))) exported.add(name.text);
        }
      });
    }
    const kind = KINDS.list.find((k) => camel(k.name) === camel(folder));
    if (!kind) throw new Error(`no kind in the registry is named for the folder ${folder}`);
    return {
      folder,
      name: kind.name,
      words,
      tables: all('WorldTables'),
      sections: new Set(Object.keys(kind.format?.properties ?? {})),
      events: new Set([...all('EventCatalog'), ...files.flatMap((f) => published(f, kind.name))]),
      operations: new Set([
        ...Object.keys(kind.handlers ?? {}),
        ...Object.keys(kind.streams ?? {}),
        ...(kind.ticketed ?? []),
      ]),
      errors,
      exported,
      word: WORDS.has(kind.name),
    };
  });
}

function isGenerated(text: string): boolean {
  return /^\/\/ Generated by |^\/\*\*?\s*\n?\s*\*?\s*Generated by /m.test(text.slice(0, 400));
}

/** The last name of an expression a property is read off: `world` of `partition.engine.world?.sessions`. */
function receiver(expression: ts.Expression): string | undefined {
  if (ts.isIdentifier(expression)) return expression.text;
  if (ts.isPropertyAccessExpression(expression)) return expression.name.text;
  if (ts.isNonNullExpression(expression) || ts.isParenthesizedExpression(expression)) {
    return receiver(expression.expression);
  }
  return undefined;
}

function startsWithWord(identifier: string, word: string): boolean {
  if (!identifier.startsWith(word)) return false;
  const rest = identifier.slice(word.length);
  // Another word follows: `PtyNotFound`, `sessionOf`, `PTY_TICKET`; the plural counts as the word (`ptys…`).
  return /^s?[A-Z0-9_]/.test(rest) && rest.length > 0;
}

function apiPathNames(text: string, kind: KindNames): boolean {
  const unescaped = text.replace(/\\\//g, '/');
  const resources = new Set([kind.folder, ...kind.tables, ...kind.sections]);
  for (const m of unescaped.matchAll(/(?:^|[\s'"`^(])\/(?:api\/|experimental\/)?([a-z][\w-]*)(?=[/?$)'"`\s]|$)/g)) {
    if (resources.has(m[1] as string)) return true;
  }
  return false;
}

function leaksIn(path: string, kinds: readonly KindNames[]): string[] {
  const source = parse(path);
  const where = (node: ts.Node) =>
    `${relative(ROOT, path)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const inKinds = relative(KINDS_DIR, path);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    for (const kind of kinds) {
      const say = (what: string) => found.push(`${kind.name}: ${what} at ${where(node)}`);
      if (
        ts.isStringLiteralLike(node) ||
        ts.isTemplateHead(node) ||
        ts.isTemplateMiddle(node) ||
        ts.isTemplateTail(node) ||
        ts.isRegularExpressionLiteral(node)
      ) {
        const text = node.text;
        if (
          text.includes(`kinds/${kind.folder}/`) ||
          (!inKinds.includes(sep) && text.startsWith(`./${kind.folder}/`))
        ) {
          say(`module path '${text}'`);
        } else if (kind.events.has(text)) {
          say(`event type '${text}'`);
        } else if (kind.operations.has(text)) {
          say(`operation '${text}'`);
        } else if (apiPathNames(text, kind)) {
          say(`API path '${text}'`);
        }
      } else if (ts.isPropertyAccessExpression(node) && !ts.isPrivateIdentifier(node.name)) {
        const on = receiver(node.expression);
        if (on === 'world' && kind.tables.has(node.name.text)) say(`world table world.${node.name.text}`);
        if (on === 'scenario' && kind.sections.has(node.name.text)) say(`section scenario.${node.name.text}`);
      } else if (ts.isIdentifier(node)) {
        const text = node.text;
        if (kind.errors.has(text)) say(`error class ${text}`);
        else if (kind.exported.has(text)) say(`its export ${text}`);
        else if (/Error$/.test(text) && startsWithWord(text, kind.words[1] as string)) say(`error ${text}`);
        else if (!kind.word && !API_FIELDS.has(text) && kind.words.some((w) => startsWithWord(text, w))) {
          say(`identifier ${text}`);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every source file outside the kinds' own folders, but for the registry and generated files. */
function outside(kinds: readonly KindNames[]): string[] {
  const folders = new Set(kinds.map((k) => join(KINDS_DIR, k.folder) + sep));
  return filesUnder(SRC).filter(
    (path) =>
      ![...folders].some((f) => path.startsWith(f)) &&
      path !== join(KINDS_DIR, 'registry.ts') &&
      !isGenerated(readFileSync(path, 'utf8')),
  );
}

describe('kind confinement', () => {
  const kinds = kindNames();

  it('finds each kind its names (so a rule that matches nothing cannot pass)', () => {
    expect(kinds.map((k) => k.name).sort()).toEqual(KINDS.list.map((k) => k.name).sort());
    const pty = kinds.find((k) => k.name === 'pty');
    expect([...(pty?.tables ?? [])]).toContain('ptys');
    expect([...(pty?.events ?? [])]).toContain('pty.created');
    const sample = join(KINDS_DIR, 'pty', 'pty.ts');
    expect(leaksIn(sample, kinds).length).toBeGreaterThan(0);
  });

  it('keeps every kind name inside its folder, the registry and generated files', () => {
    const leaks = outside(kinds).flatMap((path) => leaksIn(path, kinds));
    const allowed = (leak: string) =>
      ALLOWED.some((a) => leak.includes(` at ${a.file}:`) && a.kinds.some((k) => leak.startsWith(`${k}: `)));
    expect(leaks.filter((leak) => !allowed(leak))).toEqual([]);
    const unused = ALLOWED.flatMap((a) =>
      a.kinds
        .filter((k) => !leaks.some((l) => l.startsWith(`${k}: `) && l.includes(` at ${a.file}:`)))
        .map((k) => `${a.file} ${k}`),
    );
    expect(unused, 'allowances no longer needed: remove them').toEqual([]);
  });
});

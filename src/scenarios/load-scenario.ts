/**
 * Reads a scenario into a `ScenarioDefinition`: from a YAML file (syntax first) or from an object a test
 * author wrote in code, then for both alike the scenario format's JSON Schema, then every record it would
 * serve against the OpenAPI spec, then the references between records. Each problem names its place
 * (file:line:col for text, the path for an object); a scenario with any problem does not load at all
 * (never half a world).
 */
import { readFileSync } from 'node:fs';
import { basename, posix } from 'node:path';
import type { Document, LineCounter } from 'yaml';
import { readYaml, YamlTextError, type ReadYaml } from '../text/read-yaml.js';
import { yaml } from '../text/yaml.js';
import { DEFAULT_START } from '../state/clock.js';
import { codeVersion, hashOf, readCached, writeCached } from '../caches/load-cache.js';
import { parseDuration, parseInstant } from '../text/duration.js';
import type { ReadContext } from '../kinds/kind.js';
import { KINDS } from '../kinds/registry.js';
import { projectContext } from '../openapi/location.js';
import type { Diagnostic, SpecIndex } from '../openapi/openapi.js';
import { createIds, createRandom } from '../state/random.js';
import { checkScenarioFormat, formatPath, INSTANT_MESSAGE, SCENARIO_SCHEMA_PATH, type Path } from './format.js';
import { checkDeclaredStates, readRule } from './read-rule.js';
import { ScenarioError, type ScenarioDefinition, type ScenarioProblem, type ScenarioSections } from './definition.js';

export { SCENARIO_SCHEMA_PATH };

type JsonObject = Record<string, unknown>;

/**
 * Turns a problem at `path` of the scenario into a reported one: how a place is shown is all that differs
 * between text and an object. `subject` names the field for messages shown without their path.
 */
type Place = (path: Path, message: string, detail?: { atKey?: boolean; subject?: string }) => ScenarioProblem;

interface Origin {
  /** The file, or the label of an object; rules' `where` starts with it. */
  file: string;
  place: Place;
  /** The scenario's name must be this file's name (without .yaml). */
  fileName?: string;
  /**
   * Read it again as if it began at this instant (`rebaseScenario`): a scenario already checked, so the
   * checks are skipped, and only its instants move.
   */
  startAt?: number;
}

/**
 * Loading checks the file against two schemas, which costs ajv a few hundred milliseconds of compiling;
 * a loaded definition is cached by everything it depends on (file text and path, spec, format, code).
 */
export function loadScenarioFile(file: string, spec: SpecIndex): ScenarioDefinition {
  const text = readFileSync(file, 'utf8');
  const key = hashOf(text, file, spec.hash, readFileSync(SCENARIO_SCHEMA_PATH, 'utf8'), codeVersion());
  const cached = readCached<ScenarioDefinition>('scenario', key);
  if (cached) return cached;
  const definition = parseScenario(text, file, spec);
  // A test suite loads many scenario files, each cached: keep enough that one run does not evict its own.
  writeCached('scenario', key, definition, 64);
  return definition;
}

export function parseScenario(text: string, file: string, spec: SpecIndex): ScenarioDefinition {
  const lines = new (yaml().LineCounter)();
  let read: ReadYaml;
  try {
    read = readYaml(text, { lineCounter: lines });
  } catch (error) {
    if (!(error instanceof YamlTextError)) throw error;
    throw new ScenarioError(error.problems.map((p) => ({ file, ...lines.linePos(p.offset), message: p.message })));
  }
  const doc = read.document;
  const place: Place = (path, message, detail) => ({
    file,
    ...position(doc, lines, path, detail?.atKey ?? false),
    path: formatPath(path),
    message: detail?.subject ? `${detail.subject} ${message}` : message,
  });
  // Placeholders such as <test> name no file, so there is no name to match.
  return readScenario(read.value, spec, {
    file,
    place,
    fileName: file.startsWith('<') ? undefined : basename(file),
  });
}

/** Objects already checked, by their JSON: a test suite tends to load the same fixture in every test. */
const inlineLoaded = new Map<string, ScenarioDefinition>();
const INLINE_CACHE_SIZE = 32;

/**
 * A scenario written as an object (`useScenario({ name: 'x', sessions: [...] })`), checked exactly as a file
 * is, except that no file name constrains its name. Problems are reported as `<label>: <path>: <message>`.
 */
export function loadScenarioObject(value: unknown, spec: SpecIndex, label = 'inline scenario'): ScenarioDefinition {
  // Through JSON, so the definition is the same whether the fixture came from YAML or code (a Date becomes
  // its ISO text, undefined fields vanish) and owes nothing to an object its author may change later.
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch (error) {
    throw new ScenarioError([
      {
        file: label,
        line: 0,
        col: 0,
        path: '',
        message: `a scenario must be JSON data: ${(error as Error).message.split('\n')[0]}`,
      },
    ]);
  }
  const key = `${spec.hash}\n${label}\n${json}`;
  const cached = inlineLoaded.get(key);
  if (cached) return cached;
  const place: Place = (path, message, detail) => {
    const where = formatPath(path);
    // Next to its path a message need not name its field; at the top there is no path to show.
    return {
      file: label,
      line: 0,
      col: 0,
      path: where,
      message: !where && detail?.subject ? `${detail.subject} ${message}` : message,
    };
  };
  const definition = readScenario(json === undefined ? undefined : (JSON.parse(json) as unknown), spec, {
    file: label,
    place,
  });
  if (inlineLoaded.size >= INLINE_CACHE_SIZE) inlineLoaded.delete(inlineLoaded.keys().next().value as string);
  inlineLoaded.set(key, definition);
  return definition;
}

/** Everything after "a raw JavaScript value": format, records against the spec, cross references. */
function readScenario(raw: unknown, spec: SpecIndex, { file, place, fileName, startAt }: Origin): ScenarioDefinition {
  const at = (path: Path, message: string): ScenarioProblem => place(path, message);
  const trusted = startAt !== undefined;
  const formatProblems = trusted
    ? []
    : checkScenarioFormat(raw).map((p) => place(p.path, p.message, { atKey: p.atKey, subject: p.subject }));
  const name = (raw as JsonObject | null)?.name;
  if (fileName !== undefined && typeof name === 'string' && name !== fileName.replace(/\.ya?ml$/, '')) {
    formatProblems.push(
      at(['name'], `name "${name}" must match the file name ${fileName} (or rename the file to ${name}.yaml)`),
    );
  }
  // Records are checked against the spec only once the scenario has the format's shape.
  if (formatProblems.length) throw new ScenarioError(formatProblems);
  const source = raw as JsonObject;
  const scenarioName = source.name as string;
  const seed = (source.seed as string | undefined) ?? scenarioName;
  const pinnedStart = Boolean(source.start);
  const written = pinnedStart ? Date.parse(source.start as string) : DEFAULT_START;
  const start = startAt ?? written;
  // A date-time the scenario wrote moves with its start, so that it stays as long before (or after) it.
  const shift = start - written;
  const random = createRandom(seed);
  const ids = createIds(random);
  const ms = (value: unknown) => start + (parseDuration(value as string | number) ?? 0);
  const problems: ScenarioProblem[] = [];
  /** An instant as virtual time; one the format let through but Date cannot read is reported and read as the start. */
  const instant = (value: unknown, path: Path): number => {
    const parsed = parseInstant(value as string | number, start);
    const time =
      parsed === undefined || parseDuration(value as string | number) !== undefined ? parsed : parsed + shift;
    if (time === undefined) problems.push(place(path, INSTANT_MESSAGE, { subject: String(path[path.length - 1]) }));
    return time ?? start;
  };
  const declaredProject = source.project as { directory: string; id?: string } | undefined;
  // Normalised, since locations are compared with the directory as text (`/home/dev/app/` is `/home/dev/app`).
  const project = declaredProject && projectContext(posix.resolve(declaredProject.directory), declaredProject.id);
  /** Holds a record the scenario would serve to its spec schema, reporting each problem at `path`. */
  const checkRecord = (
    component: string,
    value: unknown,
    path: Path,
    label: string,
    skip?: (d: Diagnostic) => boolean,
  ) => {
    if (trusted) return;
    for (const d of spec.checkComponent(component, value)) {
      if (!skip?.(d)) problems.push(at(path, `${label}: ${d.path || '(record)'} ${d.message} (spec ${component})`));
    }
  };

  // Each kind reads its sections in the registry's order, so it may name what those before it declared.
  const sections: Record<string, unknown> = {};
  const declared = new Map<string, ReadonlySet<string>>();
  const context: ReadContext = {
    start,
    random,
    ids,
    project,
    after: ms,
    instant,
    problem: (path, message, detail) => problems.push(place(path, message, detail)),
    checkRecord,
    declared: (kind) => declared.get(kind) ?? new Set(),
  };
  for (const kind of KINDS.list) {
    const read = kind.read?.(source, context) ?? {};
    Object.assign(sections, read);
    if (kind.ids) declared.set(kind.name, new Set(kind.ids(read as unknown as ScenarioDefinition)));
  }
  // A file position alone does not say which rule, so a rule's problem names its path.
  const reportInRule = (i: number) => (path: Path, message: string) =>
    problems.push(place(['rules', i, ...path], message, { subject: `${formatPath(['rules', i, ...path])}:` }));
  const rules = ((source.rules as JsonObject[] | undefined) ?? []).map((r, i) =>
    readRule(r, spec, { at: ms, report: reportInRule(i), where: `${file} rules[${i}]` }),
  );
  const states = new Map(KINDS.stateful.map((kind) => [kind.name, declared.get(kind.name) ?? new Set<string>()]));
  rules.forEach((rule, i) => checkDeclaredStates(rule, states, reportInRule(i)));

  if (problems.length) throw new ScenarioError(problems);
  return {
    name: scenarioName,
    description: source.description as string | undefined,
    file,
    seed,
    start,
    pinnedStart,
    source,
    ...(project ? { project } : {}),
    ...(sections as unknown as ScenarioSections),
    rules,
  };
}

/**
 * The scenario as if it began at `at` (a clock started at the wall clock's now, `--real-time`): every instant
 * it declares keeps its distance from the start, a date-time it wrote included, so a session created two
 * minutes before the start still reads two minutes old. A scenario that pins its `start` stays where it is,
 * as does a definition that was not read from a scenario (it keeps no source to read again).
 */
export function rebaseScenario(definition: ScenarioDefinition, at: number, spec: SpecIndex): ScenarioDefinition {
  if (definition.pinnedStart || definition.source === undefined || at === definition.start) return definition;
  const place: Place = (path, message) => ({ file: definition.file, line: 0, col: 0, path: formatPath(path), message });
  return readScenario(structuredClone(definition.source), spec, { file: definition.file, place, startAt: at });
}

/** The deepest node of the path that exists in the file, so a missing key points at its parent. */
function position(doc: Document, lines: LineCounter, path: Path, atKey: boolean): { line: number; col: number } {
  if (atKey) {
    // An unknown field is best shown at its name, not its value.
    const parent = doc.getIn(path.slice(0, -1), true);
    const { isMap, isScalar } = yaml();
    const pair = isMap(parent)
      ? parent.items.find((p) => isScalar(p.key) && p.key.value === path[path.length - 1])
      : undefined;
    const range = isScalar(pair?.key) ? pair.key.range : undefined;
    if (range) return lines.linePos(range[0]);
  }
  for (let depth = path.length; depth >= 0; depth--) {
    const node = doc.getIn(path.slice(0, depth), true) as { range?: [number, number, number] } | undefined;
    if (node?.range) return lines.linePos(node.range[0]);
  }
  return { line: 1, col: 1 };
}

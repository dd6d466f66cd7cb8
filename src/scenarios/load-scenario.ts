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
import { yaml } from '../text/yaml.js';
import { undeclared } from '../text/closest.js';
import { DEFAULT_START } from '../state/clock.js';
import { codeVersion, hashOf, readCached, writeCached } from '../load-cache.js';
import { DEFAULTS } from '../config.js';
import { parseDuration, parseInstant } from '../duration.js';
import { projectContext } from '../openapi/location.js';
import type { Diagnostic, SpecIndex } from '../openapi/openapi.js';
import { createIds, createRandom } from '../state/random.js';
import { generateMessages } from './generate-messages.js';
import { buildFileTree } from './file-tree.js';
import { checkScenarioFormat, formatPath, INSTANT_MESSAGE, SCENARIO_SCHEMA_PATH, type Path } from './format.js';
import { checkDeclaredStates, declaredResources, readRule } from './read-rule.js';
import {
  ScenarioError,
  type AttemptDefinition,
  type PtyDefinition,
  type ShellDefinition,
  type FormDefinition,
  type MessageRecord,
  type ScenarioDefinition,
  type ScenarioProblem,
  type SessionDefinition,
  type TurnScript,
  type TurnStep,
  type Window,
} from './definition.js';

export { SCENARIO_SCHEMA_PATH };

type Json = Record<string, unknown>;

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
}

const DEFAULT_PROJECT_DIR = DEFAULTS.projectDir;
/** OAuth attempts expire ten minutes after creation, as on the real server. */
const ATTEMPT_LIFETIME = 600_000;

/** Gap between consecutive messages that carry no `at`, so a history reads like a working session. */
const MESSAGE_SPACING = 45_000;

/**
 * Loading checks the file against two schemas, which costs ajv a few hundred milliseconds of compiling;
 * a loaded definition is cached by everything it depends on (file text and path, spec, format, code).
 */
export function loadScenarioFile(file: string, spec: SpecIndex): ScenarioDefinition {
  const text = readFileSync(file, 'utf8');
  const key = hashOf(text, file, spec.hash, readFileSync(SCENARIO_SCHEMA_PATH, 'utf8'), codeVersion());
  const cached = readCached<Omit<ScenarioDefinition, 'files'> & { files: Array<[string, never]> }>('scenario', key);
  if (cached) return { ...cached, files: new Map(cached.files) };
  const definition = parseScenario(text, file, spec);
  writeCached('scenario', key, { ...definition, files: [...definition.files] });
  return definition;
}

export function parseScenario(text: string, file: string, spec: SpecIndex): ScenarioDefinition {
  const { LineCounter: Lines, parseDocument } = yaml();
  const lines = new Lines();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  if (doc.errors.length) {
    throw new ScenarioError(
      doc.errors.map((e) => ({ file, ...lines.linePos(e.pos[0]), message: `YAML: ${e.message.split('\n')[0]}` })),
    );
  }
  const place: Place = (path, message, detail) => ({
    file,
    ...position(doc, lines, path, detail?.atKey ?? false),
    path: formatPath(path),
    message: detail?.subject ? `${detail.subject} ${message}` : message,
  });
  // Placeholders such as <test> name no file, so there is no name to match.
  return readScenario(doc.toJS() as unknown, spec, {
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
function readScenario(raw: unknown, spec: SpecIndex, { file, place, fileName }: Origin): ScenarioDefinition {
  const at = (path: Path, message: string): ScenarioProblem => place(path, message);
  const formatProblems = checkScenarioFormat(raw).map((p) =>
    place(p.path, p.message, { atKey: p.atKey, subject: p.subject }),
  );
  const name = (raw as Json | null)?.name;
  if (fileName !== undefined && typeof name === 'string' && name !== fileName.replace(/\.ya?ml$/, '')) {
    formatProblems.push(
      at(['name'], `name "${name}" must match the file name ${fileName} (or rename the file to ${name}.yaml)`),
    );
  }
  // Records are checked against the spec only once the scenario has the format's shape.
  if (formatProblems.length) throw new ScenarioError(formatProblems);
  const source = raw as Json;
  const scenarioName = source.name as string;
  const seed = (source.seed as string | undefined) ?? scenarioName;
  const start = source.start ? Date.parse(source.start as string) : DEFAULT_START;
  const random = createRandom(seed);
  const ids = createIds(random);
  const ms = (value: unknown) => start + (parseDuration(value as string | number) ?? 0);
  const problems: ScenarioProblem[] = [];
  /** An instant as virtual time; one the format let through but Date cannot read is reported and read as the start. */
  const instant = (value: unknown, path: Path): number => {
    const time = parseInstant(value as string | number, start);
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
    for (const d of spec.checkComponent(component, value)) {
      if (!skip?.(d)) problems.push(at(path, `${label}: ${d.path || '(record)'} ${d.message} (spec ${component})`));
    }
  };

  const sessions = ((source.sessions as Json[] | undefined) ?? []).map((s, i): SessionDefinition => {
    const scripted = (s.messages as Json[] | undefined) ?? [];
    const generated = generateMessages(random, ((s.generate as Json | undefined)?.count as number | undefined) ?? 0);
    const all = [...scripted, ...generated];
    const messages = all.map((m, j): MessageRecord => {
      const { at: when, ...body } = m;
      const created = when === undefined ? start - (all.length - j) * MESSAGE_SPACING : ms(when);
      const record = {
        id: (m.id as string | undefined) ?? ids.ascending('msg_', created),
        time: { created },
        ...body,
      } as MessageRecord;
      // Generated messages come from this code, not the user's file (a unit test holds them to the spec);
      // checking hundreds of them would only slow start-up.
      if (j < scripted.length)
        checkRecord('SessionMessage', record, ['sessions', i, 'messages', j], `message ${record.id}`);
      return record;
    });
    return {
      id: s.id as string,
      title: s.title as string | undefined,
      appears: s.appears === undefined ? start : ms(s.appears),
      busy: ((s.busy as Json[] | undefined) ?? []).map((w): Window => ({
        from: ms(w.from),
        until: w.until === undefined ? undefined : ms(w.until),
      })),
      busyAfterSynthetic:
        s.busyAfterSynthetic === undefined ? undefined : parseDuration(s.busyAfterSynthetic as string | number),
      messages: [...messages].sort((a, b) => a.time.created - b.time.created),
      revert: s.revert as SessionDefinition['revert'],
      questions: (s.questions as string[] | undefined) ?? [],
      turns: [],
    };
  });

  const sessionIds = new Set(sessions.map((s) => s.id));
  duplicates(
    sessions.map((s) => s.id),
    (id, index) => problems.push(at(['sessions', index, 'id'], `session ${id} is declared twice`)),
  );
  const turns = readTurns((source.turns as Json[] | undefined) ?? [], (path, message, atKey) =>
    problems.push(place(path, message, { atKey })),
  );
  for (const [i, turn] of turns.entries()) {
    if (!sessionIds.has(turn.session))
      problems.push(at(['turns', i, 'session'], undeclared('session', turn.session, 'sessions', sessionIds)));
  }
  const scripted = sessions.map((s) => ({ ...s, turns: turns.filter((t) => t.session === s.id).map((t) => t.script) }));
  const forms = ((source.forms as Json[] | undefined) ?? []).map((f, i): FormDefinition => {
    const { appears, cancelled, ...record } = f;
    if (!sessionIds.has(f.sessionID as string))
      problems.push(at(['forms', i, 'sessionID'], undeclared('session', String(f.sessionID), 'sessions', sessionIds)));
    // Each field on its own, so a problem is reported at the field and only for the field's own type.
    const fields = Array.isArray(record.fields) ? (record.fields as unknown[]) : [];
    fields.forEach((field, j) =>
      checkRecord('FormField', field, ['forms', i, 'fields', j], `form ${String(f.id)} field ${j + 1}`),
    );
    checkRecord('FormRequest', record, ['forms', i], `form ${String(f.id)}`, (d) => /^fields\.\d/.test(d.path));
    return {
      record: record as FormDefinition['record'],
      appears: appears === undefined ? start : ms(appears),
      cancelled: cancelled === undefined ? undefined : ms(cancelled),
    };
  });
  duplicates(
    forms.map((f) => f.record.id),
    (id, index) => problems.push(at(['forms', index, 'id'], `form ${id} is declared twice`)),
  );

  const shells = ((source.shells as Json[] | undefined) ?? []).map((sh, i): ShellDefinition => {
    const timeout = sh.timeout as number | undefined;
    const completes = sh.completes as Json | undefined;
    const started = sh.starts === undefined ? start : instant(sh.starts, ['shells', i, 'starts']);
    // A command's times are its own: its timeout and completion count from when it starts.
    const after = (value: unknown) => started + (parseDuration(value as string | number) ?? 0);
    return {
      id: sh.id as string,
      command: sh.command as string,
      cwd: sh.cwd as string | undefined,
      shell: (sh.shell as string | undefined) ?? '/bin/bash',
      pid: (sh.pid as number | undefined) ?? 4100 + i,
      file: sh.file as string | undefined,
      metadata: sh.metadata as Json | undefined,
      started,
      deadline: timeout ? started + timeout : undefined,
      completes: completes
        ? { at: after(completes.after), exit: (completes.exit as number | undefined) ?? 0 }
        : undefined,
    };
  });
  duplicates(
    shells.map((s) => s.id),
    (id, index) => problems.push(at(['shells', index, 'id'], `shell ${id} is declared twice`)),
  );

  const integrations = ((source.integrations as Json[] | undefined) ?? []).map((raw, i) => {
    const record = { methods: [], connections: [], ...raw } as unknown as Json & { id: string; connections: Json[] };
    checkRecord('Integration', record, ['integrations', i], `integration ${record.id}`);
    return record;
  });
  const integrationIds = new Set(integrations.map((r) => r.id));
  const attempts = ((source.attempts as Json[] | undefined) ?? []).map((a, i): AttemptDefinition => {
    if (!integrationIds.has(a.integrationID as string))
      problems.push(
        at(
          ['attempts', i, 'integrationID'],
          undeclared('integration', String(a.integrationID), 'integrations', integrationIds),
        ),
      );
    const created = a.created === undefined ? start : instant(a.created, ['attempts', i, 'created']);
    const settles = a.settles as Json | undefined;
    if (settles && settles.poll === undefined && settles.at === undefined)
      problems.push(
        at(
          ['attempts', i, 'settles'],
          `attempts[${i}].settles says how, not when: add poll (the poll that settles it, 1 for the first) or at (a time)`,
        ),
      );
    return {
      id: a.id as string,
      integrationID: a.integrationID as string,
      created,
      expires:
        created +
        (a.expires === undefined
          ? ATTEMPT_LIFETIME
          : (parseDuration(a.expires as string | number) ?? ATTEMPT_LIFETIME)),
      settles: settles && {
        as: settles.as as 'complete' | 'failed',
        poll: settles.poll as number | undefined,
        at: settles.at === undefined ? undefined : ms(settles.at),
        message: settles.message as string | undefined,
        credential: settles.credential as { id: string; label?: string } | undefined,
      },
    };
  });
  const ptys = ((source.ptys as Json[] | undefined) ?? []).map((p, i): PtyDefinition => {
    const id = p.id as string;
    const record = {
      id,
      title: (p.title as string | undefined) ?? `Terminal ${id.slice(-4)}`,
      command: (p.command as string | undefined) ?? '/bin/bash',
      args: (p.args as string[] | undefined) ?? ['-l'],
      cwd: (p.cwd as string | undefined) ?? project?.directory ?? DEFAULT_PROJECT_DIR,
      status: 'running',
      pid: (p.pid as number | undefined) ?? 7400 + i,
    };
    checkRecord('PtySession', record, ['ptys', i], `pty ${id}`);
    return { record };
  });
  const references = ((source.references as Json[] | undefined) ?? []).map((r, i) => {
    checkRecord('Reference', r, ['references', i], 'reference');
    return r;
  });
  const model = source.model as Json | undefined;
  if (model) checkRecord('Model', model, ['model'], 'model');
  // A file position alone does not say which rule, so a rule's problem names its path.
  const reportInRule = (i: number) => (path: Path, message: string) =>
    problems.push(place(['rules', i, ...path], message, { subject: `${formatPath(['rules', i, ...path])}:` }));
  const rules = ((source.rules as Json[] | undefined) ?? []).map((r, i) =>
    readRule(r, spec, { at: ms, report: reportInRule(i), where: `${file} rules[${i}]` }),
  );
  const declared = declaredResources({ sessions: scripted, forms, shells, attempts });
  rules.forEach((rule, i) => checkDeclaredStates(rule, declared, reportInRule(i)));

  if (problems.length) throw new ScenarioError(problems);
  return {
    name: scenarioName,
    description: source.description as string | undefined,
    file,
    seed,
    start,
    ...(project ? { project } : {}),
    sessions: scripted,
    forms,
    shells,
    integrations,
    attempts,
    ptys,
    references,
    plugins: (source.plugins as string[] | undefined) ?? [],
    files: buildFileTree((source.files as string[] | undefined) ?? []),
    model,
    projectCopy: (source.projectCopy as ScenarioDefinition['projectCopy'] | undefined) ?? {},
    rules,
  };
}

/** The kinds of turn step, each the field that names it; a step has exactly one. */
const STEP_KINDS = ['reasoning', 'text', 'tool', 'fail', 'retry'] as const;
/** Options and the kinds they apply to (`after` applies to all). */
const STEP_OPTIONS: Record<string, ReadonlyArray<TurnStep['kind']>> = {
  chunk: ['reasoning', 'text', 'tool'],
  every: ['reasoning', 'text', 'tool'],
  input: ['tool'],
  result: ['tool'],
  error: ['tool'],
  structured: ['tool'],
  takes: ['tool'],
};

/**
 * `turns:` as scripts per session, in the order written. The format has already checked each field's type;
 * what it cannot say is checked here: one kind per step, options that fit the kind, and an order a turn can
 * play (a failed step ends the turn; a retry needs an attempt after it).
 */
function readTurns(
  raw: Json[],
  report: (path: Path, message: string, atKey: boolean) => void,
): Array<{ session: string; script: TurnScript }> {
  const duration = (value: unknown) => (value === undefined ? undefined : parseDuration(value as string | number));
  return raw.map((turn, i) => {
    const rawSteps = turn.steps as Json[];
    const steps = rawSteps.map((step, j): TurnStep => {
      const path: Path = ['turns', i, 'steps', j];
      const kinds = STEP_KINDS.filter((k) => step[k] !== undefined);
      const kind = kinds[0] ?? 'text';
      if (kinds.length !== 1)
        report(
          path,
          kinds.length
            ? `a step is one thing; this one is ${kinds.join(' and ')}`
            : `a step needs one of ${STEP_KINDS.join(', ')}`,
          false,
        );
      for (const [option, fits] of Object.entries(STEP_OPTIONS)) {
        if (step[option] !== undefined && kinds.length === 1 && !fits.includes(kind))
          report([...path, option], `${option} does not apply to a ${kind} step`, true);
      }
      if (step.result !== undefined && step.error !== undefined)
        report([...path, 'error'], 'a tool call answers a result or fails with an error, not both', true);
      if (kind === 'fail' && j < rawSteps.length - 1)
        report(
          ['turns', i, 'steps', j + 1],
          'nothing can follow fail: a failed step ends the turn (script a retry to try again)',
          false,
        );
      if (kind === 'retry' && j === rawSteps.length - 1)
        report(path, 'a retry needs the steps of the retried attempt after it', false);
      const after = duration(step.after);
      switch (kind) {
        case 'reasoning':
        case 'text':
          return {
            kind,
            text: step[kind] as string,
            after,
            chunk: step.chunk as number | undefined,
            every: duration(step.every),
          };
        case 'tool':
          return {
            kind,
            tool: step.tool as string,
            input: (step.input as Json | undefined) ?? {},
            result: step.result as string | undefined,
            error: step.error as string | undefined,
            structured: step.structured as Json | undefined,
            takes: duration(step.takes),
            after,
            chunk: step.chunk as number | undefined,
            every: duration(step.every),
          };
        case 'fail':
          return { kind, message: step.fail as string, after };
        case 'retry': {
          const retry = typeof step.retry === 'string' ? { message: step.retry } : (step.retry as Json);
          return {
            kind,
            message: retry.message as string,
            statusCode: retry.statusCode as number | undefined,
            attempt: retry.attempt as number | undefined,
            wait: duration(retry.wait),
            after,
          };
        }
      }
    });
    return { session: turn.session as string, script: { steps } };
  });
}

function duplicates(values: string[], report: (value: string, index: number) => void): void {
  const seen = new Set<string>();
  values.forEach((value, index) => {
    if (seen.has(value)) report(value, index);
    seen.add(value);
  });
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

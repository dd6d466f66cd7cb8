/**
 * Reads one rule, written in a scenario's `rules` or added at run time, into a `RuleDefinition`, checking
 * that it names a real operation and that what it answers is a status and body that operation declares.
 * Both kinds of rule go through `readRule`, so a rule means the same wherever it is written.
 */
import { checkAnswer } from '../openapi/answer-check.js';
import { parseDuration } from '../duration.js';
import type { SpecIndex } from '../openapi/openapi.js';
import { DEFAULT_START } from '../state/clock.js';
import { KINDS } from '../kinds/registry.js';
import { didYouMean, undeclared } from '../text/closest.js';
import { ScenarioError, type RuleDefinition, type ScenarioDefinition, type ScenarioProblem } from './definition.js';
import { checkRuleFormat, formatPath, type Path } from './format.js';

type Json = Record<string, unknown>;
type Report = (path: Path, message: string) => void;

export interface RuleContext {
  /** Virtual time of a duration written in the rule (`when.after`, `when.before`). */
  at(value: unknown): number;
  /** Reports a problem at a path relative to the rule. */
  report: Report;
  /** Where the rule is written, for the journal and `x-sim-rule`. */
  where: string;
}

/** Expects a rule that already has the format's shape (`$defs/rule` of the scenario schema). */
export function readRule(raw: Json, spec: SpecIndex, { at, report, where }: RuleContext): RuleDefinition {
  const when = raw.when as Json;
  const then = raw.then as Json;
  const operationId = when.operation as string;
  const operation = spec.byId.get(operationId);
  if (!operation) {
    report(
      ['when', 'operation'],
      `no operation ${operationId} in the spec.${didYouMean(operationId, [...spec.byId.keys()], { quote: false })} GET /__sim/operations (or docs/operations.md) lists them.`,
    );
  }
  const delay = then.delay === undefined ? 0 : (parseDuration(then.delay as string | number) ?? 0);
  const matching = {
    operation: operationId,
    params: (when.params as Record<string, string> | undefined) ?? {},
    query: when.query as Json | undefined,
    body: when.body as Json | undefined,
    after: when.after === undefined ? undefined : at(when.after),
    before: when.before === undefined ? undefined : at(when.before),
    state: when.state as RuleDefinition['state'],
    times: raw.times as number | undefined,
    where,
  };

  if (then.drop === true) {
    // A dropped connection sends nothing, so anything said about the answer would silently go unused.
    for (const field of ['status', 'body', 'error'] as const) {
      if (field in then) report(['then', field], `drop sends no answer, so ${field} cannot go with it (delay can)`);
    }
    return { ...matching, status: 0, drop: true, delay };
  }

  const error = then.error as Json | undefined;
  let status = then.status as number | undefined;
  const answer = error ?? then.body;
  if (error && operation && status === undefined) {
    const tagField = error._tag === undefined && error.name !== undefined ? 'name' : '_tag';
    const tag = error[tagField] as string | undefined;
    const declared = [...operation.declaredTags].join(', ');
    status = [...operation.responses.values()].find((r) => tag !== undefined && r.tags.includes(tag))?.status;
    if (tag === undefined) report(['then', 'error'], `an error needs its _tag (declared: ${declared})`);
    else if (status === undefined)
      report(
        ['then', 'error', tagField],
        `${String(tag)} is not an error ${operation.operationId} declares.${didYouMean(String(tag), [...operation.declaredTags], { quote: false })} Declared: ${declared}.`,
      );
  }
  if (operation && status === undefined && !error)
    report(['then'], 'say what to answer: status (and body), error, or drop');
  if (operation && status !== undefined) {
    // Location-scoped answers get their envelope's location filled in when served; check them with one.
    const served = withLocation(operation.locationEnvelope, answer, {
      directory: '/',
      project: { id: 'global', directory: '/' },
    });
    for (const problem of checkAnswer(operation, status, served))
      report(['then'], `answer violates the spec: ${problem.message}`);
  }
  return { ...matching, status: status ?? 500, answer, delay };
}

/** The ids of each stateful kind a scenario declares, for rules' `when.state`. */
export type DeclaredResources = ReadonlyMap<string, ReadonlySet<string>>;

export function declaredResources(scenario: ScenarioDefinition): DeclaredResources {
  return new Map(KINDS.stateful.map((kind) => [kind.name, new Set(kind.ids?.(scenario) ?? [])]));
}

/** Reports each `when.state` condition on a resource that is not declared (none are, without a scenario). */
export function checkDeclaredStates(
  rule: RuleDefinition,
  declared: DeclaredResources | undefined,
  report: Report,
): void {
  for (const { name: kind } of KINDS.stateful) {
    const condition = (rule.state as Record<string, { id: string }> | undefined)?.[kind];
    if (!condition) continue;
    if (!declared)
      report(['when', 'state', kind, 'id'], `${kind} ${condition.id} is not declared: no scenario is loaded`);
    else if (!declared.get(kind)?.has(condition.id))
      report(
        ['when', 'state', kind, 'id'],
        undeclared(kind, condition.id, `${kind}s`, declared.get(kind) ?? new Set()),
      );
  }
}

export interface RuntimeRuleOptions {
  /** Names the rule: its `where` is `runtime rule <id>`. */
  id: string;
  /** Virtual time its durations count from (default: the scenario's start). */
  start?: number;
}

/**
 * Reads a rule added at run time (the control API, a test's handle): the format of a scenario's `rules[]`
 * entry, then the checks a scenario's rule gets, then its states against `scenario`'s resources. Throws a
 * `ScenarioError` listing every problem by its path in the rule.
 */
export function readRuntimeRule(
  value: unknown,
  spec: SpecIndex,
  scenario: ScenarioDefinition | undefined,
  options: RuntimeRuleOptions,
): RuleDefinition {
  const where = `runtime rule ${options.id}`;
  const problem = (path: Path, message: string, subject?: string): ScenarioProblem => {
    const place = formatPath(path);
    // A problem about the whole rule has no path to show, so it names its subject instead.
    return {
      file: where,
      line: 0,
      col: 0,
      path: place,
      message: !place && subject ? `${subject} ${message}` : message,
    };
  };
  const formatProblems = checkRuleFormat(value).map((p) => problem(p.path, p.message, p.subject));
  if (formatProblems.length) throw new ScenarioError(formatProblems);
  const start = options.start ?? scenario?.start ?? DEFAULT_START;
  const problems: ScenarioProblem[] = [];
  const report: Report = (path, message) => problems.push(problem(path, message));
  const rule = readRule(value as Json, spec, {
    at: (v) => start + (parseDuration(v as string | number) ?? 0),
    report,
    where,
  });
  checkDeclaredStates(rule, scenario && declaredResources(scenario), report);
  if (problems.length) throw new ScenarioError(problems);
  return rule;
}

/** Adds `location` to a location-scoped success body that the scenario wrote without one. */
export function withLocation(envelope: boolean, body: unknown, location: unknown): unknown {
  if (
    !envelope ||
    typeof body !== 'object' ||
    body === null ||
    Array.isArray(body) ||
    'location' in body ||
    '_tag' in body ||
    !('data' in body)
  )
    return body;
  return { location, ...body };
}

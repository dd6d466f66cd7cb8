/**
 * Reads one rule, written in a scenario's `rules` or added at run time, into a `RuleDefinition`, checking
 * that it names a real operation (or a method and path of one) and that what it answers is a status and body
 * that operation declares; unless the rule says `outsideSpec: true`, which lets it match any path and answer
 * anything, on purpose and marked as such.
 * Both kinds of rule go through `readRule`, so a rule means the same wherever it is written.
 */
import { checkAnswer } from '../openapi/answer-check.js';
import { parseDuration } from '../text/duration.js';
import type { OperationDefinition, SpecIndex } from '../openapi/openapi.js';
import { findOperation } from '../openapi/router.js';
import { DEFAULT_START } from '../state/clock.js';
import { KINDS } from '../kinds/registry.js';
import { didYouMean, undeclared } from '../text/closest.js';
import {
  ScenarioError,
  type RuleDefinition,
  type ScenarioDefinition,
  type ScenarioProblem,
  type StreamFault,
} from './definition.js';
import { checkRuleFormat, formatPath, type Path } from './format.js';
import { compilePattern, compileTemplate, operationAt } from './rule-path.js';

type JsonObject = Record<string, unknown>;
type Report = (path: Path, message: string) => void;

export interface RuleContext {
  /** Virtual time of a duration written in the rule (`when.after`, `when.before`). */
  at(value: unknown): number;
  /** Reports a problem at a path relative to the rule. */
  report: Report;
  /** Where the rule is written, for the journal and `x-sim-rule`. */
  where: string;
}

/** The operations whose 200 is an event stream, which a rule's `then.stream` can shape. */
export const EVENT_STREAM_OPERATIONS: ReadonlySet<string> = new Set(['v2.event.subscribe', ...KINDS.eventStreams]);

/** Headers a rule cannot set: the framing, which the simulator writes, and its own explanations. */
const OWN_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection']);

/** Said after each refusal a rule could escape by leaving the spec on purpose. */
const LEAVE_SPEC = 'outsideSpec: true on the rule allows it';

/** Expects a rule that already has the format's shape (`$defs/rule` of the scenario schema). */
export function readRule(raw: JsonObject, spec: SpecIndex, { at, report, where }: RuleContext): RuleDefinition {
  const when = raw.when as JsonObject;
  const then = raw.then as JsonObject;
  const outsideSpec = raw.outsideSpec === true;
  const { operation, matching: target } = readTarget(when, spec, outsideSpec, report);
  const delay = then.delay === undefined ? 0 : (parseDuration(then.delay as string | number) ?? 0);
  const matching = {
    ...target,
    params: (when.params as Record<string, string> | undefined) ?? {},
    query: when.query as JsonObject | undefined,
    body: when.body as JsonObject | undefined,
    after: when.after === undefined ? undefined : at(when.after),
    before: when.before === undefined ? undefined : at(when.before),
    state: when.state as RuleDefinition['state'],
    times: raw.times as number | undefined,
    ...(outsideSpec ? { outsideSpec: true as const } : {}),
    where,
  };

  if (then.drop === true || then.stream !== undefined) {
    // Neither sends an answer of the rule's own, so anything said about one would silently go unused.
    const what = then.drop === true ? 'drop' : 'stream';
    const allowed = what === 'drop' ? ['delay'] : [];
    for (const field of ['status', 'body', 'text', 'headers', 'error', 'delay', 'drop', 'stream'] as const) {
      if (field !== what && field in then && !allowed.includes(field))
        report(
          ['then', field],
          what === 'drop'
            ? `drop sends no answer, so ${field} cannot go with it (delay can)`
            : `stream shapes the stream whoever answers sends, so ${field} cannot go with it (its latency and jitter are its timing)`,
        );
    }
    if (what === 'drop') return { ...matching, status: 0, drop: true, delay };
    if (operation && !EVENT_STREAM_OPERATIONS.has(operation.operationId))
      report(
        ['then', 'stream'],
        `${operation.operationId} answers no event stream; stream faults apply to ${[...EVENT_STREAM_OPERATIONS].join(', ')} (or, matched by path, to any stream an upstream sends)`,
      );
    return { ...matching, status: 0, stream: readStreamFault(then.stream as JsonObject), delay: 0 };
  }

  const written = then.headers as Record<string, string> | undefined;
  // Lower case, as Node keeps them: a rule's Content-Type then replaces the default rather than joining it.
  const headers = written && Object.fromEntries(Object.entries(written).map(([k, v]) => [k.toLowerCase(), v]));
  for (const name of Object.keys(written ?? {})) {
    const lower = name.toLowerCase();
    if (OWN_HEADERS.has(lower) || lower.startsWith('x-sim-'))
      report(['then', 'headers', name], `${name} is the simulator's to set: leave it out`);
  }
  if (then.text !== undefined && (then.body !== undefined || then.error !== undefined))
    report(['then', 'text'], `text is the whole body: it cannot go with ${then.body !== undefined ? 'body' : 'error'}`);
  const error = then.error as JsonObject | undefined;
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
        `${String(tag)} is not an error ${operation.operationId} declares.${didYouMean(String(tag), [...operation.declaredTags], { quote: false })} Declared: ${declared}. ${outsideSpec ? 'Outside the spec, give its status too.' : 'Another needs its status and outsideSpec: true on the rule.'}`,
      );
  }
  if (status === undefined && (!error || !operation))
    report(
      ['then'],
      error
        ? 'an error outside the spec needs its status'
        : 'say what to answer: status (with body or text, and headers), error, drop, or stream',
    );
  if (operation && status !== undefined && !outsideSpec) {
    // Location-scoped answers get their envelope's location filled in when served; check them with one.
    const served = withLocation(operation.locationEnvelope, then.text ?? answer, {
      directory: '/',
      project: { id: 'global', directory: '/' },
    });
    for (const problem of checkAnswer(operation, status, served))
      report(['then'], `answer violates the spec: ${problem.message}; ${LEAVE_SPEC}`);
  }
  return {
    ...matching,
    status: status ?? 500,
    ...(answer === undefined ? {} : { answer }),
    ...(then.text === undefined ? {} : { text: then.text as string }),
    ...(headers === undefined ? {} : { headers }),
    delay,
  };
}

/** What `when` matches by: an operation, or a method and a path; and the operation whose answers it gives. */
function readTarget(
  when: JsonObject,
  spec: SpecIndex,
  outsideSpec: boolean,
  report: Report,
): {
  operation: OperationDefinition | undefined;
  matching: Pick<RuleDefinition, 'operation' | 'method' | 'path' | 'pathPattern'>;
} {
  const operationId = when.operation as string | undefined;
  const method = when.method as string | undefined;
  const path = when.path as string | undefined;
  const pathPattern = when.pathPattern as string | undefined;
  if (operationId !== undefined) {
    for (const field of ['method', 'path', 'pathPattern'] as const) {
      if (when[field] !== undefined)
        report(['when', field], `the rule matches operation ${operationId}: ${field} goes with a rule by path instead`);
    }
    const operation = spec.byId.get(operationId);
    if (!operation)
      report(
        ['when', 'operation'],
        `no operation ${operationId} in the spec.${didYouMean(operationId, [...spec.byId.keys()], { quote: false })} GET /__sim/operations (or docs/operations.md) lists them. A path the spec lacks is matched by method and path, with outsideSpec: true.`,
      );
    checkParams(
      when,
      operation?.pathParams.map((p) => p.name),
      report,
    );
    return { operation, matching: { operation: operationId } };
  }
  const matching = {
    ...(method === undefined ? {} : { method }),
    ...(path === undefined ? {} : { path }),
    ...(pathPattern === undefined ? {} : { pathPattern }),
  };
  if (path === undefined && pathPattern === undefined) {
    report(
      ['when'],
      method === undefined
        ? 'say what the rule matches: operation (an operationId of the spec), or method and path (a template such as /api/gateway/{name}) or pathPattern (a regular expression)'
        : `method ${method} needs a path (a template such as /api/gateway/{name}) or a pathPattern (a regular expression)`,
    );
    return { operation: undefined, matching };
  }
  if (path !== undefined && pathPattern !== undefined) {
    report(['when', 'pathPattern'], 'match by path (a template) or by pathPattern (a regular expression), not both');
    return { operation: undefined, matching };
  }
  const compiled = path !== undefined ? compileTemplate(path) : compilePattern(pathPattern as string);
  if (typeof compiled === 'string') {
    report(['when', path !== undefined ? 'path' : 'pathPattern'], compiled);
    return { operation: undefined, matching };
  }
  checkParams(when, compiled.names, report);
  // A method and a template of the spec answer as that operation does, and are held to it as `operation` is.
  const operation = path !== undefined && method !== undefined ? operationAt(spec, method, path) : undefined;
  if (!operation && !outsideSpec) {
    if (pathPattern !== undefined)
      report(
        ['when', 'pathPattern'],
        `a pattern may match paths outside the spec, and no one operation declares its answers; ${LEAVE_SPEC} (or match one operation by method and path)`,
      );
    else if (method === undefined)
      report(
        ['when', 'method'],
        `a path without a method matches every method, and no one operation declares its answers: name the method, or ${LEAVE_SPEC}`,
      );
    else {
      const found = findOperation(spec, method, path as string);
      const near =
        found.kind === 'method-not-allowed'
          ? ` The spec has ${found.allowed.map((o) => `${o.method} (${o.operationId})`).join(', ')} there.`
          : found.kind === 'not-found' && found.closest.length
            ? ` Closest: ${found.closest.map((o) => `${o.method} ${o.path}`).join(', ')}.`
            : '';
      report(['when', 'path'], `${method} ${path as string} is no operation of the spec.${near} ${LEAVE_SPEC}.`);
    }
  }
  return { operation, matching };
}

/** Reports `when.params` naming a parameter the operation or path does not have. */
function checkParams(when: JsonObject, names: readonly string[] | undefined, report: Report): void {
  if (!names) return;
  for (const name of Object.keys((when.params as JsonObject | undefined) ?? {})) {
    if (!names.includes(name))
      report(
        ['when', 'params', name],
        names.length
          ? `no path parameter ${name}.${didYouMean(name, names)} Parameters: ${names.join(', ')}.`
          : `no path parameter ${name}: the path has none`,
      );
  }
}

function readStreamFault(raw: JsonObject): StreamFault {
  const ms = (value: unknown) => (value === undefined ? 0 : (parseDuration(value as string | number) ?? 0));
  return {
    afterFrames: (raw.afterFrames as number | undefined) ?? 0,
    ...(raw.fault === undefined ? {} : { fault: raw.fault as StreamFault['fault'] }),
    latency: ms(raw.latency),
    jitter: ms(raw.jitter),
    ...(raw.retry === undefined ? {} : { retry: ms(raw.retry) }),
  };
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
  const rule = readRule(value as JsonObject, spec, {
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

/**
 * Scripted answers, as two layers: the partition's run-time rules (added by a test, they speak for it), then
 * the scenario's rules, each in order; the first whose `when` matches answers, `times` times. Both come ahead
 * of the source in every mode, so a test can script a fault in front of a real server or its recording too.
 * A rule matches an operation, or a method and a path (a template or a pattern); rules by path are also asked
 * for requests no operation of the spec matches (`offSpecRules`), before those are refused or passed on.
 * A rule may answer (any status, headers and body, with `outsideSpec`), drop the connection as a crashed
 * server would, either after a wall-clock `delay`, or leave faults for the event stream whoever answers sends.
 * The answer names the rule in `x-sim-rule`, which the journal and coverage read.
 *
 * When rules exist for the request's operation (or path) and none matches, the closest of them and the first
 * condition it failed (`explain`) are noted on the request for the journal, as mockttp explains an unmatched
 * request.
 */
import { isDeepStrictEqual } from 'node:util';
import { DROP, jsonAnswer, type Answer, type Exchange } from '../exchange/exchange.js';
import type { RuleDefinition } from '../scenarios/definition.js';
import { withLocation } from '../scenarios/read-rule.js';
import { matchRulePath } from '../scenarios/rule-path.js';
import { resolveLocation } from '../openapi/location.js';
import type { Layer, RuleSubject } from './layer.js';
import type { Partition } from '../control/partitions.js';

/** Wall-clock wait for a rule's `delay`; replaceable so tests need not sleep. */
export type Wait = (ms: number) => Promise<void>;
export const realWait: Wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** One list of rules, as both kinds are kept: the rule, how often it answered, and counting one more. */
interface Rules {
  readonly length: number;
  at(i: number): RuleDefinition;
  used(i: number): number;
  fire(i: number): void;
}

/** The rules a test added at run time, or undefined: most requests meet none, and pay a size check. */
function runtimeRules(partition: Partition): Rules | undefined {
  if (partition.rules.size === 0) return undefined;
  const list = partition.rules.list();
  return {
    length: list.length,
    at: (i) => (list[i] as (typeof list)[number]).definition,
    used: (i) => (list[i] as (typeof list)[number]).fired,
    fire: (i) => void (list[i] as (typeof list)[number]).fired++,
  };
}

function scenarioRules(partition: Partition): Rules | undefined {
  const scripted = partition.engine.scenario?.rules;
  if (!scripted?.length) return undefined;
  const uses = partition.rules.scenarioUses;
  return {
    length: scripted.length,
    at: (i) => scripted[i] as RuleDefinition,
    used: (i) => uses[i] ?? 0,
    fire: (i) => void (uses[i] = (uses[i] ?? 0) + 1),
  };
}

/** The rules a test added at run time (`POST /__sim/rules`, the handle's `rules.add`). */
export function runtimeRuleLayer(wait: Wait = realWait): Layer {
  return {
    name: 'runtime-rules',
    answersAs: 'rule',
    respond(request) {
      const rules = runtimeRules(request.partition);
      return rules && consult(rules, request, wait);
    },
  };
}

/** The scenario file's `rules:`. */
export function scenarioRuleLayer(wait: Wait = realWait): Layer {
  return {
    name: 'scenario-rules',
    answersAs: 'rule',
    respond(request) {
      const rules = scenarioRules(request.partition);
      return rules && consult(rules, request, wait);
    },
  };
}

/**
 * The rules by method and path, for a request no operation of the spec matches: run-time rules, then the
 * scenario's, as the layers ask them. Undefined when none answers (it may have left a stream fault).
 */
export function offSpecRules(wait: Wait = realWait): (subject: RuleSubject) => Answer | Promise<Answer> | undefined {
  return (subject) => {
    const runtime = runtimeRules(subject.partition);
    const answered = runtime && consult(runtime, subject, wait);
    if (answered) return answered;
    const scripted = scenarioRules(subject.partition);
    return scripted && consult(scripted, subject, wait);
  };
}

/**
 * The answer of the first of `rules` that matches; a rule with `then.stream` answers nothing and leaves its
 * faults on the subject instead (and later rules are not asked). The rules written for the same operation or
 * path that did not match leave the closest near miss.
 */
function consult(rules: Rules, subject: RuleSubject, wait: Wait): Answer | Promise<Answer> | undefined {
  if (subject.streamFault) return undefined;
  let missed: [RuleDefinition, number][] | undefined;
  for (let i = 0; i < rules.length; i++) {
    const rule = rules.at(i);
    if (!aimsAt(rule, subject)) continue;
    const used = rules.used(i);
    if (weigh(rule, subject, used) === undefined) {
      rules.fire(i);
      if (rule.stream) {
        subject.streamFault = { rule, use: used };
        return undefined;
      }
      return answerAfterDelay(rule, subject, wait);
    }
    (missed ??= []).push([rule, used]);
  }
  if (missed) noteNearMiss(subject, missed);
  return undefined;
}

/** Whether the rule is written for this request's operation, or its method and path: the rules a near miss is among. */
function aimsAt(rule: RuleDefinition, subject: RuleSubject): boolean {
  if (rule.operation !== undefined) return rule.operation === subject.operation?.operationId;
  if (rule.method !== undefined && rule.method !== methodOf(subject.exchange)) return false;
  return matchRulePath(rule, subject.exchange.pathname) !== undefined;
}

/** HEAD is answered as GET, as routing does. */
function methodOf(exchange: Exchange): string {
  return exchange.method === 'HEAD' ? 'GET' : exchange.method;
}

/**
 * Why `rule` does not answer `request`, as one sentence about the first of its conditions that fails (in the
 * order they are checked: operation, after/before, path parameters, query, body, states, times); undefined
 * when it would answer. `used`: how often the rule has answered already.
 */
export function explain(rule: RuleDefinition, request: RuleSubject, used = 0): string | undefined {
  return weigh(rule, request, used)?.();
}

/** A failed condition, put into words only when someone reads it. */
type Miss = () => string;

/**
 * Checks the rule's conditions in order and returns the first that fails, or undefined when all hold. Matching
 * stops at that first failure; with a `tally` every condition is checked and those that hold are counted, to
 * tell which of several rules came closest. One walk for both, so a near miss never disagrees with matching.
 */
function weigh(rule: RuleDefinition, request: RuleSubject, used: number, tally?: { held: number }): Miss | undefined {
  let first: Miss | undefined;
  /** Whether to stop here. */
  const fails = (miss: Miss | undefined): boolean => {
    if (miss === undefined) {
      if (tally) tally.held++;
      return false;
    }
    first ??= miss;
    return tally === undefined;
  };
  const { operation, exchange, query, body, partition } = request;
  let params = request.pathParams;
  if (rule.operation !== undefined) {
    const actual = operation?.operationId;
    if (
      fails(
        rule.operation === actual
          ? undefined
          : () => `the request is ${actual ?? 'no operation of the spec'}; the rule wants ${rule.operation}`,
      )
    )
      return first;
  } else {
    const wanted = rule.method;
    if (
      wanted !== undefined &&
      fails(
        wanted === methodOf(exchange) ? undefined : () => `the method is ${exchange.method}; the rule wants ${wanted}`,
      )
    )
      return first;
    const matched = matchRulePath(rule, exchange.pathname);
    if (
      fails(
        matched
          ? undefined
          : () =>
              `the path ${exchange.pathname} does not match ${rule.path !== undefined ? `the rule's ${rule.path}` : `the rule's pattern ${rule.pathPattern}`}`,
      )
    )
      return first;
    params = matched ?? {};
  }
  const now = partition.engine.clock.now();
  const after = rule.after;
  if (
    after !== undefined &&
    fails(
      now >= after
        ? undefined
        : () => `the virtual time is ${instant(now)}; the rule answers only from ${instant(after)}`,
    )
  )
    return first;
  const before = rule.before;
  if (
    before !== undefined &&
    fails(
      now < before
        ? undefined
        : () => `the virtual time is ${instant(now)}; the rule answers only before ${instant(before)}`,
    )
  )
    return first;
  for (const [name, wanted] of Object.entries(rule.params)) {
    const actual = params[name];
    if (
      fails(
        actual === wanted
          ? undefined
          : () => `path parameter ${name} is ${show(actual)}; the rule wants ${show(wanted)}`,
      )
    )
      return first;
  }
  for (const [name, wanted] of Object.entries(rule.query ?? {})) {
    const actual = query[name];
    if (
      fails(
        isDeepStrictEqual(actual, wanted)
          ? undefined
          : () => `query ${name} is ${show(actual)}; the rule wants ${show(wanted)}`,
      )
    )
      return first;
  }
  if (rule.body !== undefined) {
    if (typeof body !== 'object' || body === null) {
      if (fails(() => `the body is ${show(body)}; the rule wants an object with ${show(rule.body)}`)) return first;
    } else {
      for (const [name, wanted] of Object.entries(rule.body)) {
        if (fails(bodyMiss((body as Record<string, unknown>)[name], wanted, name))) return first;
      }
    }
  }
  const world = partition.engine.world;
  for (const [kind, condition] of Object.entries(rule.state ?? {})) {
    const actual = partition.engine.stateOf(kind, condition.id);
    if (
      fails(
        actual === condition.is
          ? undefined
          : () =>
              `${kind} ${condition.id} is ${actual ?? (world ? 'not in the world' : 'not there (no scenario is served)')}; the rule wants ${condition.is}`,
      )
    )
      return first;
  }
  const times = rule.times;
  if (
    times !== undefined &&
    fails(used < times ? undefined : () => `the rule is used up: it has answered ${used} of its ${times} times`)
  )
    return first;
  return first;
}

/** Where `actual` lacks what `expected` has (objects field by field, the rest exactly), at the deepest field. */
function bodyMiss(actual: unknown, expected: unknown, path: string): Miss | undefined {
  if (typeof expected !== 'object' || expected === null || Array.isArray(expected))
    return isDeepStrictEqual(actual, expected)
      ? undefined
      : () => `body field ${path} is ${show(actual)}; the rule wants ${show(expected)}`;
  if (typeof actual !== 'object' || actual === null)
    return () => `body field ${path} is ${show(actual)}; the rule wants an object with ${show(expected)}`;
  for (const [name, wanted] of Object.entries(expected)) {
    const miss = bodyMiss((actual as Record<string, unknown>)[name], wanted, `${path}.${name}`);
    if (miss) return miss;
  }
  return undefined;
}

/**
 * Keeps on the request the rule of `missed` whose conditions held most, with the first it failed. The layers
 * run in answering order and a later rule must hold strictly more to replace it: ties go to the first.
 */
function noteNearMiss(request: RuleSubject, missed: [RuleDefinition, number][]): void {
  for (const [rule, used] of missed) {
    const tally = { held: 0 };
    const miss = weigh(rule, request, used, tally);
    if (!miss || (request.nearMiss && request.nearMiss.held >= tally.held)) continue;
    request.nearMiss = { rule: rule.where, failed: miss(), held: tally.held };
  }
}

/** Values as the rule is written (JSON), cut short: a sentence, not a dump. */
function show(value: unknown): string {
  if (value === undefined) return 'absent';
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

function instant(ms: number): string {
  return new Date(ms).toISOString();
}

function answerAfterDelay(rule: RuleDefinition, request: RuleSubject, wait: Wait): Answer | Promise<Answer> {
  if (rule.delay > 0) return wait(rule.delay).then(() => answerOf(rule, request));
  return answerOf(rule, request);
}

function answerOf(rule: RuleDefinition, request: RuleSubject): Answer {
  const marks = { rule: rule.where, ...(rule.outsideSpec ? { outsideSpec: true as const } : {}) };
  if (rule.drop) return { ...DROP, ...marks };
  const headers = rule.headers && { ...rule.headers };
  if (rule.text !== undefined)
    return {
      kind: 'raw',
      status: rule.status,
      raw: Buffer.from(rule.text),
      headers: { 'content-type': 'text/plain; charset=utf-8', ...headers },
      ...marks,
    };
  if (rule.answer === undefined) return { kind: 'empty', status: rule.status, ...(headers && { headers }), ...marks };
  const body = structuredClone(
    request.operation
      ? withLocation(
          request.operation.locationEnvelope,
          rule.answer,
          resolveLocation(request.partition.project(), request.query.location),
        )
      : rule.answer,
  );
  // JSON of another type (application/problem+json, say) goes out as the bytes it is, with that type.
  if (headers?.['content-type'] !== undefined)
    return { kind: 'raw', status: rule.status, raw: Buffer.from(JSON.stringify(body)), body, headers, ...marks };
  return { ...jsonAnswer(rule.status, body, headers), ...marks };
}

/**
 * Scripted answers, as two layers: the partition's run-time rules (added by a test, they speak for it), then
 * the scenario's rules, each in order; the first whose `when` matches answers, `times` times. Both come ahead
 * of the source in every mode, so a test can script a fault in front of a real server or its recording too.
 * A rule may answer, or drop the connection as a crashed server would; either after a wall-clock `delay`. The
 * answer names the rule in `x-sim-rule`, which the journal and coverage read.
 *
 * When rules exist for the request's operation and none matches, the closest of them and the first condition
 * it failed (`explain`) are noted on the request for the journal, as mockttp explains an unmatched request.
 */
import { isDeepStrictEqual } from 'node:util';
import { DROP, jsonAnswer, type Answer } from '../exchange/exchange.js';
import type { RuleDefinition } from '../scenarios/definition.js';
import { withLocation } from '../scenarios/read-rule.js';
import { resolveLocation } from '../openapi/location.js';
import type { AcceptedRequest, Layer } from '../exchange/layer.js';

/** Wall-clock wait for a rule's `delay`; replaceable so tests need not sleep. */
export type Wait = (ms: number) => Promise<void>;
const realWait: Wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The rules a test added at run time (`POST /__sim/rules`, the handle's `rules.add`). */
export function runtimeRuleLayer(wait: Wait = realWait): Layer {
  return {
    name: 'rule',
    respond(request) {
      const store = request.partition.rules;
      // Most requests meet no run-time rule at all: they cost a size check.
      if (store.size === 0) return undefined;
      const operationId = request.operation.operationId;
      let missed: [RuleDefinition, number][] | undefined;
      for (const rule of store.list()) {
        if (rule.definition.operation !== operationId) continue;
        if (weigh(rule.definition, request, rule.fired) === undefined) {
          rule.fired++;
          return answerAfterDelay(rule.definition, request, wait);
        }
        (missed ??= []).push([rule.definition, rule.fired]);
      }
      if (missed) noteNearMiss(request, missed);
      return undefined;
    },
  };
}

/** The scenario file's `rules:`. */
export function scenarioRuleLayer(wait: Wait = realWait): Layer {
  return {
    name: 'rule',
    respond(request) {
      const { partition } = request;
      const scripted = partition.scenario?.rules;
      if (!scripted?.length) return undefined;
      const operationId = request.operation.operationId;
      const uses = partition.rules.scenarioUses;
      let missed: [RuleDefinition, number][] | undefined;
      for (let i = 0; i < scripted.length; i++) {
        const rule = scripted[i] as RuleDefinition;
        if (rule.operation !== operationId) continue;
        const used = uses[i] ?? 0;
        if (weigh(rule, request, used) === undefined) {
          uses[i] = used + 1;
          return answerAfterDelay(rule, request, wait);
        }
        (missed ??= []).push([rule, used]);
      }
      if (missed) noteNearMiss(request, missed);
      return undefined;
    },
  };
}

/**
 * Why `rule` does not answer `request`, as one sentence about the first of its conditions that fails (in the
 * order they are checked: operation, after/before, path parameters, query, body, states, times); undefined
 * when it would answer. `used`: how often the rule has answered already.
 */
export function explain(rule: RuleDefinition, request: AcceptedRequest, used = 0): string | undefined {
  return weigh(rule, request, used)?.();
}

/** A failed condition, put into words only when someone reads it. */
type Miss = () => string;

/**
 * Checks the rule's conditions in order and returns the first that fails, or undefined when all hold. Matching
 * stops at that first failure; with a `tally` every condition is checked and those that hold are counted, to
 * tell which of several rules came closest. One walk for both, so a near miss never disagrees with matching.
 */
function weigh(
  rule: RuleDefinition,
  request: AcceptedRequest,
  used: number,
  tally?: { held: number },
): Miss | undefined {
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
  const { operation, pathParams, query, body, partition } = request;
  if (
    fails(
      rule.operation === operation.operationId
        ? undefined
        : () => `the request is ${operation.operationId}; the rule wants ${rule.operation}`,
    )
  )
    return first;
  const now = partition.clock.now();
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
    const actual = pathParams[name];
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
  const world = partition.world;
  for (const [kind, condition] of Object.entries(rule.state ?? {})) {
    const actual = partition.stateOf(kind, condition.id);
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
function noteNearMiss(request: AcceptedRequest, missed: [RuleDefinition, number][]): void {
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

function answerAfterDelay(rule: RuleDefinition, request: AcceptedRequest, wait: Wait): Answer | Promise<Answer> {
  if (rule.delay > 0) return wait(rule.delay).then(() => answerOf(rule, request));
  return answerOf(rule, request);
}

function answerOf(rule: RuleDefinition, request: AcceptedRequest): Answer {
  if (rule.drop) return { ...DROP, rule: rule.where };
  const body = withLocation(
    request.operation.locationEnvelope,
    rule.answer,
    resolveLocation(request.partition.project(), request.query.location),
  );
  return rule.answer === undefined
    ? { kind: 'empty', status: rule.status, rule: rule.where }
    : { ...jsonAnswer(rule.status, structuredClone(body)), rule: rule.where };
}

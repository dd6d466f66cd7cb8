/**
 * Scripted answers: the partition's run-time rules first (added by a test, they speak for it), then the
 * scenario's rules, in order; the first whose `when` matches answers, `times` times. A rule may answer, or
 * drop the connection as a crashed server would; either after a wall-clock `delay`. The answer names the
 * rule in `x-sim-rule`, which the journal and coverage read.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Partition } from '../control/partitions.js';
import { DROP, jsonAnswer, type Answer } from '../exchange/exchange.js';
import type { RuleDefinition } from '../scenarios/definition.js';
import { withLocation } from '../scenarios/read-rule.js';
import { resolveLocation } from '../openapi/location.js';
import type { AcceptedRequest, Layer } from '../exchange/layer.js';

/** Wall-clock wait for a rule's `delay`; replaceable so tests need not sleep. */
export type Wait = (ms: number) => Promise<void>;
const realWait: Wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function ruleLayer(wait: Wait = realWait): Layer {
  return {
    name: 'rule',
    respond(request) {
      const { partition } = request;
      const now = partition.clock.now();
      const rule = takeRule(partition, request, now);
      if (!rule) return undefined;
      if (rule.delay > 0) return wait(rule.delay).then(() => answerOf(rule, request));
      return answerOf(rule, request);
    },
  };
}

/** Finds the first rule that applies now and counts the use; undefined when none does. */
function takeRule(partition: Partition, request: AcceptedRequest, now: number): RuleDefinition | undefined {
  const applies = (rule: RuleDefinition, used: number) =>
    matches(rule, request, now) && stateHolds(rule, partition) && (rule.times === undefined || used < rule.times);
  const runtime = partition.rules.list().find((r) => applies(r.definition, r.fired));
  if (runtime) {
    runtime.fired++;
    return runtime.definition;
  }
  const scripted = partition.scenario?.rules ?? [];
  const uses = partition.rules.scenarioUses;
  const index = scripted.findIndex((rule, i) => applies(rule, uses[i] ?? 0));
  if (index < 0) return undefined;
  uses[index] = (uses[index] ?? 0) + 1;
  return scripted[index];
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

function matches(rule: RuleDefinition, request: AcceptedRequest, now: number): boolean {
  if (rule.operation !== request.operation.operationId) return false;
  if (rule.after !== undefined && now < rule.after) return false;
  if (rule.before !== undefined && now >= rule.before) return false;
  if (!Object.entries(rule.params).every(([k, v]) => request.pathParams[k] === v)) return false;
  if (rule.query && !Object.entries(rule.query).every(([k, v]) => isDeepStrictEqual(request.query[k], v))) return false;
  return rule.body === undefined || contains(request.body, rule.body);
}

function stateHolds(rule: RuleDefinition, partition: Partition): boolean {
  return Object.entries(rule.state ?? {}).every(
    ([kind, condition]) => partition.stateOf(kind, condition.id) === condition.is,
  );
}

/** Whether `actual` has every field of `expected` (objects compared field by field, the rest exactly). */
function contains(actual: unknown, expected: unknown): boolean {
  if (typeof expected !== 'object' || expected === null || Array.isArray(expected))
    return isDeepStrictEqual(actual, expected);
  if (typeof actual !== 'object' || actual === null) return false;
  return Object.entries(expected).every(([k, v]) => contains((actual as Record<string, unknown>)[k], v));
}

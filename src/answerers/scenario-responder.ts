/**
 * The two layers a scenario adds in front of the fallback: its scripted rules (first matching rule answers),
 * then the resource lifecycles, dispatched through one lookup table by operationId. A layer with nothing
 * to say lets the request fall through to the next.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Clock } from '../state/clock.js';
import { resolveLocation, type ProjectContext } from '../spec/location.js';
import { formHandlers } from '../resources/forms.js';
import type { Handlers } from '../resources/handler.js';
import { integrationHandlers } from '../resources/integrations.js';
import { locationHandlers } from '../resources/location-resources.js';
import { sessionHandlers } from '../resources/sessions.js';
import { shellHandlers } from '../resources/shells.js';
import type { AcceptedRequest, Responder } from './responder.js';
import type { RuleDefinition } from '../scenarios/definition.js';
import { withLocation } from '../scenarios/read-rule.js';
import type { ScenarioHost } from '../scenarios/scenario-host.js';
import type { StatefulKind, World } from '../state/world.js';

const HANDLERS: Handlers = { ...sessionHandlers, ...formHandlers, ...shellHandlers, ...integrationHandlers, ...locationHandlers };

export function scenarioResponder(host: ScenarioHost, clock: Clock, project: ProjectContext): Responder {
  return {
    name: 'scenario',
    respond: async (request) => HANDLERS[request.operation.operationId]?.(request, { world: host.world, now: clock.now(), project }),
  };
}

/** Wall-clock wait for a rule's `delay`; replaceable so tests need not sleep. */
export type Wait = (ms: number) => Promise<void>;
const realWait: Wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function ruleResponder(host: ScenarioHost, clock: Clock, project: ProjectContext, wait: Wait = realWait): Responder {
  return {
    name: 'rule',
    async respond(request) {
      const world = host.world;
      const now = clock.now();
      const index = world.scenario.rules.findIndex(
        (rule, i) => matches(rule, request, now) && stateHolds(rule, world, now) && (rule.times === undefined || (world.ruleUses[i] ?? 0) < rule.times),
      );
      const rule = world.scenario.rules[index];
      if (!rule) return undefined;
      world.ruleUses[index] = (world.ruleUses[index] ?? 0) + 1;
      if (rule.delay > 0) await wait(rule.delay);
      const body = withLocation(request.operation.locationEnvelope, rule.answer, resolveLocation(project, request.query.location));
      return { status: rule.status, body: structuredClone(body), headers: { 'x-sim-rule': rule.where } };
    },
  };
}

function matches(rule: RuleDefinition, request: AcceptedRequest, now: number): boolean {
  if (rule.operation !== request.operation.operationId) return false;
  if (rule.after !== undefined && now < rule.after) return false;
  if (rule.before !== undefined && now >= rule.before) return false;
  if (!Object.entries(rule.params).every(([k, v]) => request.pathParams[k] === v)) return false;
  if (rule.query && !Object.entries(rule.query).every(([k, v]) => isDeepStrictEqual(request.query[k], v))) return false;
  return rule.body === undefined || contains(request.body, rule.body);
}

function stateHolds(rule: RuleDefinition, world: World, now: number): boolean {
  return Object.entries(rule.state ?? {}).every(([kind, condition]) => world.stateOf(kind as StatefulKind, condition.id, now) === condition.is);
}

/** Whether `actual` has every field of `expected` (objects compared field by field, the rest exactly). */
function contains(actual: unknown, expected: unknown): boolean {
  if (typeof expected !== 'object' || expected === null || Array.isArray(expected)) return isDeepStrictEqual(actual, expected);
  if (typeof actual !== 'object' || actual === null) return false;
  return Object.entries(expected).every(([k, v]) => contains((actual as Record<string, unknown>)[k], v));
}

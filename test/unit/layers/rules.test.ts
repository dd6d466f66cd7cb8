import { beforeAll, describe, expect, it } from 'vitest';
import type { Partition } from '../../../src/control/partitions.js';
import { scenarioPartition } from '../../support/scenario-partition.js';
import type { AcceptedRequest } from '../../../src/layers/layer.js';
import { explain, runtimeRuleLayer, scenarioRuleLayer } from '../../../src/layers/rules.js';
import { loadSpec, type SpecIndex } from '../../../src/openapi/openapi.js';
import type { RuleDefinition } from '../../../src/scenarios/definition.js';
import { readRuntimeRule } from '../../../src/scenarios/read-rule.js';

const SES = 'ses_dfc5ae513ffePKUBK7HkVp5zCB';
const NOT_FOUND = `{ error: { _tag: SessionNotFoundError, sessionID: ${SES}, message: "Session not found: ${SES}" } }`;

let spec: SpecIndex;
beforeAll(async () => {
  spec = await loadSpec();
});

/** A partition serving a scenario with one idle session and these rules (YAML, one a line). */
function partitionWith(rules: string[]): Partition {
  return scenarioPartition(
    `name: demo\nsessions:\n  - id: ${SES}\nrules:\n${rules.map((r) => `  - ${r}\n`).join('')}`,
    spec,
  );
}

function requestFor(
  partition: Partition,
  operationId: string,
  parts: { pathParams?: Record<string, string>; query?: Record<string, unknown>; body?: unknown } = {},
): AcceptedRequest {
  return {
    operation: spec.byId.get(operationId),
    pathParams: parts.pathParams ?? {},
    query: parts.query ?? {},
    body: parts.body,
    preferences: {},
    partition,
  } as unknown as AcceptedRequest;
}

/** The partition's one scenario rule, and a request of its operation to explain it against. */
function ruleOf(when: string): { rule: RuleDefinition; partition: Partition } {
  const partition = partitionWith([`{ when: ${when}, then: ${NOT_FOUND} }`]);
  return { rule: partition.engine.scenario?.rules[0] as RuleDefinition, partition };
}

const messages = (partition: Partition, query: Record<string, unknown> = {}, sessionID = SES) =>
  requestFor(partition, 'v2.session.messages', { pathParams: { sessionID }, query });

describe('explain', () => {
  it('says nothing of a rule that matches', () => {
    const { rule, partition } = ruleOf(`{ operation: v2.session.messages, query: { limit: "10" } }`);
    expect(explain(rule, messages(partition, { limit: '10' }))).toBeUndefined();
  });

  it('names the operation the rule wants', () => {
    const { rule, partition } = ruleOf(`{ operation: v2.session.messages }`);
    expect(explain(rule, requestFor(partition, 'v2.plugin.list'))).toBe(
      'the request is v2.plugin.list; the rule wants v2.session.messages',
    );
  });

  it('names the window the rule answers in, in virtual time', () => {
    const later = ruleOf(`{ operation: v2.session.messages, after: 30s }`);
    expect(explain(later.rule, messages(later.partition))).toBe(
      'the virtual time is 2026-11-22T09:00:00.000Z; the rule answers only from 2026-11-22T09:00:30.000Z',
    );
    const earlier = ruleOf(`{ operation: v2.session.messages, before: 0s }`);
    expect(explain(earlier.rule, messages(earlier.partition))).toBe(
      'the virtual time is 2026-11-22T09:00:00.000Z; the rule answers only before 2026-11-22T09:00:00.000Z',
    );
  });

  it('names the path parameter, query field or body field that differs', () => {
    const { rule, partition } = ruleOf(
      `{ operation: v2.session.messages, params: { sessionID: ${SES} }, query: { limit: "10" } }`,
    );
    expect(explain(rule, messages(partition, { limit: '10' }, 'ses_other'))).toBe(
      `path parameter sessionID is "ses_other"; the rule wants "${SES}"`,
    );
    expect(explain(rule, messages(partition, { limit: '5' }))).toBe('query limit is "5"; the rule wants "10"');
    expect(explain(rule, messages(partition))).toBe('query limit is absent; the rule wants "10"');

    const switched = ruleOf(`{ operation: v2.session.switchAgent, body: { agent: plan, model: { id: gpt-5 } } }`);
    const switchAgent = (body: unknown) =>
      requestFor(switched.partition, 'v2.session.switchAgent', { pathParams: { sessionID: SES }, body });
    expect(explain(switched.rule, switchAgent({ agent: 'build' }))).toBe(
      'body field agent is "build"; the rule wants "plan"',
    );
    expect(explain(switched.rule, switchAgent({ agent: 'plan', model: { id: 'o3' } }))).toBe(
      'body field model.id is "o3"; the rule wants "gpt-5"',
    );
    expect(explain(switched.rule, switchAgent({ agent: 'plan' }))).toBe(
      'body field model is absent; the rule wants an object with {"id":"gpt-5"}',
    );
    expect(explain(switched.rule, switchAgent(undefined))).toMatch(/^the body is absent; the rule wants an object/);
  });

  it('names the state the rule waits for', () => {
    const { rule, partition } = ruleOf(
      `{ operation: v2.session.messages, state: { session: { id: ${SES}, is: busy } } }`,
    );
    expect(explain(rule, messages(partition))).toBe(`session ${SES} is idle; the rule wants busy`);
  });

  it('says when the rule has used up its times', () => {
    const partition = partitionWith([`{ when: { operation: v2.session.messages }, then: ${NOT_FOUND}, times: 2 }`]);
    const rule = partition.engine.scenario?.rules[0] as RuleDefinition;
    expect(explain(rule, messages(partition), 1)).toBeUndefined();
    expect(explain(rule, messages(partition), 2)).toBe('the rule is used up: it has answered 2 of its 2 times');
  });

  it('reports the first condition that fails, in the order they are checked', () => {
    const { rule, partition } = ruleOf(
      `{ operation: v2.session.messages, params: { sessionID: ${SES} }, query: { limit: "10" } }`,
    );
    expect(explain(rule, messages(partition, { limit: '5' }, 'ses_other'))).toMatch(/^path parameter sessionID/);
  });
});

describe('near misses', () => {
  const addRuntime = (partition: Partition, when: Record<string, unknown>) => {
    const raw = {
      when,
      then:
        when.operation === 'v2.plugin.list'
          ? { status: 200, body: { data: [] } }
          : { error: { _tag: 'SessionNotFoundError', sessionID: SES, message: 'x' } },
    };
    const definition = readRuntimeRule(raw, spec, partition.engine.scenario, { id: partition.rules.nextId() });
    partition.rules.add(definition, raw);
  };
  const ask = async (request: AcceptedRequest) => {
    for (const layer of [runtimeRuleLayer(), scenarioRuleLayer()]) {
      if (await layer.respond(request)) return true;
    }
    return false;
  };

  it('notes the rule of the operation that held most conditions, the first on a tie', async () => {
    const partition = partitionWith([
      `{ when: { operation: v2.session.messages, params: { sessionID: ${SES} }, query: { limit: "5", order: asc } }, then: ${NOT_FOUND} }`,
    ]);
    addRuntime(partition, { operation: 'v2.session.messages', query: { limit: '10' } });
    addRuntime(partition, { operation: 'v2.session.messages', query: { limit: '20' } });
    addRuntime(partition, { operation: 'v2.plugin.list' });

    // The scenario's rule holds operation, sessionID and limit: more than either run-time rule.
    const closeToScenario = messages(partition, { limit: '5', order: 'desc' });
    expect(await ask(closeToScenario)).toBe(false);
    expect(closeToScenario.nearMiss).toEqual({
      rule: '<test> rules[0]',
      failed: 'query order is "desc"; the rule wants "asc"',
      held: 3,
    });

    // Both run-time rules hold the operation alone, as does the scenario's: the first of them is noted.
    const tie = messages(partition, { limit: '7' }, 'ses_other');
    expect(await ask(tie)).toBe(false);
    expect(tie.nearMiss).toMatchObject({
      rule: 'runtime rule rul_1',
      failed: 'query limit is "7"; the rule wants "10"',
    });
  });

  it('notes nothing for an operation no rule is written for, nor when a rule answers', async () => {
    const partition = partitionWith([`{ when: { operation: v2.session.messages }, then: ${NOT_FOUND} }`]);
    addRuntime(partition, { operation: 'v2.session.messages', query: { limit: '10' } });
    const other = requestFor(partition, 'v2.plugin.list');
    expect(await ask(other)).toBe(false);
    expect(other.nearMiss).toBeUndefined();
    // The run-time rule misses and is noted, but the scenario's rule answers: the pipeline journals no near miss then.
    const answered = messages(partition);
    expect(await ask(answered)).toBe(true);
    expect(partition.rules.scenarioUses).toEqual([1]);
  });
});

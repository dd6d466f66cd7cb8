/**
 * Matching a rule by method and path: templates and patterns (src/scenarios/rule-path.ts), and the rule
 * layers' use of them, for requests of the spec and for requests outside it (`offSpecRules`).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Exchange } from '../../../src/exchange/exchange.js';
import type { RuleSubject } from '../../../src/layers/layer.js';
import { explain, offSpecRules } from '../../../src/layers/rules.js';
import { loadSpec, type SpecIndex } from '../../../src/openapi/openapi.js';
import type { RuleDefinition } from '../../../src/scenarios/definition.js';
import { compilePattern, compileTemplate, matchRulePath, operationAt } from '../../../src/scenarios/rule-path.js';
import type { Partition } from '../../../src/control/partitions.js';
import { scenarioPartition } from '../../support/scenario-partition.js';

let spec: SpecIndex;
beforeAll(async () => {
  spec = await loadSpec();
});

describe('path templates and patterns', () => {
  it('matches a template segment by segment, decoding its parameters', () => {
    const rule = { path: '/api/gateway/{name}/models/{model}' };
    expect(matchRulePath(rule, '/api/gateway/open%20ai/models/gpt-5')).toEqual({ name: 'open ai', model: 'gpt-5' });
    expect(matchRulePath(rule, '/api/gateway/openai/models')).toBeUndefined();
    expect(matchRulePath(rule, '/api/gateway/openai/models/a/b')).toBeUndefined();
    expect(matchRulePath(rule, '/api/gateways/openai/models/x')).toBeUndefined();
    // Literal segments are literal, not regular expressions.
    expect(matchRulePath({ path: '/v1.0/x' }, '/v100/x')).toBeUndefined();
    expect(matchRulePath({ path: '/v1.0/x' }, '/v1.0/x')).toEqual({});
  });

  it('matches a pattern where it finds it, its named groups being parameters', () => {
    expect(matchRulePath({ pathPattern: '^/hooks/(?<hook>[a-z]+)$' }, '/hooks/deploy')).toEqual({ hook: 'deploy' });
    expect(matchRulePath({ pathPattern: '^/hooks/(?<hook>[a-z]+)$' }, '/hooks/Deploy')).toBeUndefined();
    expect(matchRulePath({ pathPattern: 'gateway' }, '/api/gateway/x')).toEqual({});
    expect(matchRulePath({ operation: 'v2.plugin.list' } as { path?: string }, '/api/plugin')).toBeUndefined();
  });

  it('says what is wrong with a template or a pattern', () => {
    expect(compileTemplate('/a/{x}/b/{x}')).toBe('names the parameter {x} twice');
    expect(compileTemplate('/a/v{x}')).toMatch(/^segment "v\{x\}" is neither literal nor a whole parameter/);
    expect(compilePattern('^/a/(')).toMatch(/Invalid regular expression/);
    expect(compilePattern('^/(?<a>x)/(?<b>y)')).toMatchObject({ names: ['a', 'b'] });
    // Matched in linear time: what no linear-time matcher runs is refused, naming the pattern.
    expect(compilePattern('^/(?=a)')).toMatch(/^pattern "\^\/\(\?=a\)" uses a lookaround \(\?=\)/);
    expect(compilePattern('^/(a+)+$')).toMatchObject({ names: [] });
  });

  it('finds the operation a method and template name, whatever the parameters are called', () => {
    expect(operationAt(spec, 'GET', '/api/session/{id}/message')?.operationId).toBe('v2.session.messages');
    expect(operationAt(spec, 'PUT', '/api/session/{id}/message')).toBeUndefined();
    expect(operationAt(spec, 'GET', '/api/gateway/{name}')).toBeUndefined();
  });
});

/** A partition whose scenario has these rules (YAML, one a line). */
function partitionWith(rules: string[]): Partition {
  return scenarioPartition(`name: demo\nrules:\n${rules.map((r) => `  - ${r}\n`).join('')}`, spec);
}

/** A request no operation matches, as the pipeline hands it to `offSpecRules`. */
function offSpec(partition: Partition, method: string, pathname: string, body?: unknown): RuleSubject {
  const exchange = { method, pathname, headers: {}, searchParams: new URLSearchParams() } as unknown as Exchange;
  return { exchange, pathParams: {}, query: {}, body, partition };
}

describe('rules by method and path', () => {
  const GATEWAY = `{ when: { method: GET, path: "/api/gateway/{name}", params: { name: openai } }, then: { status: 502, body: { message: down } }, outsideSpec: true, times: 1 }`;

  it('answer a request outside the spec, times times, marked outside it', async () => {
    const partition = partitionWith([GATEWAY]);
    const answer = await offSpecRules()(offSpec(partition, 'GET', '/api/gateway/openai'));
    expect(answer).toMatchObject({ kind: 'json', status: 502, body: { message: 'down' }, outsideSpec: true });
    expect(answer?.rule).toBe('<test> rules[0]');
    const again = offSpec(partition, 'GET', '/api/gateway/openai');
    expect(offSpecRules()(again)).toBeUndefined();
    expect(again.nearMiss).toMatchObject({ failed: 'the rule is used up: it has answered 1 of its 1 times' });
  });

  it('explain the first condition that fails: method, path, then parameters', () => {
    const partition = partitionWith([GATEWAY]);
    const rule = partition.engine.scenario?.rules[0] as RuleDefinition;
    expect(explain(rule, offSpec(partition, 'POST', '/api/gateway/openai'))).toBe(
      'the method is POST; the rule wants GET',
    );
    expect(explain(rule, offSpec(partition, 'GET', '/api/gateway'))).toBe(
      "the path /api/gateway does not match the rule's /api/gateway/{name}",
    );
    expect(explain(rule, offSpec(partition, 'GET', '/api/gateway/x'))).toBe(
      'path parameter name is "x"; the rule wants "openai"',
    );
    expect(explain(rule, offSpec(partition, 'HEAD', '/api/gateway/openai'))).toBeUndefined();
    // A near miss is noted only among rules written for the request's path: another path meets none.
    const elsewhere = offSpec(partition, 'GET', '/api/elsewhere');
    expect(offSpecRules()(elsewhere)).toBeUndefined();
    expect(elsewhere.nearMiss).toBeUndefined();
  });

  it('leave a stream fault for whoever answers, and later rules are not asked', () => {
    const partition = partitionWith([
      `{ when: { pathPattern: "^/stream" }, then: { stream: { fault: drop } }, outsideSpec: true }`,
      `{ when: { pathPattern: "^/stream" }, then: { status: 500 }, outsideSpec: true }`,
    ]);
    const subject = offSpec(partition, 'GET', '/stream/x');
    expect(offSpecRules()(subject)).toBeUndefined();
    expect(subject.streamFault).toMatchObject({ rule: { where: '<test> rules[0]' }, use: 0 });
  });
});

import { describe, expect, it } from 'vitest';
import { partitionReaders } from '../../../src/control/readers.js';
import { createPartitions } from '../../../src/control/partitions.js';
import { projectContext } from '../../../src/openapi/location.js';
import { loadSpec } from '../../../src/openapi/openapi.js';
import type { AcceptedRequest } from '../../../src/layers/layer.js';
import { parseScenario } from '../../../src/scenarios/load-scenario.js';
import { scenarioRuleLayer } from '../../../src/layers/rules.js';
import { KINDS } from '../../../src/kinds/registry.js';

describe('scenarioRuleLayer', () => {
  it('waits the rule delay on the injected wall clock, then answers with where the rule is written', async () => {
    const spec = await loadSpec();
    const scenario = parseScenario(
      'name: demo\nrules:\n  - when: { operation: v2.plugin.list }\n    then: { status: 200, body: { data: [{ id: slow }] }, delay: 2s }\n',
      '<test>',
      spec,
    );
    const partition = createPartitions({
      ...partitionReaders({ spec, kinds: KINDS, seed: 'demo' }),
      kinds: KINDS,
      seed: 'demo',
      realTime: false,
      initial: scenario,
      project: projectContext('/home/dev/acme-web'),
    }).default;
    const waits: number[] = [];
    const responder = scenarioRuleLayer(async (ms) => {
      waits.push(ms);
    });
    const operation = spec.byId.get('v2.plugin.list');
    const answer = await responder.respond({
      operation,
      pathParams: {},
      query: {},
      body: undefined,
      partition,
    } as unknown as AcceptedRequest);
    expect(waits).toEqual([2000]);
    expect(answer).toMatchObject({
      kind: 'json',
      status: 200,
      body: { data: [{ id: 'slow' }], location: { directory: '/home/dev/acme-web' } },
      rule: '<test> rules[0]',
    });
    expect(partition.rules.scenarioUses).toEqual([1]);
  });
});

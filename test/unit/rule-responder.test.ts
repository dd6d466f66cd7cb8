import { describe, expect, it } from 'vitest';
import { createClock } from '../../src/state/clock.js';
import { projectContext } from '../../src/spec/location.js';
import { loadSpec } from '../../src/spec/openapi.js';
import type { AcceptedRequest } from '../../src/answerers/responder.js';
import { parseScenario } from '../../src/scenarios/load-scenario.js';
import type { ScenarioHost } from '../../src/scenarios/scenario-host.js';
import { ruleResponder } from '../../src/answerers/scenario-responder.js';
import { createWorld } from '../../src/state/world.js';

describe('ruleResponder', () => {
  it('waits the rule delay on the injected wall clock, then answers with where the rule is written', async () => {
    const spec = await loadSpec();
    const scenario = parseScenario('name: demo\nrules:\n  - when: { operation: v2.plugin.list }\n    then: { status: 200, body: { data: [{ id: slow }] }, delay: 2s }\n', '<test>', spec);
    const world = createWorld(scenario);
    const host = { world } as ScenarioHost;
    const waits: number[] = [];
    const responder = ruleResponder(host, createClock(), projectContext('/home/dev/acme-web'), async (ms) => {
      waits.push(ms);
    });
    const operation = spec.byId.get('v2.plugin.list');
    const answer = await responder.respond({ operation, pathParams: {}, query: {}, body: undefined } as unknown as AcceptedRequest);
    expect(waits).toEqual([2000]);
    expect(answer).toMatchObject({ status: 200, body: { data: [{ id: 'slow' }], location: { directory: '/home/dev/acme-web' } }, headers: { 'x-sim-rule': '<test> rules[0]' } });
  });
});

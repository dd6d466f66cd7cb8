/**
 * The integration kind on its own: the catalogue a scenario without the section gets, the OAuth flows read
 * from each method's `attempt` (defaults filled, mistakes reported, never served), and the credential
 * operations' decisions with exactly the events the real server publishes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { AcceptedRequest } from '../../../../src/layers/layer.js';
import { fillFlowText } from '../../../../src/kinds/integration/flows.js';
import type { HandlerContext } from '../../../../src/kinds/kind.js';
import { KINDS } from '../../../../src/kinds/registry.js';
import { loadSpec, type SpecIndex } from '../../../../src/openapi/openapi.js';
import { projectContext } from '../../../../src/openapi/location.js';
import { loadScenarioObject } from '../../../../src/scenarios/load-scenario.js';
import { createEngine } from '../../../../src/state/engine.js';

let spec: SpecIndex;
beforeAll(async () => {
  spec = await loadSpec();
});

const load = (scenario: Record<string, unknown>) => loadScenarioObject({ name: 'unit', ...scenario }, spec);

function call(
  engine: ReturnType<typeof createEngine>,
  operationId: string,
  pathParams: Record<string, string>,
  body: unknown = {},
) {
  const context: HandlerContext = {
    world: engine.world!,
    now: engine.clock.now(),
    project: projectContext('/home/dev/acme-web'),
  };
  const decision = KINDS.handlers[operationId]!({ pathParams, body, query: {} } as AcceptedRequest, context);
  if (decision?.events) engine.commit(decision.events, { request: 'req_1' });
  return decision;
}

const CREDENTIAL = 'cred_203a62d81001vkrjQIC7ANyh3p';

describe('the default catalogue', () => {
  it('is served when the scenario has no integrations section, its flows kept apart', () => {
    const scenario = load({});
    expect(scenario.integrations.map((i) => i.name)).toEqual([
      'Anthropic',
      'GitHub Copilot',
      'OpenAI',
      'OpenCode',
      'OpenRouter',
    ]);
    expect(JSON.stringify(scenario.integrations)).not.toContain('"attempt"');
    expect(Object.fromEntries(Object.entries(scenario.oauthFlows).map(([id, f]) => [id, Object.keys(f)]))).toEqual({
      anthropic: ['claude-max'],
      'github-copilot': ['device'],
      openai: ['chatgpt-browser', 'chatgpt-headless'],
      opencode: ['device'],
      openrouter: [],
    });
    expect(scenario.oauthFlows.anthropic?.['claude-max']).toMatchObject({ mode: 'code', settles: { as: 'complete' } });
    expect(scenario.oauthFlows.openai?.['chatgpt-browser']).toMatchObject({
      mode: 'auto',
      expires: 600_000,
      settles: { as: 'complete', after: 5000 },
    });
    expect(scenario.oauthFlows.opencode?.device?.settles).toEqual({ as: 'complete', after: 8000, label: 'Acme Inc' });
  });

  it('is empty when the scenario says so, and the list answers it', () => {
    const engine = createEngine({ kinds: KINDS, definition: load({ integrations: [] }), seed: 't' });
    expect(call(engine, 'v2.integration.list', {})?.answer).toMatchObject({ status: 200, body: { data: [] } });
  });
});

describe('OAuth flows in the scenario', () => {
  const acme = (attempt: Record<string, unknown>, type = 'oauth') => ({
    integrations: [{ id: 'acme', name: 'Acme', methods: [{ type, id: 'sso', label: 'SSO', attempt }] }],
  });

  it('fills every default of a method that says nothing', () => {
    const flow = load(acme({})).oauthFlows.acme?.sso;
    expect(flow).toEqual({
      mode: 'auto',
      url: 'https://auth.example.com/acme/oauth/authorize?response_type=code&client_id=opencode&method=sso&state={state}',
      instructions: 'Complete authorization in your browser. This window will close automatically.',
      expires: 600_000,
      settles: { as: 'complete', after: 5000 },
    });
  });

  it('reads a poll, a failure and an expiry', () => {
    expect(load(acme({ settles: { as: 'complete', poll: 2 } })).oauthFlows.acme?.sso?.settles).toEqual({
      as: 'complete',
      poll: 2,
    });
    expect(
      load(acme({ settles: { as: 'failed', after: '1m', message: 'denied' }, expires: '2m' })).oauthFlows.acme?.sso,
    ).toMatchObject({ expires: 120_000, settles: { as: 'failed', after: 60_000, message: 'denied' } });
    expect(load(acme({ settles: { as: 'expired' } })).oauthFlows.acme?.sso?.settles).toEqual({ as: 'expired' });
  });

  it.each([
    [
      { mode: 'code', settles: { as: 'complete', after: '5s' } },
      'oauth',
      'a code attempt settles when its code is sent',
    ],
    [{ mode: 'code', settles: { as: 'expired' } }, 'oauth', 'as complete or failed'],
    [{ settles: { as: 'expired', poll: 1 } }, 'oauth', 'leave out after and poll'],
    [{ settles: { as: 'complete', poll: 1, after: '1s' } }, 'oauth', 'after (a time) or poll'],
    [{}, 'key', 'only an OAuth method has an attempt'],
  ])('reports %j on a %s method', (attempt, type, message) => {
    expect(() => load(acme(attempt, type))).toThrow(message);
  });

  it('fills {state} and {userCode} from the attempt id, the same id always the same way', () => {
    const id = 'con_203a64b00001CrBDw85dYNzrGb';
    const text = fillFlowText('state={state} code={userCode}', id);
    expect(text).toMatch(/^state=CrBDw85dYNzrGb code=[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/);
    expect(fillFlowText('state={state} code={userCode}', id)).toBe(text);
  });
});

describe('credentials', () => {
  const types = (decision: ReturnType<typeof call>) => decision?.events?.map((e) => e.type);

  it('relabels a known credential, announced as the real server does; an unknown one is announced alone', () => {
    const engine = createEngine({ kinds: KINDS, definition: load({}), seed: 't' });
    const known = call(engine, 'v2.credential.update', { credentialID: CREDENTIAL }, { label: 'Personal' });
    expect(known?.answer.status).toBe(204);
    expect(types(known)).toEqual(['credential.relabelled', 'integration.connection.updated', 'integration.updated']);
    expect(engine.world!.integrations.get('anthropic')?.connections).toEqual([
      { type: 'credential', id: CREDENTIAL, label: 'Personal' },
    ]);
    expect(types(call(engine, 'v2.credential.update', { credentialID: 'cred_x' }, { label: 'y' }))).toEqual([
      'integration.updated',
    ]);
  });

  it('removes a credential; removing it again only announces integration.updated', () => {
    const engine = createEngine({ kinds: KINDS, definition: load({}), seed: 't' });
    const removed = call(engine, 'v2.credential.remove', { credentialID: CREDENTIAL });
    expect(removed?.answer.status).toBe(204);
    expect(removed?.events?.[1]).toEqual({
      type: 'integration.connection.updated',
      data: { integrationID: 'anthropic' },
    });
    expect(engine.world!.integrations.get('anthropic')?.connections).toEqual([]);
    expect(types(call(engine, 'v2.credential.remove', { credentialID: CREDENTIAL }))).toEqual(['integration.updated']);
  });

  it('connects a key in place of the credential before it, listed before the env connections', () => {
    const definition = load({
      integrations: [
        {
          id: 'acme',
          name: 'Acme',
          methods: [{ type: 'key' }, { type: 'env', names: ['ACME_KEY'] }],
          connections: [
            { type: 'env', name: 'ACME_KEY' },
            { type: 'credential', id: 'cred_old', label: 'old' },
          ],
        },
      ],
    });
    const engine = createEngine({ kinds: KINDS, definition, seed: 't' });
    call(engine, 'v2.integration.connect.key', { integrationID: 'acme' }, { key: 'sk-1', label: 'new' });
    expect(engine.world!.integrations.get('acme')?.connections).toEqual([
      { type: 'credential', id: expect.stringMatching(/^cred_/), label: 'new' },
      { type: 'env', name: 'ACME_KEY' },
    ]);
    expect(JSON.stringify(engine.log.entries())).not.toContain('sk-1');
  });

  it('refuses an unknown integration on get and on a key', () => {
    const engine = createEngine({ kinds: KINDS, definition: load({}), seed: 't' });
    expect(() => call(engine, 'v2.integration.get', { integrationID: 'nope' })).toThrow('Integration not found: nope');
    expect(() => call(engine, 'v2.integration.connect.key', { integrationID: 'nope' }, { key: 'k' })).toThrow(
      'Integration not found',
    );
  });
});

/**
 * What a frontend loads at start, through the official client: agents, models and providers, commands,
 * skills, tools, MCP resources, capabilities and the Console. The answers agree with each other (the default
 * model is listed, with its provider; the agents sessions use are listed), with the spec and with the real
 * server's own document; connecting a key lists a provider and announces `catalog.updated`; a scenario's own
 * sections replace the defaults, and what it has appear later is announced when it does.
 */
import { createOpencodeClient } from '@opencode-ai/sdk/v2/client';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type Scenario, type SimulatorHandle } from '../../src/index.js';
import { realDocProblemsAt } from '../support/real-doc.js';
import { eventProblems, specProblems } from '../support/spec-validator.js';
import { subscribeWithClient } from '../support/client-subscription.js';
import { until } from '../support/until.js';

type JsonObject = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Client = ReturnType<typeof createOpencodeClient>;
type Result = { data?: unknown; error?: unknown; response: Response };

const SES = 'ses_dfc5ae513ffePKUBK7HkVp5zCB';
const running: Array<{ close(): unknown }> = [];
afterEach(async () => {
  for (const item of running.splice(0).reverse()) await item.close();
});

async function start(scenario: string | Scenario): Promise<{ sim: SimulatorHandle; client: Client }> {
  const sim = await startSimulator({ scenario });
  running.push(sim);
  return { sim, client: createOpencodeClient({ baseUrl: sim.url }) };
}

/** Answers the real server's document declares are held to it too. */
const realProblems = (path: string, method: string, body: unknown) => realDocProblemsAt(path, method, 200, body);

/** The answer's data, checked against the spec (and the real server's document, given its path). */
function checked(operationId: string, result: Result, realPath?: [string, string]): JsonObject {
  const { response } = result;
  const body = result.data ?? result.error;
  expect(
    specProblems(operationId, response.status, body, response.headers.get('content-type') ?? undefined),
    operationId,
  ).toEqual([]);
  expect(response.headers.get('x-sim-layer'), operationId).toBe('scenario');
  expect(response.headers.get('x-sim-violations'), operationId).toBeNull();
  if (realPath && response.status === 200)
    expect(realProblems(...realPath, body), `${operationId} (real document)`).toEqual([]);
  return body as JsonObject;
}

/** Subscribes with the official client and keeps every frame, each checked against the spec. */
async function subscribe(client: Client): Promise<JsonObject[]> {
  const { frames, stop } = await subscribeWithClient<JsonObject>(client);
  running.push({ close: stop });
  return frames;
}

const published = (frames: JsonObject[]) => frames.map((f) => f.type).filter((t) => t !== 'server.connected');

describe('the default scenario, as a frontend loads it', () => {
  it('answers every catalogue operation, and the answers agree', async () => {
    const { sim, client } = await start('default');
    const defaultAnswer = await fetch(`${sim.url}/api/model/default`);
    const defaultModel = ((await defaultAnswer.json()) as JsonObject).data as JsonObject;
    expect(defaultModel).toMatchObject({ id: 'claude-sonnet-4-5', providerID: 'anthropic', name: 'Claude Sonnet 4.5' });

    const models = checked('v2.model.list', await client.v2.model.list(), ['/api/model', 'get']).data as JsonObject[];
    const listed = models.find((m) => m.id === defaultModel.id && m.providerID === defaultModel.providerID);
    // The same model in both answers: the catalogue takes the scenario's model: record.
    expect(listed).toMatchObject({
      name: defaultModel.name,
      family: defaultModel.family,
      api: { id: defaultModel.modelID, package: defaultModel.package ?? '@ai-sdk/anthropic' },
      capabilities: defaultModel.capabilities,
      time: defaultModel.time,
      cost: defaultModel.cost,
      limit: defaultModel.limit,
    });
    const releases = models.map((m) => m.time.released);
    expect(releases).toEqual([...releases].sort((a, b) => b - a));

    const providers = checked('v2.provider.list', await client.v2.provider.list(), ['/api/provider', 'get'])
      .data as JsonObject[];
    // openai's integration has no connection yet: it is known, not listed.
    expect(providers.map((p) => p.id)).toEqual(['anthropic', 'opencode']);
    expect(new Set(models.map((m) => m.providerID))).toEqual(new Set(['anthropic', 'opencode']));
    const anthropic = checked(
      'v2.provider.get',
      await client.v2.provider.get({ providerID: defaultModel.providerID }),
      ['/api/provider/{providerID}', 'get'],
    ).data;
    expect(anthropic).toEqual(providers[0]);
    expect(checked('v2.provider.get', await client.v2.provider.get({ providerID: 'openai' })).data).toMatchObject({
      id: 'openai',
      name: 'OpenAI',
    });
    expect(checked('v2.provider.get', await client.v2.provider.get({ providerID: 'nope' }))).toEqual({
      _tag: 'ProviderNotFoundError',
      providerID: 'nope',
      message: 'Provider not found: nope',
    });

    const agents = checked('v2.agent.list', await client.v2.agent.list(), ['/api/agent', 'get']).data as JsonObject[];
    expect(agents.map((a) => a.id)).toEqual(['build', 'plan', 'general', 'explore', 'compaction', 'title', 'summary']);
    const messages = (await client.v2.session.messages({ sessionID: SES, limit: '200' } as never)).data as JsonObject;
    const used = new Set([
      'build',
      ...(messages.data as JsonObject[]).map((m) => m.agent).filter((a) => typeof a === 'string'),
    ]);
    expect(used.size).toBeGreaterThan(1);
    for (const agent of used)
      expect(
        agents.map((a) => a.id),
        `agent ${agent}`,
      ).toContain(agent);

    const commands = checked('v2.command.list', await client.v2.command.list(), ['/api/command', 'get'])
      .data as JsonObject[];
    expect(commands.map((c) => c.name)).toEqual(['init', 'review']);
    const skills = checked('v2.skill.list', await client.v2.skill.list(), ['/api/skill', 'get']).data as JsonObject[];
    expect(skills.map((s) => s.name)).toEqual(['customize-opencode']);

    const ids = checked('tool.ids', await client.tool.ids(), ['/experimental/tool/ids', 'get']) as unknown as string[];
    expect(ids).toHaveLength(14);
    const tools = checked(
      'tool.list',
      await client.tool.list({ provider: defaultModel.providerID, model: defaultModel.id }),
      ['/experimental/tool', 'get'],
    ) as unknown as JsonObject[];
    expect(tools.map((t) => t.id)).toEqual(ids.filter((id) => id !== 'websearch' && id !== 'apply_patch'));

    expect(
      checked('experimental.resource.list', await client.experimental.resource.list(), [
        '/experimental/resource',
        'get',
      ]),
    ).toEqual({});
    expect(
      checked('experimental.capabilities.get', await client.experimental.capabilities.get(), [
        '/experimental/capabilities',
        'get',
      ]),
    ).toEqual({ backgroundSubagents: false });
    expect(
      checked('experimental.console.get', await client.experimental.console.get(), ['/experimental/console', 'get']),
    ).toEqual({
      consoleManagedProviders: [],
      switchableOrgCount: 0,
    });
    expect(
      checked('experimental.console.listOrgs', await client.experimental.console.listOrgs(), [
        '/experimental/console/orgs',
        'get',
      ]),
    ).toEqual({ orgs: [] });
    expect(
      checked(
        'experimental.console.switchOrg',
        await client.experimental.console.switchOrg({ accountID: 'acc_x', orgID: 'org_y' }),
      ),
    ).toMatchObject({ _tag: 'InvalidRequestError', kind: 'Payload' });
  });

  it('lists a provider once a key is connected to its integration, and announces catalog.updated', async () => {
    const { client } = await start('default');
    const frames = await subscribe(client);
    expect((await client.v2.model.list()).data?.data.some((m) => m.providerID === 'openai')).toBe(false);
    const connected = await client.v2.integration.connect.key({ integrationID: 'openai', key: 'sk-test-0000' });
    expect(connected.response.status).toBe(204);
    await until(() => published(frames).includes('catalog.updated'), 'catalog.updated');
    expect(published(frames)).toEqual(['integration.connection.updated', 'integration.updated', 'catalog.updated']);
    for (const frame of frames) expect(eventProblems(frame), frame.type).toEqual([]);
    expect(frames.at(-1)).toMatchObject({
      type: 'catalog.updated',
      data: {},
      location: { directory: expect.any(String) },
    });

    const providers = checked('v2.provider.list', await client.v2.provider.list()).data as JsonObject[];
    expect(providers.map((p) => p.id)).toEqual(['anthropic', 'openai', 'opencode']);
    const models = checked('v2.model.list', await client.v2.model.list()).data as JsonObject[];
    expect(models.filter((m) => m.providerID === 'openai').map((m) => m.id)).toEqual([
      'gpt-5',
      'gpt-5-mini',
      'gpt-4.1',
    ]);
  });
});

const ANTHROPIC = {
  id: 'anthropic',
  name: 'Anthropic',
  api: { type: 'aisdk', package: '@ai-sdk/anthropic' },
  models: [{ id: 'claude-sonnet-4-5', name: 'Claude Sonnet 4.5', time: { released: 1759104000000 } }],
};
const ORG = {
  accountID: 'acc_01',
  accountEmail: 'dev@acme.dev',
  accountUrl: 'https://opencode.ai',
  orgID: 'org_acme',
  orgName: 'Acme',
};
const OWN = {
  name: 'own-catalogue',
  sessions: [{ id: SES, title: 'Review', messages: [{ type: 'agent-switched', agent: 'reviewer' }] }],
  providers: [
    ANTHROPIC,
    {
      id: 'acme',
      name: 'Acme AI',
      active: true,
      appears: '10s',
      models: [
        { id: 'acme-1', name: 'Acme 1', time: { released: 1760000000000 } },
        { id: 'acme-2', name: 'Acme 2', time: { released: 1770000000000 }, appears: '20s' },
      ],
    },
  ],
  agents: [
    { id: 'build', mode: 'primary' },
    { id: 'reviewer', mode: 'subagent', description: 'Reviews diffs' },
  ],
  commands: [{ name: 'ship', template: 'Ship $ARGUMENTS', description: 'Ship it' }],
  skills: [{ name: 'release', location: '/home/dev/acme-web/.opencode/skill/release/SKILL.md', content: '# Release' }],
  tools: [{ id: 'bash' }, { id: 'deploy', only: '^acme/' }],
  resources: [{ name: 'Tokens', uri: 'file:///tokens.md', client: 'docs' }],
  capabilities: { backgroundSubagents: true },
  console: {
    orgs: [
      { ...ORG, active: true, providers: ['acme'] },
      { ...ORG, orgID: 'org_labs', orgName: 'Labs' },
    ],
  },
} satisfies Scenario;

describe("a scenario's own catalogue", () => {
  it('replaces every default', async () => {
    const { sim, client } = await start(OWN);
    expect(((await client.v2.agent.list()).data?.data ?? []).map((a) => [a.id, a.mode])).toEqual([
      ['build', 'primary'],
      ['reviewer', 'subagent'],
    ]);
    expect((await client.v2.command.list()).data?.data).toEqual(OWN.commands);
    expect((await client.v2.skill.list()).data?.data).toEqual(OWN.skills);
    expect((await client.tool.ids()).data).toEqual(['bash', 'deploy']);
    expect(
      ((await client.tool.list({ provider: 'anthropic', model: 'claude-sonnet-4-5' })).data ?? []).map((t) => t.id),
    ).toEqual(['bash']);
    expect(((await client.tool.list({ provider: 'acme', model: 'acme-1' })).data ?? []).map((t) => t.id)).toEqual([
      'bash',
      'deploy',
    ]);
    expect((await client.experimental.resource.list()).data).toEqual({ 'docs:file:///tokens.md': OWN.resources[0] });
    expect((await client.experimental.capabilities.get()).data).toEqual({ backgroundSubagents: true });
    expect((await client.v2.provider.list()).data?.data.map((p) => p.id)).toEqual(['anthropic']);
    // With no model: section, the default model is the catalogue's record of the one sessions start with.
    const models = (await client.v2.model.list()).data?.data ?? [];
    expect(models.map((m) => m.id)).toEqual(['claude-sonnet-4-5']);
    const answer = await fetch(`${sim.url}/api/model/default`);
    const body = (await answer.json()) as JsonObject;
    expect(
      specProblems('v2.model.default', answer.status, body, answer.headers.get('content-type') ?? undefined),
    ).toEqual([]);
    expect(body.data).toEqual({
      id: 'claude-sonnet-4-5',
      modelID: 'claude-sonnet-4-5',
      providerID: 'anthropic',
      name: 'Claude Sonnet 4.5',
      package: '@ai-sdk/anthropic',
      capabilities: models[0]?.capabilities,
      variants: [],
      time: { released: 1759104000000 },
      cost: models[0]?.cost,
      enabled: true,
      limit: models[0]?.limit,
      settings: {},
      headers: {},
      body: {},
    });
  });

  it('announces what appears later, and the Console org a switch makes active', async () => {
    const { sim, client } = await start(OWN);
    const frames = await subscribe(client);
    expect(checked('v2.provider.get', await client.v2.provider.get({ providerID: 'acme' }))).toMatchObject({
      _tag: 'ProviderNotFoundError',
    });
    await sim.clock.advance('10s');
    await until(() => published(frames).length === 1, 'the provider appearing');
    expect((await client.v2.provider.list()).data?.data.map((p) => p.id)).toEqual(['anthropic', 'acme']);
    expect((await client.v2.model.list()).data?.data.map((m) => m.id)).toEqual(['acme-1', 'claude-sonnet-4-5']);
    await sim.clock.advance('10s');
    await until(() => published(frames).length === 2, 'the model appearing');
    expect((await client.v2.model.list()).data?.data.map((m) => m.id)).toEqual([
      'acme-2',
      'acme-1',
      'claude-sonnet-4-5',
    ]);
    await sim.clock.advance('1m');

    expect((await client.experimental.console.get()).data).toEqual({
      consoleManagedProviders: ['acme'],
      activeOrgName: 'Acme',
      switchableOrgCount: 2,
    });
    const switched = await client.experimental.console.switchOrg({ accountID: 'acc_01', orgID: 'org_labs' });
    expect(checked('experimental.console.switchOrg', switched)).toBe(true);
    expect((await client.experimental.console.get()).data).toEqual({
      consoleManagedProviders: [],
      activeOrgName: 'Labs',
      switchableOrgCount: 2,
    });
    expect((await client.experimental.console.listOrgs()).data?.orgs.map((o) => [o.orgID, o.active])).toEqual([
      ['org_acme', false],
      ['org_labs', true],
    ]);
    // Each appearance once, and nothing for the switch: the real server announces none.
    await new Promise((r) => setTimeout(r, 50));
    expect(published(frames).filter((t) => t !== 'server.heartbeat')).toEqual(['catalog.updated', 'catalog.updated']);
    for (const frame of frames) expect(eventProblems(frame), frame.type).toEqual([]);
  });
});

/**
 * The model catalogue as a scenario reads it: the default one valid against the spec, what a provider or
 * model leaves out filled in, and the default model, the catalogue and the sessions' model agreeing.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DEFAULT_PROVIDERS } from '../../../../src/kinds/model/defaults.js';
import { findModel, SESSION_MODEL } from '../../../../src/kinds/model/read.js';
import { catalogueRecord, interfaceRecord } from '../../../../src/kinds/model/records.js';
import { loadSpec, type SpecIndex } from '../../../../src/openapi/openapi.js';
import { ScenarioError, type ScenarioDefinition } from '../../../../src/scenarios/definition.js';
import { loadScenarioObject } from '../../../../src/scenarios/load-scenario.js';

type JsonObject = Record<string, unknown>;

let spec: SpecIndex;
beforeAll(async () => {
  spec = await loadSpec();
});

const DEFAULT_MODEL = parse(readFileSync(new URL('../../../../scenarios/default.yaml', import.meta.url), 'utf8'))
  .model as JsonObject;
const load = (scenario: JsonObject): ScenarioDefinition => loadScenarioObject({ name: 'catalogue', ...scenario }, spec);
const problemsOf = (scenario: JsonObject): string[] => {
  try {
    load(scenario);
  } catch (error) {
    if (error instanceof ScenarioError) return error.problems.map((p) => `${p.path}: ${p.message}`);
    throw error;
  }
  return [];
};
const ids = (scenario: ScenarioDefinition) =>
  scenario.providers.map((p) => [p.info.id, p.models.map((m) => m.info.id)]);

describe('the default catalogue', () => {
  it('holds anthropic, openai and opencode, every record valid against the spec', () => {
    const { providers } = load({});
    expect(ids(load({}))).toEqual([
      ['anthropic', ['claude-opus-4-5', 'claude-haiku-4-5', 'claude-sonnet-4-5']],
      ['openai', ['gpt-5', 'gpt-5-mini', 'gpt-4.1']],
      ['opencode', ['big-pickle', 'grok-code']],
    ]);
    for (const provider of providers) {
      expect(spec.checkComponent('ProviderV2Info', provider.info), provider.info.id).toEqual([]);
      for (const model of provider.models)
        expect(spec.checkComponent('ModelV2Info', model.info), model.info.id).toEqual([]);
    }
    expect(providers.map((p) => p.active)).toEqual([undefined, undefined, true]);
    expect(DEFAULT_PROVIDERS).toHaveLength(3);
  });

  it('gives models their provider, its api and request', () => {
    const sonnet = findModel(load({}).providers, SESSION_MODEL)?.info;
    expect(sonnet).toMatchObject({
      id: 'claude-sonnet-4-5',
      providerID: 'anthropic',
      api: { id: 'claude-sonnet-4-5', type: 'aisdk', package: '@ai-sdk/anthropic' },
      request: { headers: { 'anthropic-beta': expect.stringContaining('interleaved-thinking') }, body: {} },
      variants: [],
      status: 'active',
      enabled: true,
    });
    const pickle = findModel(load({}).providers, { id: 'big-pickle', providerID: 'opencode' })?.info;
    expect(pickle?.api).toEqual({
      id: 'big-pickle',
      type: 'aisdk',
      package: '@ai-sdk/openai-compatible',
      url: 'https://opencode.ai/zen/v1',
    });
    expect(pickle?.request).toEqual({ headers: {}, body: { apiKey: 'public' } });
  });

  it("takes the scenario's model: over its own record of that model, so both answers agree", () => {
    const sonnet = findModel(load({ model: DEFAULT_MODEL }).providers, SESSION_MODEL)?.info;
    expect(sonnet).toMatchObject({
      name: DEFAULT_MODEL.name,
      api: { id: 'claude-sonnet-4-5-20250929', package: '@ai-sdk/anthropic' },
      limit: DEFAULT_MODEL.limit,
      cost: DEFAULT_MODEL.cost,
      status: 'active',
    });
    expect(spec.checkComponent('ModelV2Info', sonnet)).toEqual([]);
    expect(interfaceRecord(sonnet as JsonObject)).toMatchObject({
      id: 'claude-sonnet-4-5',
      modelID: 'claude-sonnet-4-5-20250929',
      providerID: 'anthropic',
      name: DEFAULT_MODEL.name,
      limit: DEFAULT_MODEL.limit,
    });
  });

  it('gains the provider and model of a model: it does not have', () => {
    const gemini = {
      id: 'gemini-2.5-pro',
      providerID: 'google',
      name: 'Gemini 2.5 Pro',
      package: '@ai-sdk/google',
      capabilities: { tools: true, input: ['text', 'image'], output: ['text'] },
      variants: [],
      time: { released: 1750118400000 },
      cost: [{ input: 1.25, output: 10, cache: { read: 0.31, write: 0 } }],
      enabled: true,
      limit: { context: 1048576, output: 65536 },
    };
    const { providers } = load({ model: gemini });
    const google = providers.find((p) => p.info.id === 'google');
    expect(google).toMatchObject({ active: true, info: { api: { type: 'aisdk', package: '@ai-sdk/google' } } });
    expect(google?.models.map((m) => m.info)).toEqual([
      expect.objectContaining({
        id: 'gemini-2.5-pro',
        api: { id: 'gemini-2.5-pro', type: 'aisdk', package: '@ai-sdk/google' },
      }),
    ]);
  });
});

describe("a scenario's providers", () => {
  const anthropic = {
    id: 'anthropic',
    name: 'Anthropic',
    models: [{ id: 'claude-sonnet-4-5', name: 'Claude Sonnet 4.5' }],
  };

  it('replace the default catalogue, with what a record leaves out filled in', () => {
    const scenario = load({
      start: '2026-11-22T09:00:00Z',
      providers: [
        anthropic,
        {
          id: 'acme',
          name: 'Acme AI',
          active: false,
          appears: '30s',
          models: [{ id: 'acme-1', name: 'Acme 1', appears: '1m' }],
        },
      ],
    });
    expect(ids(scenario)).toEqual([
      ['anthropic', ['claude-sonnet-4-5']],
      ['acme', ['acme-1']],
    ]);
    const [first, acme] = scenario.providers;
    expect(first?.info).toEqual({
      id: 'anthropic',
      name: 'Anthropic',
      api: { type: 'aisdk', package: '@ai-sdk/openai-compatible' },
      request: { headers: {}, body: {} },
    });
    expect(first?.models[0]?.info).toEqual({
      id: 'claude-sonnet-4-5',
      providerID: 'anthropic',
      name: 'Claude Sonnet 4.5',
      api: { id: 'claude-sonnet-4-5', type: 'aisdk', package: '@ai-sdk/openai-compatible' },
      capabilities: { tools: true, input: ['text'], output: ['text'] },
      request: { headers: {}, body: {} },
      variants: [],
      time: { released: Date.parse('2026-11-22T09:00:00Z') },
      cost: [{ input: 0, output: 0, cache: { read: 0, write: 0 } }],
      status: 'active',
      enabled: true,
      limit: { context: 128000, output: 16384 },
    });
    expect(acme).toMatchObject({ active: false, appears: Date.parse('2026-11-22T09:00:30Z') });
    expect(acme?.models[0]?.appears).toBe(Date.parse('2026-11-22T09:01:00Z'));
  });

  it('must list the model sessions start with, unless model: names another', () => {
    expect(
      problemsOf({ providers: [{ id: 'openai', name: 'OpenAI', models: [{ id: 'gpt-5', name: 'GPT-5' }] }] }),
    ).toEqual([
      'providers: lists no model anthropic/claude-sonnet-4-5, the one sessions start with when the scenario has no model: section; list it, or add a model: section',
    ]);
    expect(problemsOf({ providers: [anthropic] })).toEqual([]);
  });

  it("must list the provider of the scenario's model:", () => {
    expect(problemsOf({ providers: [{ id: 'openai', name: 'OpenAI' }], model: DEFAULT_MODEL })).toEqual([
      'model.providerID: provider anthropic is not among providers; list it there',
    ]);
    const scenario = load({ providers: [{ id: 'anthropic', name: 'Anthropic' }], model: DEFAULT_MODEL });
    expect(ids(scenario)).toEqual([['anthropic', ['claude-sonnet-4-5']]]);
  });

  it('are held to the spec and to one id each', () => {
    expect(
      problemsOf({
        providers: [
          anthropic,
          {
            ...anthropic,
            models: [
              { id: 'm', name: 'M' },
              { id: 'm', name: 'M', limit: { context: 'big' } },
            ],
          },
        ],
      }),
    ).toEqual([
      'providers[1].models[1]: model anthropic/m: limit.output is required (spec ModelV2Info)',
      'providers[1].models[1]: model anthropic/m: limit.context must be integer (spec ModelV2Info)',
      'providers[1].id: provider anthropic is declared twice',
      'providers[1].models[1].id: model anthropic/m is declared twice',
    ]);
  });
});

describe('the two shapes of a model', () => {
  it('go from the interface document to the catalogue and back', () => {
    const provider = {
      id: 'anthropic',
      api: { type: 'aisdk', package: '@ai-sdk/anthropic' },
      request: { headers: {}, body: {} },
    };
    const record = catalogueRecord(DEFAULT_MODEL, provider);
    expect(spec.checkComponent('ModelV2Info', record)).toEqual([]);
    const back = interfaceRecord(record);
    expect(spec.checkComponent('Model', back)).toEqual([]);
    expect(back).toMatchObject({ ...DEFAULT_MODEL, package: '@ai-sdk/anthropic', headers: {}, body: {}, settings: {} });
  });
});

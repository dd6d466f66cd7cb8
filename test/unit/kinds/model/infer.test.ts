/** scenario-from, the model kind's part: the catalogue a recording listed, and a default model it implies. */
import { describe, expect, it } from 'vitest';
import { inferModel } from '../../../../src/kinds/model/infer.js';
import { loadSpec } from '../../../../src/openapi/openapi.js';
import { loadScenarioObject } from '../../../../src/scenarios/load-scenario.js';
import { recorded } from './recorded.js';

const LOCATION = { directory: '/srv/demo', project: { id: 'p', directory: '/srv/demo' } };
const api = (id: string) => ({
  id,
  type: 'aisdk',
  package: '@ai-sdk/openai-compatible',
  url: 'https://opencode.ai/zen/v1',
});
const model = (id: string, released: number) => ({
  id,
  providerID: 'opencode',
  name: id,
  api: api(id),
  capabilities: { tools: true, input: ['text'], output: ['text'] },
  request: { headers: {}, body: { apiKey: 'public' } },
  variants: [],
  time: { released },
  cost: [{ input: 0, output: 0, cache: { read: 0, write: 0 } }],
  status: 'active',
  enabled: true,
  limit: { context: 200000, output: 32000 },
});
const OPENCODE = {
  id: 'opencode',
  name: 'OpenCode Zen',
  api: { type: 'aisdk', package: '@ai-sdk/openai-compatible', url: 'https://opencode.ai/zen/v1' },
  request: { headers: {}, body: { apiKey: 'public' } },
};

describe('inferModel', () => {
  it('writes the listed providers active, each with its models, and the newest as the default model', () => {
    const timeline = recorded(
      ['v2.provider.list', { location: LOCATION, data: [OPENCODE] }],
      ['v2.model.list', { location: LOCATION, data: [model('new-free', 2), model('big-pickle', 1)] }],
    );
    const inferred = inferModel(timeline);
    const listed = (id: string, released: number) => {
      const entry: Record<string, unknown> = model(id, released);
      delete entry.providerID;
      return entry;
    };
    expect(inferred.providers?.map((p) => p.value)).toEqual([
      { ...OPENCODE, active: true, models: [listed('new-free', 2), listed('big-pickle', 1)] },
    ]);
    expect(inferred.model?.[0]).toMatchObject({
      whole: true,
      value: { id: 'new-free', modelID: 'new-free', providerID: 'opencode', package: '@ai-sdk/openai-compatible' },
      note: expect.stringContaining('no default model was recorded'),
    });
  });

  it('makes a scenario that loads, its default model listed', async () => {
    const timeline = recorded(
      ['v2.provider.list', { location: LOCATION, data: [OPENCODE] }],
      ['v2.model.list', { location: LOCATION, data: [model('new-free', 2), model('big-pickle', 1)] }],
    );
    const inferred = inferModel(timeline);
    const scenario = loadScenarioObject(
      { name: 'inferred', model: inferred.model?.[0]?.value, providers: inferred.providers?.map((p) => p.value) },
      await loadSpec(),
    );
    expect(scenario.providers[0]?.models.map((m) => m.info)).toEqual([model('new-free', 2), model('big-pickle', 1)]);
  });

  it('keeps a recorded default model, and names a provider known only by its models', () => {
    const recordedDefault = { id: 'big-pickle', providerID: 'opencode', name: 'Big Pickle' };
    const timeline = recorded(
      ['v2.model.default', { location: LOCATION, data: recordedDefault }],
      ['v2.model.list', { location: LOCATION, data: [model('big-pickle', 1)] }],
    );
    const inferred = inferModel(timeline);
    expect(inferred.model?.[0]?.value).toEqual(recordedDefault);
    expect(inferred.providers?.[0]?.value).toMatchObject({ id: 'opencode', name: 'opencode', active: true });
  });

  it('infers nothing from a recording without the catalogue', () => {
    expect(inferModel(recorded(['v2.plugin.list', { location: LOCATION, data: [] }]))).toEqual({});
  });
});

/**
 * The tools: every id, and the tools a provider and model get (GPT-5 models apply_patch, the opencode
 * provider websearch), the built-in ones or a scenario's, valid against the spec; and scenario-from.
 */
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp, type SimApp } from '../../../../src/hosts/app.js';
import { inferTools } from '../../../../src/kinds/tool/infer.js';
import { specProblems } from '../../../support/spec-validator.js';
import { recorded } from '../model/recorded.js';

const BUILT_IN = [
  'invalid',
  'question',
  'bash',
  'read',
  'glob',
  'grep',
  'edit',
  'write',
  'task',
  'webfetch',
  'todowrite',
];

let app: SimApp;
beforeAll(async () => {
  app = await createApp({ scenario: { name: 'tools' }, log: () => {} });
});

async function tools(provider: string, model: string): Promise<string[]> {
  const res = await request(app).get('/experimental/tool').query({ provider, model }).expect(200);
  expect(specProblems('tool.list', res.status, res.body, res.headers['content-type'] as string)).toEqual([]);
  return (res.body as Array<{ id: string }>).map((t) => t.id);
}

describe('the built-in tools', () => {
  it("are listed by id in the real server's order", async () => {
    const res = await request(app).get('/experimental/tool/ids').expect(200);
    expect(specProblems('tool.ids', res.status, res.body, res.headers['content-type'] as string)).toEqual([]);
    expect(res.body).toEqual([...BUILT_IN, 'websearch', 'skill', 'apply_patch']);
  });

  it('are given to each provider and model as the real server gives them', async () => {
    expect(await tools('anthropic', 'claude-sonnet-4-5')).toEqual([...BUILT_IN, 'skill']);
    expect(await tools('openai', 'gpt-4.1')).toEqual([...BUILT_IN, 'skill']);
    const gpt5 = BUILT_IN.filter((id) => id !== 'edit' && id !== 'write');
    expect(await tools('openai', 'gpt-5')).toEqual([...gpt5, 'skill', 'apply_patch']);
    expect(await tools('opencode', 'big-pickle')).toEqual([...BUILT_IN, 'websearch', 'skill']);
    expect(await tools('opencode', 'gpt-5-nano')).toEqual([...gpt5, 'websearch', 'skill', 'apply_patch']);
    // An unknown provider or model is not refused: it gets what any model gets.
    expect(await tools('nobody', 'nothing')).toEqual([...BUILT_IN, 'skill']);
  });

  it('need a provider and a model', async () => {
    const res = await request(app).get('/experimental/tool').query({ provider: 'openai' });
    expect(res.status).toBe(400);
    expect(specProblems('tool.list', res.status, res.body, res.headers['content-type'] as string)).toEqual([]);
  });
});

describe("a scenario's tools", () => {
  it('replace the built-in ones, with only and except deciding who gets them', async () => {
    const own = await createApp({
      scenario: {
        name: 'own-tools',
        tools: [
          {
            id: 'deploy',
            description: 'Deploy a preview',
            parameters: { type: 'object', properties: { env: { type: 'string' } } },
          },
          { id: 'lint', only: '^anthropic/' },
          { id: 'format', except: '/gpt-' },
        ],
      },
      log: () => {},
    });
    expect((await request(own).get('/experimental/tool/ids')).body).toEqual(['deploy', 'lint', 'format']);
    const list = await request(own)
      .get('/experimental/tool')
      .query({ provider: 'anthropic', model: 'claude-haiku-4-5' });
    expect(list.body).toEqual([
      {
        id: 'deploy',
        description: 'Deploy a preview',
        parameters: { type: 'object', properties: { env: { type: 'string' } } },
      },
      { id: 'lint', description: '', parameters: { type: 'object', properties: {} } },
      { id: 'format', description: '', parameters: { type: 'object', properties: {} } },
    ]);
    const openai = await request(own).get('/experimental/tool').query({ provider: 'openai', model: 'gpt-5' });
    expect((openai.body as Array<{ id: string }>).map((t) => t.id)).toEqual(['deploy']);
  });
});

describe('inferTools', () => {
  it('writes the listed tools, and the ids the provider and model asked about did not get', () => {
    const listed = [{ id: 'bash', description: 'Run', parameters: { type: 'object' } }];
    const timeline = recorded(
      ['tool.ids', ['bash', 'apply_patch']],
      ['tool.list', listed, { provider: 'anthropic', model: 'claude-sonnet-4-5' }],
    );
    expect(inferTools(timeline).tools?.map((p) => p.value)).toEqual([
      listed[0],
      { id: 'apply_patch', except: '^anthropic/claude-sonnet-4-5$' },
    ]);
    expect(inferTools(recorded())).toEqual({});
  });
});

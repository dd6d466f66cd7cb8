/**
 * The catalogue a scenario without `providers:` serves: a few providers and models of the real server's
 * bundled models.dev catalogue, with the values 1.18.33 lists for them (a small part of its ~230 providers).
 * Written as a scenario's `providers:` section is, so the same reading fills in what is left out.
 * anthropic/claude-sonnet-4-5 is the model sessions start with (src/kinds/session/state.ts).
 */
import type { ScenarioProvider } from '../../format/scenario-types.js';

const cost = (input: number, output: number, read: number, write: number) => [
  { input, output, cache: { read, write } },
];
const FREE = cost(0, 0, 0, 0);
const TEXT = { tools: true, input: ['text'], output: ['text'] };
const TEXT_IMAGE = { tools: true, input: ['text', 'image'], output: ['text'] };
const DOCUMENTS = { tools: true, input: ['text', 'image', 'pdf'], output: ['text'] };

export const DEFAULT_PROVIDERS: readonly ScenarioProvider[] = [
  {
    id: 'anthropic',
    name: 'Anthropic',
    api: { type: 'aisdk', package: '@ai-sdk/anthropic' },
    request: {
      headers: { 'anthropic-beta': 'interleaved-thinking-2025-05-14,fine-grained-tool-streaming-2025-05-14' },
      body: {},
    },
    models: [
      {
        id: 'claude-opus-4-5',
        family: 'claude-opus',
        name: 'Claude Opus 4.5 (latest)',
        capabilities: DOCUMENTS,
        time: { released: 1763942400000 },
        cost: cost(5, 25, 0.5, 6.25),
        limit: { context: 200000, output: 64000 },
      },
      {
        id: 'claude-haiku-4-5',
        family: 'claude-haiku',
        name: 'Claude Haiku 4.5 (latest)',
        capabilities: DOCUMENTS,
        time: { released: 1760486400000 },
        cost: cost(1, 5, 0.1, 1.25),
        limit: { context: 200000, output: 64000 },
      },
      {
        id: 'claude-sonnet-4-5',
        family: 'claude-sonnet',
        name: 'Claude Sonnet 4.5 (latest)',
        capabilities: DOCUMENTS,
        time: { released: 1759104000000 },
        cost: cost(3, 15, 0.3, 3.75),
        limit: { context: 1000000, output: 64000 },
      },
    ],
  },
  {
    id: 'openai',
    name: 'OpenAI',
    api: { type: 'aisdk', package: '@ai-sdk/openai' },
    models: [
      {
        id: 'gpt-5',
        family: 'gpt',
        name: 'GPT-5',
        capabilities: TEXT_IMAGE,
        time: { released: 1754524800000 },
        cost: cost(1.25, 10, 0.125, 0),
        limit: { context: 400000, input: 272000, output: 128000 },
      },
      {
        id: 'gpt-5-mini',
        family: 'gpt-mini',
        name: 'GPT-5 Mini',
        capabilities: TEXT_IMAGE,
        time: { released: 1754524800000 },
        cost: cost(0.25, 2, 0.025, 0),
        limit: { context: 400000, input: 272000, output: 128000 },
      },
      {
        id: 'gpt-4.1',
        family: 'gpt',
        name: 'GPT-4.1',
        capabilities: DOCUMENTS,
        time: { released: 1744588800000 },
        cost: cost(2, 8, 0.5, 0),
        limit: { context: 1047576, output: 32768 },
      },
    ],
  },
  {
    id: 'opencode',
    name: 'OpenCode Zen',
    // Its public key makes it usable with no connection, as on the real server offline.
    active: true,
    api: { type: 'aisdk', package: '@ai-sdk/openai-compatible', url: 'https://opencode.ai/zen/v1' },
    request: { headers: {}, body: { apiKey: 'public' } },
    models: [
      {
        id: 'big-pickle',
        family: 'big-pickle',
        name: 'Big Pickle',
        capabilities: TEXT,
        time: { released: 1760659200000 },
        cost: FREE,
        limit: { context: 200000, input: 160000, output: 32000 },
      },
      {
        id: 'grok-code',
        family: 'grok',
        name: 'Grok Code Fast 1',
        capabilities: TEXT,
        time: { released: 1755648000000 },
        cost: FREE,
        status: 'deprecated',
        limit: { context: 256000, output: 256000 },
      },
    ],
  },
];

import { describe, expect, it } from 'vitest';
import { ruleObject, runtimeConfig } from '../../../src/real-runtime/runtime-config.js';

describe("the real runtime's configuration", () => {
  it('writes rules by action then resource, a later rule for a resource moving to the end', () => {
    expect(
      ruleObject([
        { action: '*', resource: '*', effect: 'allow' },
        { action: 'bash', resource: '*', effect: 'ask' },
        { action: 'bash', resource: 'git *', effect: 'allow' },
        { action: 'bash', resource: '*', effect: 'deny' },
      ]),
    ).toEqual({ '*': { '*': 'allow' }, bash: { 'git *': 'allow', '*': 'deny' } });
    const bash = ruleObject([
      { action: 'bash', resource: '*', effect: 'ask' },
      { action: 'bash', resource: 'git *', effect: 'allow' },
      { action: 'bash', resource: '*', effect: 'deny' },
    ]).bash;
    expect(Object.keys(bash ?? {})).toEqual(['git *', '*']);
  });

  it("wires the model, denies the web tools, allows what was saved, and gives agents the scenario's rules", () => {
    const model = { provider: { sim: {} }, model: 'sim/scripted-1' };
    const config = runtimeConfig(model, {
      agents: [
        { id: 'build', permissions: [{ action: 'bash', resource: '*', effect: 'ask' }, { nonsense: true }] },
        { id: 'plan' },
      ],
      permissions: { saved: [{ id: 'psv_1', action: 'edit', resource: 'src/*' }] },
    });
    expect(config).toEqual({
      provider: { sim: {} },
      model: 'sim/scripted-1',
      permission: { edit: { 'src/*': 'allow' }, webfetch: 'deny', websearch: 'deny' },
      agent: { build: { permission: { bash: { '*': 'ask' } } } },
      share: 'disabled',
      autoupdate: false,
    });
  });

  it('keeps the web tools denied whatever was saved, and writes no agents when the scenario has none', () => {
    const config = runtimeConfig({}, { permissions: { saved: [{ id: 'psv_1', action: 'webfetch', resource: '*' }] } });
    expect(config.permission).toEqual({ webfetch: 'deny', websearch: 'deny' });
    expect(config).not.toHaveProperty('agent');
  });

  it('asks for each call a script marks ask, whatever the rules before it say', () => {
    const step = (tool: string, input: Record<string, unknown>, ask?: boolean) => ({
      kind: 'tool' as const,
      tool,
      input,
      ...(ask ? { ask } : {}),
    });
    const sessions = [
      {
        turns: [
          {
            order: 0,
            steps: [
              step('bash', { command: 'npm test' }, true),
              step('write', { path: 'a.txt', content: '' }, true),
              step('read', { path: 'b.txt' }),
            ],
          },
        ],
      },
    ] as never;
    const config = runtimeConfig(
      {},
      {
        agents: [{ id: 'build', permissions: [{ action: '*', resource: '*', effect: 'allow' }] }],
        sessions,
      },
    );
    expect(config.permission).toEqual({
      bash: { 'npm test': 'ask' },
      edit: { 'a.txt': 'ask' },
      webfetch: 'deny',
      websearch: 'deny',
    });
    expect(config.agent).toEqual({
      build: { permission: { '*': { '*': 'allow' }, bash: { 'npm test': 'ask' }, edit: { 'a.txt': 'ask' } } },
    });
  });
});

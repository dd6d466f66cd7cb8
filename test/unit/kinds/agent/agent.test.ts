/**
 * The agents: the real server's defaults with their rules made for a location, a scenario's own agents with
 * what they leave out filled in, held to list the agents its sessions use, and scenario-from.
 */
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../../src/hosts/app.js';
import { baseRules, defaultAgents, homeOf } from '../../../../src/kinds/agent/defaults.js';
import { inferAgents } from '../../../../src/kinds/agent/infer.js';
import { loadSpec, type SpecIndex } from '../../../../src/openapi/openapi.js';
import { ScenarioError } from '../../../../src/scenarios/definition.js';
import { loadScenarioObject } from '../../../../src/scenarios/load-scenario.js';
import { specProblems } from '../../../support/spec-validator.js';
import { recorded } from '../model/recorded.js';

type JsonObject = Record<string, unknown>;

let spec: SpecIndex;
beforeAll(async () => {
  spec = await loadSpec();
});

const problemsOf = (scenario: JsonObject): string[] => {
  try {
    loadScenarioObject({ name: 'agents', ...scenario }, spec);
  } catch (error) {
    if (error instanceof ScenarioError) return error.problems.map((p) => `${p.path}: ${p.message}`);
    throw error;
  }
  return [];
};

describe('the default agents', () => {
  const agents = defaultAgents('/home/dev/acme-web');

  it("are the real server's seven, with their modes, valid against the spec", () => {
    expect(agents.map((a) => [a.id, a.mode, a.hidden])).toEqual([
      ['build', 'primary', false],
      ['plan', 'primary', false],
      ['general', 'subagent', false],
      ['explore', 'subagent', false],
      ['compaction', 'primary', true],
      ['title', 'primary', true],
      ['summary', 'primary', true],
    ]);
    for (const agent of agents) expect(spec.checkComponent('AgentV2Info', agent), String(agent.id)).toEqual([]);
  });

  it("make their rules for the location: the user's home and the plans directory", () => {
    expect(homeOf('/home/dev/acme-web')).toBe('/home/dev');
    expect(homeOf('/Users/ana/src/app')).toBe('/Users/ana');
    expect(homeOf('/srv/demo')).toBe('/home/dev');
    expect(baseRules('/Users/ana/app')).toContainEqual({
      action: 'external_directory',
      resource: '/Users/ana/.local/share/opencode/tool-output/*',
      effect: 'allow',
    });
    const plan = agents.find((a) => a.id === 'plan')?.permissions as JsonObject[];
    expect(plan.slice(-4)).toEqual([
      { action: 'external_directory', resource: '/home/dev/.local/share/opencode/plans/*', effect: 'allow' },
      { action: 'edit', resource: '*', effect: 'deny' },
      { action: 'edit', resource: '.opencode/plans/*.md', effect: 'allow' },
      { action: 'edit', resource: '../.local/share/opencode/plans/*.md', effect: 'allow' },
    ]);
    // Build may ask questions and enter plan mode; the hidden agents may do nothing.
    expect((agents[0]?.permissions as JsonObject[]).slice(-2)).toEqual([
      { action: 'question', resource: '*', effect: 'allow' },
      { action: 'plan_enter', resource: '*', effect: 'allow' },
    ]);
    expect((agents[6]?.permissions as JsonObject[]).at(-1)).toEqual({ action: '*', resource: '*', effect: 'deny' });
  });
});

describe("a scenario's agents", () => {
  it('replace the defaults, with request, mode, hidden and the base rules filled in', async () => {
    const app = await createApp({
      scenario: {
        name: 'agents',
        agents: [{ id: 'build' }, { id: 'reviewer', mode: 'subagent', description: 'Reviews diffs', steps: 8 }],
      },
      log: () => {},
    });
    const res = await request(app).get('/api/agent').query({ 'location[directory]': '/home/ana/web' }).expect(200);
    expect(specProblems('v2.agent.list', res.status, res.body, res.headers['content-type'] as string)).toEqual([]);
    expect(res.body.data).toEqual([
      {
        id: 'build',
        request: { headers: {}, body: {} },
        mode: 'all',
        hidden: false,
        permissions: baseRules('/home/ana/web'),
      },
      {
        id: 'reviewer',
        request: { headers: {}, body: {} },
        mode: 'subagent',
        hidden: false,
        description: 'Reviews diffs',
        steps: 8,
        permissions: baseRules('/home/ana/web'),
      },
    ]);
  });

  it('must list build and every agent the sessions switch to', () => {
    const sessions = [
      {
        id: 'ses_a',
        messages: [
          { type: 'agent-switched', agent: 'plan' },
          { type: 'user', text: 'hi' },
        ],
      },
    ];
    expect(problemsOf({ sessions, agents: [{ id: 'reviewer' }] })).toEqual([
      'agents: lists no agent build, which a session of the scenario uses',
      'agents: lists no agent plan, which a session of the scenario uses',
    ]);
    expect(problemsOf({ sessions, agents: [{ id: 'build' }, { id: 'plan' }] })).toEqual([]);
    expect(problemsOf({ agents: [{ id: 'reviewer' }] })).toEqual([]);
  });

  it('are held to the spec and to one id each', () => {
    expect(problemsOf({ agents: [{ id: 'a', mode: 'sometimes' }, { id: 'a' }] })).toEqual([
      'agents[0]: agent a: mode must be one of "subagent", "primary", "all" (spec AgentV2Info)',
      'agents[1].id: agent a is declared twice',
    ]);
  });
});

describe('inferAgents', () => {
  it('writes the agents the first listing gave', () => {
    const agents = defaultAgents('/srv/demo').slice(0, 2);
    const location = { directory: '/srv/demo', project: { id: 'p', directory: '/srv/demo' } };
    const inferred = inferAgents(recorded(['v2.agent.list', { location, data: agents }]));
    expect(inferred.agents?.map((p) => p.value)).toEqual(agents);
    expect(inferAgents(recorded())).toEqual({});
  });
});

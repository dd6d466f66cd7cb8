import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpec, type SpecIndex } from '../../../src/openapi/openapi.js';
import { ScenarioError, type ScenarioDefinition } from '../../../src/scenarios/definition.js';
import { parseScenario } from '../../../src/scenarios/load-scenario.js';
import { readRuntimeRule } from '../../../src/scenarios/read-rule.js';

const SESSION = 'ses_dfc5ae513ffePKUBK7HkVp5zCB';
const START = Date.parse('2026-11-22T09:00:00Z');

let spec: SpecIndex;
let scenario: ScenarioDefinition;
beforeAll(async () => {
  spec = await loadSpec();
  scenario = parseScenario(`name: demo\nsessions: [{ id: ${SESSION} }]\n`, '<test>', spec);
});

/** `null`: no scenario loaded. */
function refusal(value: unknown, on: ScenarioDefinition | null = scenario): string {
  try {
    readRuntimeRule(value, spec, on ?? undefined, { id: 'rul_1', start: START });
  } catch (error) {
    if (error instanceof ScenarioError) return error.message;
    throw error;
  }
  return '';
}

describe('readRuntimeRule', () => {
  it('refuses an error the operation does not declare, naming the tag and the declared ones', () => {
    expect(
      refusal({ when: { operation: 'v2.session.compact' }, then: { error: { _tag: 'NotAnError', message: 'x' } } }),
    ).toBe(
      'runtime rule rul_1: then.error._tag: NotAnError is not an error v2.session.compact declares. Declared: InvalidRequestError, UnauthorizedError, SessionNotFoundError, ConflictError. Another needs its status and outsideSpec: true on the rule.',
    );
  });

  it('suggests the closest operation for an unknown one', () => {
    expect(refusal({ when: { operation: 'v2.session.compcat' }, then: { status: 200 } })).toBe(
      'runtime rule rul_1: when.operation: no operation v2.session.compcat in the spec. Did you mean v2.session.compact? GET /__sim/operations (or docs/operations.md) lists them. A path the spec lacks is matched by method and path, with outsideSpec: true.',
    );
  });

  it('refuses a status the operation does not declare and a body the spec does not allow', () => {
    expect(refusal({ when: { operation: 'v2.plugin.list' }, then: { status: 418 } })).toMatch(
      /^runtime rule rul_1: then: answer violates the spec: status 418/,
    );
    expect(
      refusal({ when: { operation: 'v2.plugin.list' }, then: { status: 200, body: { data: [{ name: 'x' }] } } }),
    ).toMatch(/then: answer violates the spec: data.0.id is required/);
  });

  it('checks the shape of a scenario rule, one problem per line, each at its path', () => {
    expect(refusal({ when: { params: { sessionID: 1 } }, then: { delay: 'soon' }, times: 0 }).split('\n')).toEqual([
      'runtime rule rul_1: when.params.sessionID: must be string',
      'runtime rule rul_1: then.delay: must be a duration: 250ms, 30s, 5m, 1h, 1m30s, or milliseconds as a number (at least 0)',
      'runtime rule rul_1: times: must be >= 1',
    ]);
    expect(
      refusal({
        when: { operation: 'v2.plugin.list', state: { session: { id: SESSION, is: 'sleepy' } } },
        then: { status: 200 },
      }),
    ).toBe('runtime rule rul_1: when.state.session.is: must be one of "scheduled", "busy", "idle", got "sleepy".');
    expect(refusal([])).toBe('runtime rule rul_1: rule must be object');
    expect(refusal({ when: {}, then: { status: 200 } })).toBe(
      'runtime rule rul_1: when: say what the rule matches: operation (an operationId of the spec), or method and path (a template such as /api/gateway/{name}) or pathPattern (a regular expression)',
    );
  });

  it('holds states to the resources of the scenario, and to none without one', () => {
    const rule = {
      when: { operation: 'v2.plugin.list', state: { shell: { id: 'sh_x', is: 'running' } } },
      then: { status: 200, body: { data: [] } },
    };
    expect(refusal(rule)).toBe(
      'runtime rule rul_1: when.state.shell.id: shell "sh_x" is not declared; declare it under shells:',
    );
    expect(refusal(rule, null)).toBe(
      'runtime rule rul_1: when.state.shell.id: shell sh_x is not declared: no scenario is loaded',
    );
    const onSession = {
      when: { operation: 'v2.plugin.list', state: { session: { id: SESSION, is: 'busy' } } },
      then: { status: 200, body: { data: [] } },
    };
    expect(readRuntimeRule(onSession, spec, scenario, { id: 'rul_2' }).state).toEqual({
      session: { id: SESSION, is: 'busy' },
    });
  });

  it('reads an answer, its delay, and times counted from the given start', () => {
    const rule = readRuntimeRule(
      {
        when: { operation: 'v2.session.compact', params: { sessionID: SESSION }, after: '30s', before: '1m' },
        then: {
          error: { _tag: 'ConflictError', message: 'Session input already exists: msg_x', resource: 'msg_x' },
          delay: '1.5s',
        },
        times: 2,
      },
      spec,
      scenario,
      { id: 'rul_7', start: START + 60_000 },
    );
    expect(rule).toMatchObject({
      operation: 'v2.session.compact',
      params: { sessionID: SESSION },
      after: START + 90_000,
      before: START + 120_000,
      status: 409,
      delay: 1500,
      times: 2,
      where: 'runtime rule rul_7',
    });
    expect(rule.answer).toMatchObject({ _tag: 'ConflictError' });
    expect(rule.drop).toBeUndefined();
  });

  it('counts times from the scenario start when no start is given', () => {
    expect(
      readRuntimeRule({ when: { operation: 'v2.plugin.list', after: '1s' }, then: { drop: true } }, spec, scenario, {
        id: 'rul_3',
      }).after,
    ).toBe(scenario.start + 1000);
  });
});

describe('drop', () => {
  it('reads a drop, with or without a delay', () => {
    const plain = readRuntimeRule({ when: { operation: 'v2.plugin.list' }, then: { drop: true } }, spec, scenario, {
      id: 'rul_1',
      start: START,
    });
    expect(plain).toMatchObject({ drop: true, delay: 0 });
    expect(plain.answer).toBeUndefined();
    expect(
      readRuntimeRule(
        { when: { operation: 'v2.session.compact' }, then: { drop: true, delay: '2s' }, times: 1 },
        spec,
        undefined,
        { id: 'rul_2', start: START },
      ),
    ).toMatchObject({
      operation: 'v2.session.compact',
      drop: true,
      delay: 2000,
      times: 1,
      where: 'runtime rule rul_2',
    });
  });

  it('refuses an answer alongside a drop, naming each part', () => {
    expect(
      refusal({ when: { operation: 'v2.plugin.list' }, then: { drop: true, status: 200, body: { data: [] } } }).split(
        '\n',
      ),
    ).toEqual([
      'runtime rule rul_1: then.status: drop sends no answer, so status cannot go with it (delay can)',
      'runtime rule rul_1: then.body: drop sends no answer, so body cannot go with it (delay can)',
    ]);
    expect(
      refusal({ when: { operation: 'v2.plugin.list' }, then: { drop: true, error: { _tag: 'UnauthorizedError' } } }),
    ).toBe('runtime rule rul_1: then.error: drop sends no answer, so error cannot go with it (delay can)');
  });

  it('means the same in a scenario file, where problems keep their line and column', () => {
    const loaded = parseScenario(
      'name: demo\nrules:\n  - when: { operation: v2.plugin.list }\n    then: { drop: true, delay: 250ms }\n',
      '<test>',
      spec,
    );
    expect(loaded.rules[0]).toMatchObject({ drop: true, delay: 250, where: '<test> rules[0]' });
    expect(() =>
      parseScenario(
        'name: demo\nrules:\n  - when: { operation: v2.plugin.list }\n    then: { drop: true, status: 200 }\n',
        '<test>',
        spec,
      ),
    ).toThrow('<test>:4:33: rules[0].then.status: drop sends no answer, so status cannot go with it (delay can)');
  });

  it('without drop, asks for something to answer', () => {
    expect(refusal({ when: { operation: 'v2.plugin.list' }, then: { drop: false } })).toBe(
      'runtime rule rul_1: then: say what to answer: status (with body or text, and headers), error, drop, or stream',
    );
  });
});

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadSpec, type SpecIndex } from '../../../src/openapi/openapi.js';
import { scenarioProblems } from '../../support/scenario-problems.js';
import { ScenarioError, type ScenarioDefinition } from '../../../src/scenarios/definition.js';
import { loadScenarioObject, parseScenario } from '../../../src/scenarios/load-scenario.js';

let spec: SpecIndex;
beforeAll(async () => {
  spec = await loadSpec();
});

const problems = (text: string) => scenarioProblems(spec, text);

describe('parseScenario', () => {
  it('loads a valid scenario with ids and times filled in', () => {
    const scenario = parseScenario(
      'name: demo\nsessions:\n  - id: ses_a\n    messages:\n      - { type: user, text: hi }\n    generate: { count: 3 }\n',
      '<test>',
      spec,
    );
    expect(scenario.sessions[0]?.messages).toHaveLength(4);
    expect(scenario.sessions[0]?.messages[0]).toMatchObject({
      type: 'user',
      text: 'hi',
      id: expect.stringMatching(/^msg_[0-9a-f]{12}[0-9A-Za-z]{14}$/),
    });
  });

  it('gives the same ids for the same seed', () => {
    const text = 'name: demo\nseed: s1\nsessions:\n  - id: ses_a\n    generate: { count: 5 }\n';
    expect(parseScenario(text, '<test>', spec)).toEqual(parseScenario(text, '<test>', spec));
  });

  it('names the line and column of a typo in a field name', () => {
    expect(problems('name: demo\nsessions:\n  - id: ses_a\n    bussy: []\n')).toEqual([
      '4:5 sessions[0]: unknown field "bussy". Did you mean "busy"?',
    ]);
  });

  it('names a wrong type and an unknown state', () => {
    const found = problems(
      'name: demo\nsessions:\n  - id: ses_a\n    generate: { count: many }\nforms:\n  - { id: frm_1, sessionID: ses_a, title: t, mode: pending }\n',
    );
    expect(found).toContain('4:24 sessions[0].generate.count must be integer');
    expect(found).toContain('6:52 forms[0].mode must be one of "form", "url", got "pending".');
  });

  it('refuses a message the spec would not allow, at the message', () => {
    expect(problems('name: demo\nsessions:\n  - id: ses_a\n    messages:\n      - { type: user, txt: hi }\n')).toEqual([
      expect.stringMatching(/^5:9 message msg_\w+: text is required \(spec SessionMessage\)$/),
      expect.stringMatching(/^5:9 message msg_\w+: txt is not an allowed field \(spec SessionMessage\)$/),
    ]);
  });

  it('refuses a form of an undeclared session and a form the spec would not allow', () => {
    const found = problems('name: demo\nforms:\n  - id: frm_1\n    sessionID: ses_x\n    title: t\n    mode: url\n');
    expect(found).toEqual([
      expect.stringMatching(/^3:5 form frm_1: url is required/),
      '4:16 session "ses_x" is not declared; declare it under sessions:',
    ]);
  });

  it('reports a form field problem at the field, once, naming the types there are', () => {
    const found = problems(
      'name: demo\nsessions: [{ id: ses_a }]\nforms:\n  - id: frm_1\n    sessionID: ses_a\n    title: t\n    mode: form\n    fields:\n      - { key: a, type: strnig }\n',
    );
    expect(found).toEqual([
      '9:9 form frm_1 field 1: type must be one of "string", "number", "integer", "boolean", "multiselect" (spec FormField)',
    ]);
  });

  it('reports every format problem of a file in one go, the file name check included', () => {
    expect(() =>
      parseScenario('name: other\nshells: [{ id: sh_1, command: x, timeout: -5 }]\n', '/somewhere/demo.yaml', spec),
    ).toThrow(
      /demo.yaml:1:7: name "other" must match the file name demo.yaml \(or rename the file to other.yaml\)\n.*demo.yaml:2:\d+: shells\[0\].timeout must be >= 0/,
    );
  });

  it('reports YAML syntax errors with their position', () => {
    expect(problems('name: demo\nsessions: [\n')[0]).toMatch(/^\d+:\d+ YAML: /);
  });
});

describe('parseScenario rules', () => {
  it('refuses an error the operation does not declare, naming the declared ones', () => {
    const found = problems(
      'name: demo\nrules:\n  - when: { operation: v2.plugin.list }\n    then: { error: { _tag: SessionBusyError, sessionID: ses_1, message: busy } }\n',
    );
    expect(found).toEqual([
      expect.stringMatching(
        /^4:\d+ rules\[0\]\.then\.error\._tag: SessionBusyError is not an error v2.plugin.list declares\. Declared: InvalidRequestError, UnauthorizedError\. Another needs its status and outsideSpec: true on the rule\.$/,
      ),
    ]);
  });

  it('refuses an unknown operation and a body that violates the spec', () => {
    const found = problems(
      'name: demo\nrules:\n  - when: { operation: v2.nope }\n    then: { status: 200 }\n  - when: { operation: v2.plugin.list }\n    then: { status: 200, body: { data: [{ name: x }] } }\n',
    );
    expect(found[0]).toMatch(/^3:\d+ rules\[0\]\.when\.operation: no operation v2.nope in the spec/);
    expect(found.slice(1).join('\n')).toMatch(/answer violates the spec: data.0.id is required/);
  });

  it('refuses a state a resource kind does not have, and an undeclared resource', () => {
    const found = problems(
      'name: demo\nsessions: [{ id: ses_a }]\nrules:\n  - when: { operation: v2.plugin.list, state: { session: { id: ses_a, is: sleepy } } }\n    then: { status: 200, body: { data: [] } }\n  - when: { operation: v2.plugin.list, state: { shell: { id: sh_x, is: running } } }\n    then: { status: 200, body: { data: [] } }\n',
    );
    expect(found[0]).toMatch(
      /^4:\d+ rules\[0\]\.when\.state\.session\.is must be one of "scheduled", "busy", "idle", got "sleepy"\.$/,
    );
  });

  it('refuses a rule on a resource the scenario does not declare', () => {
    const found = problems(
      'name: demo\nrules:\n  - when: { operation: v2.plugin.list, state: { shell: { id: sh_x, is: running } } }\n    then: { status: 200, body: { data: [] } }\n',
    );
    expect(found).toEqual([
      expect.stringMatching(
        /^3:\d+ rules\[0\]\.when\.state\.shell\.id: shell "sh_x" is not declared; declare it under shells:$/,
      ),
    ]);
  });
});

describe('loadScenarioObject', () => {
  const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

  function objectProblems(value: unknown, label?: string): string {
    try {
      loadScenarioObject(value, spec, label);
    } catch (error) {
      if (error instanceof ScenarioError) return error.message;
      throw error;
    }
    return '';
  }

  it.each(['scenarios/forms-settling.yaml', 'scenarios/default.yaml', 'test/fixtures/scripted-faults.yaml'])(
    'reads %s written as an object exactly as the file',
    (path) => {
      const file = `${ROOT}${path}`;
      const text = readFileSync(file, 'utf8');
      const fromFile = parseScenario(text, file, spec);
      const fromObject = loadScenarioObject(parse(text), spec);
      // Only where it came from differs, and rules say where they are written.
      const origin = (s: ScenarioDefinition) => ({
        ...s,
        file: undefined,
        rules: s.rules.map((r) => ({ ...r, where: r.where.replace(s.file, '') })),
      });
      expect(fromObject.file).toBe('inline scenario');
      expect(origin(fromObject)).toEqual(origin(fromFile));
    },
  );

  it('names the place of a problem as a path, after the label', () => {
    const message = objectProblems({
      name: 'x',
      sessions: [{ id: 'ses_a', busy: [{ from: '0s', until: 'half a minute' }] }],
    });
    expect(message).toBe(
      'inline scenario: sessions[0].busy[0].until: must be a duration: 250ms, 30s, 5m, 1h, 1m30s, or milliseconds as a number (at least 0)',
    );
  });

  it('gives each problem its path, without line or column', () => {
    try {
      loadScenarioObject(
        {
          name: 'x',
          sessions: [{ id: 'ses_a', bussy: [] }],
          forms: [{ id: 'frm_1', sessionID: 'ses_x', title: 't', mode: 'url', url: 'https://x.test' }],
        },
        spec,
        'my fixture',
      );
      expect.unreachable();
    } catch (error) {
      expect((error as ScenarioError).problems).toEqual([
        {
          file: 'my fixture',
          line: 0,
          col: 0,
          path: 'sessions[0].bussy',
          message: 'unknown field "bussy". Did you mean "busy"?',
        },
      ]);
      expect((error as ScenarioError).message).toBe(
        'my fixture: sessions[0].bussy: unknown field "bussy". Did you mean "busy"?',
      );
    }
  });

  it('checks records against the spec and references between them, as for a file', () => {
    const message = objectProblems({
      name: 'x',
      forms: [{ id: 'frm_1', sessionID: 'ses_x', title: 't', mode: 'url' }],
    });
    expect(message.split('\n')).toEqual([
      'inline scenario: forms[0].sessionID: session "ses_x" is not declared; declare it under sessions:',
      expect.stringMatching(/^inline scenario: forms\[0\]: form frm_1: url is required/),
    ]);
  });

  it('requires a name but not one matching any file', () => {
    expect(objectProblems({ sessions: [] })).toBe('inline scenario: missing field "name"');
    expect(objectProblems('forms-settling')).toBe('inline scenario: scenario must be object');
    expect(loadScenarioObject({ name: 'anything-at-all' }, spec).name).toBe('anything-at-all');
  });

  it('refuses what JSON cannot hold, and owes nothing to the object after loading it', () => {
    const cyclic: Record<string, unknown> = { name: 'x' };
    cyclic.self = cyclic;
    expect(objectProblems(cyclic)).toMatch(/^inline scenario: a scenario must be JSON data: /);
    const fixture = { name: 'kept', plugins: ['agent'] };
    const scenario = loadScenarioObject(fixture, spec);
    fixture.plugins.push('skill');
    expect(scenario.plugins).toEqual(['agent']);
  });

  it('reads a fixture once per process, as the same definition', () => {
    const fixture = () => ({ name: 'cached', sessions: [{ id: 'ses_a', generate: { count: 20 } }] });
    expect(loadScenarioObject(fixture(), spec)).toBe(loadScenarioObject(fixture(), spec));
  });
});

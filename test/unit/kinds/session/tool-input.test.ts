/**
 * A scripted tool call held to the real tool's input schema (spec/tools.json): what the real runtime would
 * refuse is a scenario problem, named by the field, with the field probably meant; a tool that is not one of
 * the real ones, or one the scenario declares itself, is not checked.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { realTools } from '../../../../src/kinds/session/real-tools.js';
import { nearField, toolInputProblems } from '../../../../src/kinds/session/tool-input.js';
import { ScenarioError } from '../../../../src/scenarios/definition.js';
import { loadScenarioObject, parseScenario } from '../../../../src/scenarios/load-scenario.js';
import { loadSpec, type SpecIndex } from '../../../../src/openapi/openapi.js';

const SES = 'ses_dfc5ae513ffePKUBK7HkVp5zCB';

const schema = (tool: string) => {
  const found = realTools().get(tool);
  if (!found) throw new Error(`spec/tools.json has no ${tool}`);
  return found;
};
const messages = (tool: string, input: unknown) => toolInputProblems(tool, input, schema(tool)).map((p) => p.message);

let spec: SpecIndex;
beforeAll(async () => {
  spec = await loadSpec();
});

describe('the real tools', () => {
  it('are those the real server offers its model, in its terms', () => {
    expect([...realTools().keys()]).toEqual(expect.arrayContaining(['bash', 'edit', 'glob', 'grep', 'read', 'write']));
    expect(schema('read')).toMatchObject({ required: ['path'], additionalProperties: false });
    expect(Object.keys(schema('edit').properties as object)).toEqual(['path', 'oldString', 'newString', 'replaceAll']);
    expect(Object.keys(schema('bash').properties as object)).not.toContain('description');
  });

  it('keep no prose, only a property that is called description', () => {
    const text = JSON.stringify([...realTools().values()]);
    expect(text.match(/"description":\{/g)?.length).toBe(text.match(/"description":/g)?.length);
  });
});

describe('toolInputProblems', () => {
  it('takes what the real tool takes', () => {
    expect(messages('read', { path: 'src/a.ts', offset: 3, limit: 50 })).toEqual([]);
    expect(messages('edit', { path: 'a.ts', oldString: 'a', newString: 'b', replaceAll: true })).toEqual([]);
    expect(messages('bash', { command: 'npm test', timeout: 5000 })).toEqual([]);
    expect(
      messages('question', {
        questions: [{ question: 'Go on?', header: 'Go on', options: [{ label: 'Yes', description: 'go' }] }],
      }),
    ).toEqual([]);
    expect(messages('webfetch', { url: 'https://example.com', timeout: 30 })).toEqual([]);
  });

  it('says which field was meant where an old name is used: filePath for path', () => {
    const problems = toolInputProblems('read', { filePath: 'src/a.ts' }, schema('read'));
    expect(problems).toEqual([
      {
        path: ['filePath'],
        message: 'read input: unknown field "filePath": the real read tool refuses it. Did you mean "path"?',
        atKey: true,
      },
    ]);
  });

  it('names the fields the tool takes where none is near', () => {
    expect(messages('bash', { command: 'npm test', description: 'Run the tests' })).toEqual([
      'bash input: unknown field "description": the real bash tool refuses it. Fields it takes: command, workdir, timeout.',
    ]);
  });

  it('names a missing field, and a value of the wrong type or out of bounds', () => {
    expect(messages('read', {})).toEqual(['read input: missing field "path", which the real read tool requires']);
    expect(messages('read', { path: 'a.ts', offset: 'ten' })).toEqual([
      'read input: offset must be an integer, got "ten"',
    ]);
    expect(messages('read', { path: 'a.ts', limit: 0 })).toEqual(['read input: limit must be greater than 0, got 0']);
    expect(messages('read', { path: 'a.ts', limit: 5000 })).toEqual([
      'read input: limit must be at most 2000, got 5000',
    ]);
    expect(messages('edit', { path: 'a.ts', oldString: 'a', newString: 'b', replaceAll: 'yes' })).toEqual([
      'edit input: replaceAll must be a boolean, got "yes"',
    ]);
    expect(messages('webfetch', { url: 'https://example.com', format: 'markdwon' })).toEqual([
      'webfetch input: format must be one of "text", "markdown", "html", got "markdwon". Did you mean "markdown"?',
    ]);
    expect(messages('bash', 'ls')).toEqual(['bash input: it must be an object, got "ls"']);
  });

  it('follows nested fields through the schema', () => {
    expect(
      messages('question', { questions: [{ question: 'Go on?', options: [{ label: 'Yes', desc: 'go' }] }] }),
    ).toEqual([
      'question input: missing field "header" in questions[0], which the real question tool requires',
      'question input: unknown field "desc" in questions[0].options[0]: the real question tool refuses it. Did you mean "description"?',
    ]);
  });

  it('does not suggest a field the input already has', () => {
    expect(messages('read', { path: 'a.ts', filePath: 'b.ts' })).toEqual([
      'read input: unknown field "filePath": the real read tool refuses it. Fields it takes: path, offset, limit.',
    ]);
  });

  it('lets through what a schema leaves open', () => {
    const open = { type: 'object', properties: { a: { type: 'string' } } };
    expect(toolInputProblems('custom', { a: 'x', b: 1 }, open)).toEqual([]);
  });
});

describe('nearField', () => {
  it('finds a near spelling, or the field a longer name ends or starts with', () => {
    expect(nearField('comand', ['command', 'workdir'])).toBe('command');
    expect(nearField('filePath', ['path', 'offset'])).toBe('path');
    expect(nearField('timeoutMs', ['command', 'timeout'])).toBe('timeout');
    expect(nearField('desc', ['label', 'description'])).toBe('description');
    expect(nearField('banana', ['path', 'offset'])).toBeUndefined();
  });
});

describe('a scenario tool call', () => {
  const problems = (source: Record<string, unknown>) => {
    try {
      loadScenarioObject({ name: 'bad', sessions: [{ id: SES }], ...source }, spec, 'test');
    } catch (error) {
      if (error instanceof ScenarioError) return error.problems.map((p) => `${p.path}: ${p.message}`);
      throw error;
    }
    return [];
  };

  it("in the real tools' terms loads", () => {
    expect(
      problems({
        turns: [
          {
            session: SES,
            steps: [
              { tool: 'read', input: { path: 'src/a.ts' } },
              { tool: 'edit', input: { path: 'src/a.ts', oldString: 'a', newString: 'b' } },
              { tool: 'bash', input: { command: 'npm test' } },
            ],
          },
        ],
      }),
    ).toEqual([]);
  });

  it('that the real tool would refuse is a problem at the field', () => {
    expect(
      problems({
        turns: [
          {
            session: SES,
            steps: [
              { tool: 'edit', input: { filePath: 'a.ts', oldString: 'a', newString: 'b' } },
              { tool: 'bash', input: { command: 'npm test', description: 'Run the tests' } },
              { tool: 'read' },
            ],
          },
        ],
      }),
    ).toEqual([
      'turns[0].steps[0].input.filePath: edit input: unknown field "filePath": the real edit tool refuses it. Did you mean "path"?',
      'turns[0].steps[1].input.description: bash input: unknown field "description": the real bash tool refuses it. Fields it takes: command, workdir, timeout.',
      'turns[0].steps[2].input: read input: missing field "path", which the real read tool requires',
    ]);
  });

  it('is shown at the key in a file', () => {
    const text = `name: demo\nsessions: [{ id: ${SES} }]\nturns:\n  - session: ${SES}\n    steps:\n      - tool: read\n        input: { filePath: a.ts }\n`;
    try {
      parseScenario(text, '<test>', spec);
      expect.unreachable('the scenario loaded');
    } catch (error) {
      expect((error as ScenarioError).problems.map((p) => `${p.line}:${p.col} ${p.message}`)).toEqual([
        '7:18 read input: unknown field "filePath": the real read tool refuses it. Did you mean "path"?',
      ]);
    }
  });

  it('of a tool that is not a real one, or one the scenario declares, is not checked', () => {
    expect(
      problems({
        tools: [{ id: 'read', parameters: { type: 'object', properties: { filePath: { type: 'string' } } } }],
        turns: [
          {
            session: SES,
            steps: [
              { tool: 'read', input: { filePath: 'a.ts' } },
              { tool: 'deploy', input: { anything: true } },
            ],
          },
        ],
      }),
    ).toEqual([]);
  });
});

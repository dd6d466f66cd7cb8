/**
 * The question kind: what a session's `questions: [que_…]` becomes (generated content, the same every time),
 * a written-out `questions:` section held to the spec, what asking makes happen, and the partition's bound.
 * The permission kind's section is read here too, as both read sessions the session kind declared.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { SimResourceLimitError } from '../../../../src/errors/errors.js';
import { MAX_QUESTIONS } from '../../../../src/kinds/question/limits.js';
import { askQuestion } from '../../../../src/kinds/question/ask.js';
import { generatedQuestions } from '../../../../src/kinds/question/generate.js';
import type { QuestionState } from '../../../../src/kinds/question/types.js';
import { loadSpec, type SpecIndex } from '../../../../src/openapi/openapi.js';
import { ScenarioError } from '../../../../src/scenarios/definition.js';
import { loadScenarioObject } from '../../../../src/scenarios/load-scenario.js';
import { createIds, createRandom } from '../../../../src/state/random.js';
import type { World } from '../../../../src/state/world.js';
import { spec as specDocument } from '../../../support/spec-validator.js';
import { Ajv2020 } from 'ajv/dist/2020.js';

const SES = 'ses_dfc5ae513ffePKUBK7HkVp5zCB';
const OTHER = 'ses_dfc5ad9f0ffeQm3LpX8vT2bNcR';
const NOW = Date.parse('2026-11-25T10:00:00Z');
const QUESTION = {
  header: 'Shape',
  question: 'Which shape?',
  options: [
    { label: 'Circle', description: 'Round' },
    { label: 'Square', description: 'Square' },
  ],
};

let spec: SpecIndex;
beforeAll(async () => {
  spec = await loadSpec();
});

function problems(scenario: Record<string, unknown>): string[] {
  try {
    loadScenarioObject(scenario, spec);
  } catch (error) {
    if (error instanceof ScenarioError) return error.problems.map((p) => `${p.path ?? ''}: ${p.message}`);
    throw error;
  }
  return [];
}

describe('questions a scenario names', () => {
  it("gives a session's question ids believable content, the same for the same id, valid against the spec", () => {
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema(specDocument, 'doc');
    const validate = ajv.compile({ $ref: 'doc#/components/schemas/QuestionV2Request' });
    const ids = Array.from({ length: 40 }, (_, i) => `que_${String(i).padStart(12, '0')}AbCdEfGhIjKlMn`);
    const headers = new Set<string>();
    for (const id of ids) {
      const questions = generatedQuestions(id);
      expect(generatedQuestions(id)).toEqual(questions);
      expect(validate({ id, sessionID: SES, questions }), JSON.stringify(validate.errors)).toBe(true);
      for (const q of questions) {
        expect(q.header.length).toBeLessThanOrEqual(30);
        headers.add(q.header);
      }
    }
    // Not one question for every id.
    expect(headers.size).toBeGreaterThan(3);
  });

  it('reads sessions[].questions and the questions section into one list, generated ones first', () => {
    const scenario = loadScenarioObject(
      {
        name: 'q',
        sessions: [{ id: SES, questions: ['que_1'] }, { id: OTHER }],
        questions: [{ id: 'que_2', sessionID: OTHER, questions: [QUESTION], appears: '5s' }],
      },
      spec,
    );
    expect(scenario.questions.map((q) => [q.record.id, q.record.sessionID, q.appears - scenario.start])).toEqual([
      ['que_1', SES, 0],
      ['que_2', OTHER, 5000],
    ]);
    expect(scenario.questions[0]?.record.questions).toEqual(generatedQuestions('que_1'));
    expect(scenario.questions[1]?.record.questions).toEqual([QUESTION]);
  });

  it('reports a question of an undeclared session, one its session list gives another session, an id twice', () => {
    expect(
      problems({
        name: 'q',
        sessions: [{ id: SES, questions: ['que_1'] }],
        questions: [
          { id: 'que_1', sessionID: OTHER, questions: [QUESTION] },
          { id: 'que_1', sessionID: SES, questions: [QUESTION] },
        ],
      }),
    ).toEqual([
      expect.stringMatching(/^questions\[0\]\.sessionID: session "ses_dfc5ad9f0ffeQm3LpX8vT2bNcR" is not declared/),
      `questions[0].sessionID: question que_1 is pending in session ${SES} (its questions), not here`,
      'questions[1].id: question que_1 is declared twice',
    ]);
  });

  it('reports permission requests of undeclared sessions and ids declared twice', () => {
    expect(
      problems({
        name: 'p',
        sessions: [{ id: SES }],
        permissions: {
          requests: [
            { id: 'per_1', sessionID: OTHER, action: 'bash', resources: ['ls'] },
            { id: 'per_1', sessionID: SES, action: 'bash', resources: ['ls'] },
          ],
        },
      }),
    ).toEqual([
      expect.stringMatching(/^permissions\.requests\[0\]\.sessionID: session .* is not declared/),
      'permissions.requests[1].id: permission request per_1 is declared twice',
    ]);
  });

  it('holds both sections to their format: an option needs its description, a saved permission its fields', () => {
    expect(
      problems({
        name: 'q',
        sessions: [{ id: SES }],
        questions: [
          { id: 'que_3', sessionID: SES, questions: [{ header: 'h', question: 'q', options: [{ label: 'x' }] }] },
        ],
        permissions: { saved: [{ action: 'edit', resource: 'src/*', colour: 'red' }] },
      }),
    ).toEqual([
      'permissions.saved[0].colour: unknown field "colour". Fields here: id, projectID, action, resource.',
      'questions[0].questions[0].options[0]: missing field "description"',
    ]);
  });

  it('gives saved permissions without an id one of their own, the same every load', () => {
    const load = () =>
      loadScenarioObject(
        {
          name: 'p',
          permissions: {
            saved: [
              { action: 'edit', resource: 'src/*' },
              { action: 'bash', resource: 'npm *' },
            ],
          },
        },
        spec,
      ).permissions.saved;
    const saved = load();
    expect(saved.map((s) => s.id)).toEqual([expect.stringMatching(/^psv_/), expect.stringMatching(/^psv_/)]);
    expect(new Set(saved.map((s) => s.id)).size).toBe(2);
    expect(load()).toEqual(saved);
  });
});

describe('askQuestion', () => {
  const world = (open: number) =>
    ({
      ids: createIds(createRandom('test')),
      questions: new Map<string, QuestionState>(
        Array.from({ length: open }, (_, i) => [
          `que_${i}`,
          { record: { id: `que_${i}`, sessionID: SES, questions: [QUESTION] }, status: 'pending' },
        ]),
      ),
    }) as unknown as World;

  it('asks with the question request as the client types it', () => {
    const asked = askQuestion(world(0), NOW, {
      sessionID: SES,
      questions: [QUESTION],
      tool: { messageID: 'msg_1', callID: 'c1' },
    });
    expect(asked.id).toMatch(/^que_[0-9a-f]{12}[0-9A-Za-z]{14}$/);
    expect(asked.events).toEqual([
      {
        type: 'question.v2.asked',
        data: { id: asked.id, sessionID: SES, questions: [QUESTION], tool: { messageID: 'msg_1', callID: 'c1' } },
      },
    ]);
    expect(
      askQuestion(world(0), NOW, { sessionID: SES, questions: [QUESTION], id: 'que_given' }).events[0]?.data,
    ).toEqual({
      id: 'que_given',
      sessionID: SES,
      questions: [QUESTION],
    });
  });

  it('refuses beyond the bound of open questions', () => {
    expect(() => askQuestion(world(MAX_QUESTIONS), NOW, { sessionID: SES, questions: [QUESTION] })).toThrow(
      SimResourceLimitError,
    );
  });
});

/**
 * The turn generated for a prompt no script covers answers that prompt: its reply says what was done about
 * the prompt's subject, its edit lands in the file the prompt points at, a question is answered without an
 * edit; and the same seed and prompt always make the same turn.
 */
import { describe, expect, it } from 'vitest';
import { generateTurn } from '../../../../src/kinds/session/generated-turn.js';
import type { TurnStep } from '../../../../src/kinds/session/types.js';
import { createRandom } from '../../../../src/state/random.js';

const FILES = [
  'src/App.tsx',
  'src/main.tsx',
  'src/components/Avatar.tsx',
  'src/components/Header.tsx',
  'src/pages/Settings.tsx',
  'src/api/client.ts',
];
const SEEDS = Array.from({ length: 40 }, (_, i) => `topic:${i}`);

const reply = (steps: TurnStep[]) => {
  const last = steps.at(-1);
  return last?.kind === 'text' ? last.text : '';
};
const edits = (steps: TurnStep[]) =>
  steps.filter((s): s is Extract<TurnStep, { kind: 'tool' }> => s.kind === 'tool' && s.tool === 'edit');

describe('a generated turn', () => {
  it.each([
    ['Add a dark mode toggle', /dark mode toggle/, 'src/pages/Settings.tsx'],
    ['Make the header sticky on mobile', /header sticky on mobile/, 'src/components/Header.tsx'],
    ['Fix the avatar fallback', /avatar fallback/, 'src/components/Avatar.tsx'],
    ['Retry failed requests in the API client', /Retry failed requests in the API client/, 'src/api/client.ts'],
  ])('answers "%s" about its subject, in the file it points at', (prompt, subject, file) => {
    for (const seed of SEEDS) {
      const steps = generateTurn(createRandom(seed), prompt, FILES);
      expect(reply(steps), seed).toMatch(subject);
      expect(reply(steps), seed).toContain(file);
      expect(edits(steps).map((e) => e.input.path)).toEqual([file]);
    }
  });

  it('never answers a dark mode toggle with a fix in another component', () => {
    for (const seed of SEEDS) {
      const text = reply(generateTurn(createRandom(seed), 'Add a dark mode toggle', FILES));
      expect(text).not.toMatch(/Avatar|fix/);
      expect(text).toMatch(/^Added a dark mode toggle/);
    }
  });

  it('answers a question by reading, with no edit and no test run', () => {
    for (const seed of SEEDS) {
      const steps = generateTurn(createRandom(seed), 'Why does the login test fail on CI?', FILES);
      expect(edits(steps)).toEqual([]);
      expect(steps.some((s) => s.kind === 'tool' && s.tool === 'bash')).toBe(false);
      expect(reply(steps)).toContain('"Why does the login test fail on CI?"');
      // A question about a failure gets a cause.
      expect(reply(steps)).toMatch(/cause|gives up/);
    }
  });

  it('is the same turn for the same seed and prompt, and another for another prompt', () => {
    const turn = (seed: string, prompt: string) => generateTurn(createRandom(seed), prompt, FILES);
    expect(turn('s', 'Add a dark mode toggle')).toEqual(turn('s', 'Add a dark mode toggle'));
    expect(reply(turn('s', 'Add a dark mode toggle'))).not.toEqual(reply(turn('s', 'Rename the settings route')));
  });
});

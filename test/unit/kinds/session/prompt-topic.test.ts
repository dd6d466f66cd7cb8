/**
 * What a prompt asks for, as a generated turn reads it: the kind of work from its verb (or a question), what
 * it is about in its own words, and the project files it points at.
 */
import { describe, expect, it } from 'vitest';
import { readPrompt } from '../../../../src/kinds/session/prompt-topic.js';

const FILES = [
  'src/App.tsx',
  'src/main.tsx',
  'src/components/Header.tsx',
  'src/pages/Settings.tsx',
  'src/api/client.ts',
  'src/components/Avatar.tsx',
];

describe('readPrompt', () => {
  it.each([
    ['Add a dark mode toggle', 'add', 'Added', 'a dark mode toggle', 'darkModeToggle'],
    ['Please add tests for the header.', 'add', 'Added', 'tests for the header', 'testsHeader'],
    ['Make the header sticky on mobile', 'change', 'Made', 'the header sticky on mobile', 'headerStickyMobile'],
    ['Bump vite and fix the build', 'change', 'Bumped', 'vite and fixed the build', 'viteFixedBuild'],
    ['Can you remove the legacy avatar?', 'remove', 'Removed', 'the legacy avatar', 'legacyAvatar'],
    ['fix the flaky retry', 'fix', 'Fixed', 'the flaky retry', 'flakyRetry'],
    ['Drop the old cache', 'remove', 'Dropped', 'the old cache', 'oldCache'],
  ])('%s: %s, done as "%s %s"', (prompt, intent, done, subject, name) => {
    expect(readPrompt(prompt)).toMatchObject({ intent, done, subject, name });
  });

  it('reads a question as one to answer, with no verb to report', () => {
    for (const prompt of ['Why does the login test fail on CI?', 'Explain what useSession returns', 'And then?']) {
      const topic = readPrompt(prompt);
      expect(topic.intent, prompt).toBe('explain');
      expect(topic.done).toBeUndefined();
      expect(topic.subject).toBe('');
    }
    // A request phrased as a question is still the request.
    expect(readPrompt('Could you add a logout button?').intent).toBe('add');
  });

  it('takes anything else as work, quoted as it was written', () => {
    expect(readPrompt('Go on')).toMatchObject({ intent: 'other', subject: '', quoted: 'Go on' });
    expect(readPrompt('x'.repeat(200)).quoted).toHaveLength(80);
    expect(readPrompt('').name).toBe('enabled');
  });

  it('points at the files the words and the topic name, and at every file when nothing points anywhere', () => {
    expect(readPrompt('Add a dark mode toggle').likely(FILES)).toEqual(['src/pages/Settings.tsx']);
    expect(readPrompt('Make the header sticky on mobile').likely(FILES)).toEqual(['src/components/Header.tsx']);
    expect(readPrompt('The avatar is blurry, fix it').likely(FILES)).toEqual(['src/components/Avatar.tsx']);
    expect(readPrompt('Retry failed requests in the API client').likely(FILES)).toEqual(['src/api/client.ts']);
    expect(readPrompt('Go on').likely(FILES)).toEqual(FILES);
  });
});

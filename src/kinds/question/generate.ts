/**
 * Believable content for a question the scenario names only by id (`sessions[].questions`): what a coding
 * agent asks while it works on a web project. Picked by the id alone, so the same id always asks the same.
 */
import { createRandom } from '../../state/random.js';
import type { QuestionInfo } from './types.js';

const BANK: readonly QuestionInfo[][] = [
  [
    {
      header: 'Avatar shape',
      question: 'Which shape should the avatar have?',
      options: [
        { label: 'Circle', description: 'Round, like the avatars in the comments' },
        { label: 'Rounded square', description: 'Matches the cards on the profile page' },
      ],
      custom: true,
    },
  ],
  [
    {
      header: 'Unused component',
      question: 'The old component is no longer imported anywhere. Delete it?',
      options: [
        { label: 'Delete it', description: 'Remove the file and its test' },
        { label: 'Keep it', description: 'Leave it for a later clean-up' },
      ],
    },
  ],
  [
    {
      header: 'Test runner',
      question: 'Which tests should I run before I finish?',
      options: [
        { label: 'Unit tests', description: 'npm test (about 20 s)' },
        { label: 'End-to-end tests', description: 'npm run e2e (about 4 min, needs the dev server)' },
        { label: 'Type check', description: 'npx tsc --noEmit' },
      ],
      multiple: true,
      custom: true,
    },
  ],
  [
    {
      header: 'Migration',
      question: 'The orders table has 2.3 M rows. How should the migration run?',
      options: [
        { label: 'In one transaction', description: 'Simplest; locks the table for a few minutes' },
        { label: 'In batches', description: 'Backfill 10,000 rows at a time, no long lock' },
      ],
      custom: true,
    },
    {
      header: 'Rollback',
      question: 'Should I write a down migration too?',
      options: [
        { label: 'Yes', description: 'Add the reverse migration' },
        { label: 'No', description: 'Forward only, as the other migrations' },
      ],
    },
  ],
  [
    {
      header: 'Failing test',
      question: 'The login test fails only on CI because of the time zone. How should I fix it?',
      options: [
        { label: 'Pin the time zone', description: 'Set TZ=UTC in the test setup' },
        { label: 'Mock the clock', description: 'Use fake timers in this test only' },
        { label: 'Skip it for now', description: 'Mark it skipped and open an issue' },
      ],
      custom: true,
    },
  ],
  [
    {
      header: 'Package manager',
      question: 'The lockfile is from npm but a pnpm-lock.yaml exists as well. Which one is in use?',
      options: [
        { label: 'npm', description: 'Delete pnpm-lock.yaml' },
        { label: 'pnpm', description: 'Delete package-lock.json' },
      ],
    },
  ],
];

export function generatedQuestions(id: string): QuestionInfo[] {
  const picked = createRandom(`question:${id}`).pick(BANK);
  return picked.map((q) => ({ ...q, options: q.options.map((o) => ({ ...o })) }));
}

/**
 * The turn a session plays when the scenario scripts none: believable work on the scenario's own files (read
 * or search, edit, sometimes a lint failure, the tests, a short answer), every choice drawn from a seeded
 * random so the same scenario, session and turn number always play the same turn.
 */
import type { Random } from '../../state/random.js';
import type { World } from '../../state/world.js';
import type { TurnStep } from './types.js';

type Json = Record<string, unknown>;

const FALLBACK_FILES = [
  'src/App.tsx',
  'src/main.tsx',
  'src/components/Header.tsx',
  'src/pages/Settings.tsx',
  'src/api/client.ts',
];

/** Source files of the scenario's tree (what a generated turn reads and edits), else a small React app's. */
export function projectFiles(world: World): string[] {
  const files = Object.values(world.scenario.files).flatMap((entries) =>
    entries.filter((e) => e.type === 'file' && /^src\/.+\.[jt]sx?$/.test(e.path)).map((e) => e.path),
  );
  return files.length ? files.sort() : FALLBACK_FILES;
}

const OPENERS = [
  (p: string) => `The request: "${p}". Before changing anything I want to see how the code handles this today.`,
  (p: string) => `"${p}" touches code I have not read in this session, so I will look first and keep the change small.`,
  (p: string) =>
    `New instruction: "${p}". Check the files involved, make the smallest change that does it, then run the tests.`,
];
const THOUGHTS = [
  'A search for the component name shows every place that needs the change.',
  'The tests are the quickest way to see what the current behaviour is.',
  'If the change stays inside one component the rest of the app should not notice.',
  'The props are typed, so the compiler will point at every caller I miss.',
];
const ANSWERS = [
  (f: string) => `Done. The change is in \`${f}\`, and \`npm test\` passes (42 tests).`,
  (f: string) =>
    `I updated \`${f}\` as asked and left everything else alone. The test suite still passes; tell me if you want the same treatment elsewhere.`,
  (f: string) => `That is handled now: the logic lives in \`${f}\`, with a test next to it. Lint and tests are green.`,
  (f: string) =>
    `I looked at \`${f}\` first; the fix was a two-line change there. I ran the tests afterwards and all of them pass.`,
];

const TEST_OUTPUT =
  '\n> acme-web@0.4.0 test\n> vitest run\n\n Test Files  8 passed (8)\n      Tests  42 passed (42)\n   Duration  3.21s\n';

const componentOf = (file: string) => file.replace(/^.*\//, '').replace(/\.[^.]+$/, '');
const between = (random: Random, low: number, high: number) => low + random.int(high - low + 1);

/**
 * A believable turn for a prompt: sometimes a retried provider call first, usually some reasoning, a look at a
 * file of the project, an edit, the tests (now and then a lint run that fails first), then the answer.
 * Every duration is explicit, so `busyAfterSynthetic` can stretch it evenly.
 */
export function generateTurn(random: Random, prompt: string, files: readonly string[]): TurnStep[] {
  const steps: TurnStep[] = [];
  const file = random.pick(files);
  const quoted = prompt.length > 80 ? `${prompt.slice(0, 77)}...` : prompt;
  if (random.next() < 0.12) {
    const overloaded = random.next() < 0.5;
    steps.push({
      kind: 'retry',
      message: overloaded ? 'Overloaded' : 'Rate limit reached, retry in 2s',
      statusCode: overloaded ? 529 : 429,
      after: between(random, 300, 900),
      wait: 2000,
    });
  }
  if (random.next() < 0.75) {
    steps.push({
      kind: 'reasoning',
      text: `${random.pick(OPENERS)(quoted)} ${random.pick(THOUGHTS)}`,
      after: between(random, 500, 1200),
      chunk: between(random, 20, 30),
      every: between(random, 30, 50),
    });
  }
  const tool = (name: string, input: Json, outcome: { result?: string; error?: string }, takes: number): TurnStep => ({
    kind: 'tool',
    tool: name,
    input,
    ...outcome,
    takes,
    after: between(random, 150, 400),
    chunk: 32,
    every: between(random, 15, 25),
  });
  const component = componentOf(file);
  if (random.next() < 0.5) {
    steps.push(
      tool(
        'read',
        { filePath: file },
        {
          result: `import { useState } from 'react'\n\nexport function ${component}() {\n  const [open, setOpen] = useState(false)\n  …\n}\n`,
        },
        between(random, 150, 500),
      ),
    );
  } else {
    steps.push(
      tool(
        'grep',
        { pattern: component, path: 'src' },
        {
          result: `Found 2 matches\n${file}:\n  Line 3: export function ${component}() {\nsrc/App.tsx:\n  Line 9: <${component} />\n`,
        },
        between(random, 200, 700),
      ),
    );
  }
  steps.push(
    tool(
      'edit',
      {
        filePath: file,
        oldString: `export function ${component}() {`,
        newString: `export function ${component}({ compact = false }: { compact?: boolean }) {`,
      },
      { result: 'Edit applied successfully.' },
      between(random, 200, 600),
    ),
  );
  if (random.next() < 0.15) {
    steps.push(
      tool(
        'bash',
        { command: 'npm run lint', description: 'Lint the project' },
        { error: `Command failed with exit code 1: ${file}: 'compact' is assigned a value but never used` },
        between(random, 1500, 3000),
      ),
    );
  }
  steps.push(
    tool(
      'bash',
      { command: 'npm test', description: 'Run the unit tests' },
      { result: TEST_OUTPUT },
      between(random, 2500, 6000),
    ),
  );
  steps.push({
    kind: 'text',
    text: random.pick(ANSWERS)(file),
    after: between(random, 600, 1400),
    chunk: between(random, 12, 20),
    every: between(random, 40, 70),
  });
  return steps;
}

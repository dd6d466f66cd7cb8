/**
 * The turn a session plays when the scenario scripts none: believable work on the scenario's own files for
 * what the prompt asks (read or search, edit, sometimes a lint failure, the tests, a short answer saying what
 * was done about it; a question is read up and answered with no edit). What the prompt asks is read from its
 * words (./prompt-topic.ts); every other choice is drawn from a seeded random, so the same scenario, session,
 * turn number and prompt always play the same turn.
 */
import type { Random } from '../../state/random.js';
import type { World } from '../../state/world.js';
import { readPrompt, type Intent, type PromptTopic } from './prompt-topic.js';
import type { TurnStep } from './types.js';

type JsonObject = Record<string, unknown>;

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
/** A thought after the opener, by what the prompt asks for. */
const THOUGHTS: Record<Intent, readonly string[]> = {
  add: [
    'A search for where similar options live shows the place to add it.',
    'If it stays inside one component the rest of the app should not notice.',
    'The props are typed, so the compiler will point at every caller I miss.',
  ],
  fix: [
    'The tests are the quickest way to see what fails today.',
    'The failure points at one component; read it before changing anything.',
  ],
  change: [
    'A search for the name shows every place that needs the change.',
    'The props are typed, so the compiler will point at every caller I miss.',
  ],
  remove: [
    'A search shows every caller, so nothing is left pointing at what goes.',
    'Removing it should not change anything else; the tests will say.',
  ],
  test: [
    'The component has no test of its own yet; the others in the folder show the style.',
    'The tests are the quickest way to see what the current behaviour is.',
  ],
  explain: [
    'Reading the code is enough here; nothing needs to change.',
    'A search shows where it is defined and who uses it.',
  ],
  other: [
    'A search for the component name shows every place that needs the change.',
    'If the change stays inside one component the rest of the app should not notice.',
  ],
};
type Answer = (topic: PromptTopic, file: string, component: string) => string;
/** The reply, saying what was done about what the prompt asked, in its own words. */
const ANSWERS: Record<'done' | 'explain' | 'failing' | 'other', readonly Answer[]> = {
  done: [
    (t, f) => `${t.done} ${t.subject} in \`${f}\`. \`npm test\` passes (42 tests).`,
    (t, f) =>
      `${t.done} ${t.subject}: the change is in \`${f}\`, and I left everything else alone. The test suite still passes; tell me if you want the same elsewhere.`,
    (t, f) => `${t.done} ${t.subject}. It lives in \`${f}\`, with a test next to it. Lint and tests are green.`,
  ],
  explain: [
    (t, f, c) =>
      `About "${t.quoted}": it is in \`${f}\`. \`${c}\` takes its settings from props, and its callers pass them down from \`src/App.tsx\`. I changed nothing.`,
    (t, f, c) =>
      `To answer "${t.quoted}": look at \`${c}\` in \`${f}\`. It reads the value once when it mounts, so a change shows only after a reload. Nothing needed editing.`,
  ],
  /** A question about something failing: a cause, and what would fix it. */
  failing: [
    (t, f, c) =>
      `About "${t.quoted}": the cause is in \`${f}\`. \`${c}\` formats dates with the machine's timezone, and CI runs in UTC, so the expected string differs there. Pinning the timezone in the test fixes it; I changed nothing yet.`,
    (t, f, c) =>
      `To answer "${t.quoted}": \`${c}\` in \`${f}\` waits for a request without a timeout, and on a slow runner the test gives up first. Mocking the request in the test would make it deterministic; tell me if I should.`,
  ],
  other: [
    (t, f) => `Done: "${t.quoted}". The change is in \`${f}\`, and \`npm test\` passes (42 tests).`,
    (t, f) =>
      `I took "${t.quoted}" as a change to \`${f}\` and left everything else alone. The test suite still passes.`,
  ],
};

const TEST_OUTPUT =
  '\n> acme-web@0.4.0 test\n> vitest run\n\n Test Files  8 passed (8)\n      Tests  42 passed (42)\n   Duration  3.21s\n';

const componentOf = (file: string) => file.replace(/^.*\//, '').replace(/\.[^.]+$/, '');
const between = (random: Random, low: number, high: number) => low + random.int(high - low + 1);

/**
 * A believable turn for a prompt: sometimes a retried provider call first, usually some reasoning, a look at
 * the file of the project the prompt points at, an edit, the tests (now and then a lint run that fails
 * first), then an answer about what the prompt asked; a question gets the look and the answer only.
 * Every duration is explicit, so `busyAfterSynthetic` can stretch it evenly.
 */
export function generateTurn(random: Random, prompt: string, files: readonly string[]): TurnStep[] {
  const steps: TurnStep[] = [];
  const topic = readPrompt(prompt);
  const file = random.pick(topic.likely(files));
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
      text: `${random.pick(OPENERS)(topic.quoted)} ${random.pick(THOUGHTS[topic.intent])}`,
      after: between(random, 500, 1200),
      chunk: between(random, 20, 30),
      every: between(random, 30, 50),
    });
  }
  const tool = (
    name: string,
    input: JsonObject,
    outcome: { result?: string; error?: string; structured?: JsonObject },
    takes: number,
  ): TurnStep => ({
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
        { path: file },
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
  const reply = (answers: readonly Answer[]): TurnStep => ({
    kind: 'text',
    text: random.pick(answers)(topic, file, component),
    after: between(random, 600, 1400),
    chunk: between(random, 12, 20),
    every: between(random, 40, 70),
  });
  if (topic.intent === 'explain') {
    steps.push(reply(/\b(fail|error|broke|crash|flak)/i.test(prompt) ? ANSWERS.failing : ANSWERS.explain));
    return steps;
  }
  const name = topic.name;
  // What the edit does follows the work: a new option, or one taken out.
  const [oldString, newString] =
    topic.intent === 'remove'
      ? [`export function ${component}({ ${name} }: { ${name}?: boolean }) {`, `export function ${component}() {`]
      : [
          `export function ${component}() {`,
          `export function ${component}({ ${name} = false }: { ${name}?: boolean }) {`,
        ];
  steps.push(
    tool(
      'edit',
      { path: file, oldString, newString },
      { result: 'Edit applied successfully.' },
      between(random, 200, 600),
    ),
  );
  if (random.next() < 0.15) {
    const problem =
      topic.intent === 'remove' ? `'${name}' is not defined` : `'${name}' is assigned a value but never used`;
    steps.push(
      tool(
        'bash',
        { command: 'npm run lint' },
        // The real bash tool answers a failing command with what it printed and its exit status.
        {
          result: `\n${file}\n  3:17  error  ${problem}\n\n✖ 1 problem (1 error, 0 warnings)\n`,
          structured: { exit: 1 },
        },
        between(random, 1500, 3000),
      ),
    );
  }
  const tests = tool('bash', { command: 'npm test' }, { result: TEST_OUTPUT }, between(random, 2500, 6000));
  steps.push(tests);
  steps.push(reply(topic.done && topic.subject ? ANSWERS.done : ANSWERS.other));
  // Now and then the run of the tests waits for a permission mid-turn, as a cautious user's agent does. Drawn
  // last, so that the rest of a seed's turn stays what it was.
  if (random.next() < 0.1 && tests.kind === 'tool') steps[steps.indexOf(tests)] = { ...tests, ask: true };
  return steps;
}

/**
 * The simulator's turns held to the real server's: each case's script plays on both (the real server's model
 * scripted by it), and every difference in events, their order and shapes, the messages and the reads after
 * the turn fails the case, naming the first event where the two part. `FIDELITY_DUMP=dir` keeps both traces.
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateTurn } from '../../src/kinds/session/generated-turn.js';
import type { TurnStep } from '../../src/kinds/session/types.js';
import { createRandom } from '../../src/state/random.js';
import { noRealRuntime, skippedWhen } from '../support/environment.js';
import {
  firstDifference,
  playOnRealServer,
  playOnSimulator,
  workspaceFor,
  type Driver,
  type FidelityCase,
  type StreamEvent,
  type Trace,
} from '../support/turn-fidelity.js';

type JsonObject = Record<string, unknown>;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const has = (type: string) => (events: StreamEvent[]) => events.some((e) => e.type === type);
const stops = (n: number) => (events: StreamEvent[]) =>
  events.filter((e) => e.type === 'session.next.step.ended' && e.data.finish === 'stop').length >= n;

/** Answers each request of a kind as it is asked, until the turn is over. */
function answering(
  kind: 'permission' | 'question',
  answer: (driver: JsonObject) => Promise<unknown>,
): FidelityCase['drive'] {
  return async ({ client, sessionID, until, events }) => {
    const done = new Set<string>();
    const type = `${kind}.v2.asked`;
    const pending = (list: StreamEvent[]) => list.filter((e) => e.type === type && !done.has(e.data.id as string));
    for (;;) {
      await until((list) => pending(list).length > 0 || over(list), `${type} or the end of the turn`);
      const asked = pending(events())[0];
      if (!asked) return;
      done.add(asked.data.id as string);
      await answer({ client, sessionID, requestID: asked.data.id });
      await sleep(300);
      if (over(events())) return;
    }
  };
}
const over = (list: StreamEvent[]) =>
  list.some(
    (e) =>
      (e.type === 'session.next.step.ended' && e.data.finish === 'stop') ||
      e.type === 'session.next.step.failed' ||
      (e.type === 'session.next.tool.failed' && (e.data.error as JsonObject).message === 'Tool execution interrupted'),
  );
const permission = (reply: 'once' | 'always' | 'reject') =>
  answering('permission', ({ client, sessionID, requestID }) =>
    (client as Driver['client']).v2.session.permission.reply({
      sessionID: sessionID as string,
      requestID: requestID as string,
      reply,
    }),
  );
const question = (answers: string[][] | 'reject') =>
  answering('question', ({ client, sessionID, requestID }) => {
    const c = client as Driver['client'];
    const ids = { sessionID: sessionID as string, requestID: requestID as string };
    return answers === 'reject'
      ? c.v2.session.question.reject(ids)
      : c.v2.session.question.reply({ ...ids, questionV2Reply: { answers } });
  });
const askOne = (q: string) => ({
  questions: [
    {
      question: q,
      header: q.slice(0, 12),
      options: [
        { label: 'Yes', description: 'go on' },
        { label: 'No', description: 'stop' },
      ],
    },
  ],
});

/** Text, reasoning, tools, failures, retries, interrupts, queueing, questions, on the default agents. */
const TURNS: FidelityCase[] = [
  { name: 'text only', steps: [{ text: 'Just words.' }] },
  { name: 'reasoning', steps: [{ reasoning: 'Think first.' }, { text: 'Then answer.' }] },
  { name: 'one tool', steps: [{ tool: 'bash', input: { command: 'echo one' }, result: 'one\n' }, { text: 'Ran it.' }] },
  {
    name: 'parallel tools',
    steps: [
      { tool: 'read', input: { path: 'notes.txt' }, result: 'remember the milk' },
      { tool: 'glob', input: { pattern: '*.txt' }, result: 'notes.txt' },
      { text: 'Read both.' },
    ],
  },
  {
    name: 'several steps',
    steps: [
      { text: 'First a look.' },
      { tool: 'bash', input: { command: 'ls' }, result: 'notes.txt\n' },
      { reasoning: 'Now read it.' },
      { tool: 'read', input: { path: 'notes.txt' }, result: 'remember the milk' },
      { text: 'Done.' },
    ],
  },
  {
    name: 'a tool that fails',
    steps: [
      { tool: 'read', input: { path: 'missing.txt' }, error: 'Unable to read missing.txt' },
      { text: 'No file.' },
    ],
  },
  {
    name: 'bash exits non-zero',
    steps: [{ tool: 'bash', input: { command: 'exit 3' }, structured: { exit: 3 } }, { text: 'It failed.' }],
  },
  {
    name: 'grep and write',
    steps: [
      { tool: 'grep', input: { pattern: 'milk' }, result: 'notes.txt:1:remember the milk' },
      { tool: 'write', input: { path: 'out.txt', content: 'hello\n' } },
      { text: 'Wrote it.' },
    ],
  },
  {
    name: 'an edit',
    steps: [
      { tool: 'edit', input: { path: 'edit-me.txt', oldString: 'milk', newString: 'bread' } },
      { text: 'Edited.' },
    ],
  },
  {
    name: 'retried then answered',
    steps: [{ retry: { message: 'Too many requests', statusCode: 429, wait: '100ms' } }, { text: 'Second try.' }],
  },
  {
    name: 'retries fail the turn',
    steps: [
      ...Array.from({ length: 3 }, () => ({ retry: { message: 'Internal error', statusCode: 500, wait: '0s' } })),
      { text: 'Never.' },
    ],
  },
  { name: 'a model error fails the turn', steps: [{ fail: 'The model refused' }] },
  {
    name: 'cut mid-answer',
    steps: [
      { text: 'Partial answer' },
      { retry: { message: 'reset', cut: true, wait: '0s' }, after: '10s' },
      { text: 'After.' },
    ],
  },
  {
    name: 'interrupted while writing',
    steps: [{ text: 'A slow answer that keeps going for a long while', chunk: 4, every: '10s' }],
    drive: async ({ client, sessionID, until }) => {
      await until(has('session.next.text.started'), 'text.started');
      await client.v2.session.interrupt({ sessionID });
    },
    settled: has('session.next.step.failed'),
  },
  {
    name: 'interrupted before a token',
    steps: [{ text: 'Never sent.', after: '1h' }],
    drive: async ({ client, sessionID, until }) => {
      await until(has('session.next.prompted'), 'prompted');
      await sleep(300);
      await client.v2.session.interrupt({ sessionID });
      await sleep(500);
    },
    settled: () => true,
  },
  {
    name: 'queued behind',
    steps: [{ text: 'First answer, slowly.', chunk: 4, every: '4s' }],
    later: [{ prompt: 'the queued one', steps: [{ text: 'Queued answer.' }] }],
    drive: async ({ client, sessionID, until }) => {
      await until(has('session.next.text.started'), 'text.started');
      await client.v2.session.prompt({ sessionID, prompt: { text: 'the queued one' }, delivery: 'queue' });
    },
    settled: stops(2),
  },
  {
    name: 'steered into',
    steps: [{ text: 'First answer, slowly too.', chunk: 4, every: '4s' }],
    later: [{ prompt: 'the steering one', steps: [{ text: 'Steered answer.' }] }],
    drive: async ({ client, sessionID, until }) => {
      await until(has('session.next.text.started'), 'text.started');
      await client.v2.session.prompt({ sessionID, prompt: { text: 'the steering one' }, delivery: 'steer' });
    },
    settled: stops(2),
  },
  {
    name: 'asks before editing',
    steps: [
      { tool: 'edit', input: { path: 'ask-me.txt', oldString: 'tea', newString: 'coffee' }, ask: true },
      { text: 'Asked, then edited.' },
    ],
    drive: permission('once'),
  },
  {
    name: 'a question answered',
    steps: [{ tool: 'question', input: askOne('Go on?') }, { text: 'Going on.' }],
    drive: question([['Yes']]),
  },
  {
    name: 'a question rejected',
    steps: [{ tool: 'question', input: askOne('Stop here?') }, { text: 'Not reached.' }],
    drive: question('reject'),
    settled: over,
  },
];

/** build asks before every command: permissions asked mid-turn, answered three ways. */
const ASKING_AGENTS = {
  agents: [
    {
      id: 'build',
      permissions: [
        { action: '*', resource: '*', effect: 'allow' },
        { action: 'bash', resource: '*', effect: 'ask' },
      ],
    },
  ],
};
const ASKING: FidelityCase[] = [
  {
    name: 'permission once',
    steps: [{ tool: 'bash', input: { command: 'echo a' } }, { text: 'Ran a.' }],
    drive: permission('once'),
  },
  {
    name: 'permission always',
    steps: [
      { tool: 'bash', input: { command: 'echo b' } },
      { text: 'Ran b.' },
      { tool: 'bash', input: { command: 'echo b' } },
      { text: 'Ran b again, unasked.' },
    ],
    drive: permission('always'),
  },
  {
    name: 'permission rejected',
    steps: [{ tool: 'bash', input: { command: 'echo d' } }, { text: 'Not run.' }],
    drive: permission('reject'),
    settled: over,
  },
];

/** A step of the engine's own form as the scenario writes it. */
function scenarioStep(step: TurnStep): JsonObject {
  const { kind, ...rest } = step as TurnStep & JsonObject;
  if (kind === 'text' || kind === 'reasoning') {
    const { text, ...options } = rest;
    return { ...options, [kind]: text };
  }
  if (kind === 'tool') return { ...rest };
  if (kind === 'fail') return { fail: rest.message, ...(rest.after === undefined ? {} : { after: rest.after }) };
  const { after, ...retry } = rest;
  return { retry, ...(after === undefined ? {} : { after }) };
}

/** Every turn the shipped scenarios script. */
function shippedTurns(): FidelityCase[] {
  const dir = fileURLToPath(new URL('../../scenarios/', import.meta.url));
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .flatMap((file) => {
      const scenario = parse(readFileSync(`${dir}${file}`, 'utf8')) as { turns?: Array<{ steps: JsonObject[] }> };
      return (scenario.turns ?? []).map((turn, i) => ({
        name: `shipped ${file.replace('.yaml', '')} turn ${i + 1}`,
        steps: turn.steps,
        ...(turn.steps.some((step) => step.ask) ? { drive: permission('once') } : {}),
      }));
    });
}

/** Turns the simulator makes up for prompts no script covers. */
const PROMPTS = [
  'Fix the login bug',
  'Add a dark mode toggle',
  'Why is the header flickering?',
  'Rename the settings page',
  'Write tests for the api client',
  'Remove the unused avatar component',
  'Explain how routing works',
  'Make the build faster',
  'Update the readme',
  'Refactor the main entry',
  'Add error handling to fetch calls',
  'What does App.tsx render?',
];
const FILES = [
  'src/App.tsx',
  'src/main.tsx',
  'src/components/Header.tsx',
  'src/pages/Settings.tsx',
  'src/api/client.ts',
];
const generated = (): FidelityCase[] =>
  PROMPTS.map((prompt, i) => ({
    name: `generated ${i + 1}: ${prompt.toLowerCase()}`,
    steps: generateTurn(createRandom(`fidelity:${i}`), prompt, FILES).map(scenarioStep),
  }));

const GROUPS: Array<{ title: string; cases: FidelityCase[]; extra?: JsonObject }> = [
  { title: 'turns', cases: TURNS },
  { title: 'permissions asked mid-turn', cases: ASKING, extra: ASKING_AGENTS },
  { title: 'the shipped scenarios', cases: shippedTurns() },
  { title: 'generated turns', cases: generated() },
];

/**
 * Groups that configure the runtime alike play on one simulator and one real runtime between them: a real
 * runtime's start costs about five CPU-seconds.
 */
type Played = { sim: Map<string, Trace>; real: Map<string, Trace> };
const plays = new Map<string, Promise<Played>>();
function playGroupsLike(extra: JsonObject | undefined): Promise<Played> {
  const key = JSON.stringify(extra ?? {});
  let played = plays.get(key);
  if (!played) {
    const cases = GROUPS.filter((g) => JSON.stringify(g.extra ?? {}) === key).flatMap((g) => g.cases);
    played = (async () => {
      const files = workspaceFor(cases, { 'notes.txt': 'remember the milk\n' });
      // The simulator's side runs in this process while the real one mostly waits on its runtime.
      const [sim, real] = await Promise.all([playOnSimulator(cases, extra), playOnRealServer(cases, { files, extra })]);
      const dump = process.env.FIDELITY_DUMP;
      if (dump) {
        mkdirSync(dump, { recursive: true });
        for (const [side, traces] of Object.entries({ sim, real }))
          for (const [name, trace] of traces)
            writeFileSync(`${dump}/${side}-${name.replace(/\W+/g, '-')}.json`, JSON.stringify(trace, null, 1));
      }
      return { sim, real };
    })();
    plays.set(key, played);
  }
  return played;
}

/** Every configuration plays at once, each on a runtime of its own: the first group's wait is the others' too. */
function playAll(): void {
  for (const group of GROUPS) playGroupsLike(group.extra).catch(() => undefined);
}

for (const group of GROUPS)
  describe(`turns as the real server plays them: ${group.title}`, skippedWhen(noRealRuntime()), () => {
    let sim: Map<string, Trace>;
    let real: Map<string, Trace>;

    beforeAll(async () => {
      playAll();
      ({ sim, real } = await playGroupsLike(group.extra));
    }, 600_000);

    for (const c of group.cases)
      it(c.name, () => {
        const difference = firstDifference(sim.get(c.name) as Trace, real.get(c.name) as Trace);
        expect(difference, `${c.name}: ${difference}`).toBeUndefined();
      });
  });

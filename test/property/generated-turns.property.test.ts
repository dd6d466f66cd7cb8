/**
 * Generated turns held to both documents: over many seeds, prompts and project trees, a prompt that no script
 * covers plays its generated turn in-process while the virtual clock advances in uneven steps, and every
 * answer read on the way (messages mid-turn, then each message, the history and the context) and every frame
 * the official client's subscription receives is valid against the simulator's spec and, where the real
 * server's document describes it, against that document too: what a frontend built on the real server reads.
 *
 *   npx vitest run test/property/generated-turns.property.test.ts          the fixed seed, 200 turns
 *   FC_SEED=42 FC_RUNS=5 npx vitest run test/property/generated-turns.property.test.ts   a bug hunt
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type SimulatorHandle } from '../../src/index.js';
import { subscribeWithClient, type ClientSubscription } from '../support/client-subscription.js';
import { realDocProblems, realEventProblems } from '../support/real-doc.js';
import { eventProblems, specProblems } from '../support/spec-validator.js';
import { until } from '../support/until.js';
import { params, runs, timeoutFor } from './harness.js';

type JsonObject = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Frame = { id: string; type: string; data: JsonObject };

const SES = 'ses_dfc5ae513ffePKUBK7HkVp5zCB';
const BASE_RUNS = 200;
/** Clock steps per turn at most: a generated turn lasts well under a minute of virtual time. */
const MAX_STEPS = 80;

const PROMPTS = [
  'Add a dark mode toggle',
  'Why does the login test fail on CI?',
  'Rename the settings route to /preferences',
  'Make the header sticky on mobile',
  'Bump vite and fix the build',
  'Remove the legacy avatar fallback',
  'Explain what useSession returns',
  'Go on',
  'Write tests for the API client',
];
const TREES: Array<string[] | undefined> = [
  undefined,
  ['src/pages/Login.tsx', 'src/components/Avatar.tsx', 'src/theme.ts', 'README.md', 'package.json'],
  ['src/index.ts', 'src/greet.ts', 'test/greet.test.ts'],
];

const turnCase = fc.record({
  seed: fc.string({ minLength: 1, maxLength: 16 }),
  prompt: fc.oneof(
    fc.constantFrom(...PROMPTS),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 160 }),
    fc.string({ minLength: 1, maxLength: 40 }).map((s) => `${s}?`),
  ),
  tree: fc.constantFrom(...TREES.keys()),
  // Uneven clock steps, so reads land mid-stream, mid-tool and between steps.
  steps: fc.array(fc.integer({ min: 50, max: 4000 }), { minLength: 4, maxLength: 12 }),
});

let sim: SimulatorHandle;
let stream: ClientSubscription<Frame>;
beforeAll(async () => {
  sim = await startSimulator({ scenario: { name: 'generated-turns', sessions: [{ id: SES }] }, log: () => {} });
  stream = await subscribeWithClient<Frame>(sim.url);
}, 120_000);
afterAll(async () => {
  stream?.stop();
  await sim?.close();
});

async function read(path: string, init?: RequestInit): Promise<{ status: number; body: JsonObject | undefined }> {
  const res = await fetch(`${sim.url}${path}`, init);
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** An answer's problems against the spec and, where the real server serves the operation, its document. */
function answerProblems(operationId: string, where: string, answer: { status: number; body: unknown }): string[] {
  return [
    ...specProblems(operationId, answer.status, answer.body, 'application/json').map((p) => `${where} spec: ${p}`),
    ...realDocProblems(operationId, answer.status, answer.body).map((p) => `${where} real: ${p}`),
  ];
}

const messagesPath = `/api/session/${SES}/message?limit=200`;

/** Plays one prompt's generated turn and returns every problem found on the way (none, when it is right). */
async function play(seed: string, prompt: string, tree: number, steps: number[]): Promise<string[]> {
  const files = TREES[tree];
  await sim.useScenario({ name: 'generated-turns', seed, sessions: [{ id: SES }], ...(files ? { files } : {}) });
  const from = stream.frames.length;
  const problems: string[] = [];
  const prompted = await read(`/api/session/${SES}/prompt`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: { text: prompt } }),
  });
  problems.push(...answerProblems('v2.session.prompt', 'prompt', prompted));
  expect(prompted.status).toBe(200);

  // Over by the real server's signals: it announces no status for a prompted turn.
  const idle = () =>
    stream.frames
      .slice(from)
      .some(
        (f) =>
          f.data.sessionID === SES &&
          ((f.type === 'session.next.step.ended' && f.data.finish !== 'tool-calls') ||
            f.type === 'session.next.step.failed'),
      );
  // A turn that asks for a permission mid-turn waits for it: answered once, as a user lets it go on.
  const answered = new Set<string>();
  for (let i = 0; i < MAX_STEPS; i++) {
    const page = await read(messagesPath);
    problems.push(...answerProblems('v2.session.messages', `messages at step ${i}`, page));
    if (idle()) break;
    for (const f of stream.frames.slice(from))
      if (f.type === 'permission.v2.asked' && f.data.sessionID === SES && !answered.has(f.data.id)) {
        answered.add(f.data.id);
        const reply = await read(`/api/session/${SES}/permission/${f.data.id}/reply`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ reply: 'once' }),
        });
        problems.push(...answerProblems('v2.session.permission.reply', 'the permission reply', reply));
      }
    await sim.clock.advance(steps[i % steps.length] as number);
  }
  await until(idle, 'the turn to end');

  const page = await read(messagesPath);
  problems.push(...answerProblems('v2.session.messages', 'messages after', page));
  const messages = (page.body?.data ?? []) as JsonObject[];
  const assistants = messages.filter((m) => m.type === 'assistant');
  // The turn did play: a user message and at least one assistant message with something in it.
  expect(messages.some((m) => m.type === 'user' && m.text === prompt)).toBe(true);
  expect(assistants.some((m) => m.content.length > 0)).toBe(true);
  for (const message of messages) {
    const one = await read(`/api/session/${SES}/message/${message.id}`);
    problems.push(...answerProblems('v2.session.message', `message ${message.id}`, one));
  }
  problems.push(
    ...answerProblems('v2.session.history', 'history', await read(`/api/session/${SES}/history?limit=1000`)),
    ...answerProblems('v2.session.context', 'context', await read(`/api/session/${SES}/context`)),
  );
  for (const frame of stream.frames.slice(from)) {
    const where = `frame ${frame.type}`;
    problems.push(...eventProblems(frame).map((p) => `${where} spec: ${p}`));
    const real = realEventProblems(frame);
    // Every frame of a turn is of a type the real server's document declares.
    if (real === undefined && frame.type.startsWith('session.')) problems.push(`${where}: unknown to the real server`);
    problems.push(...(real ?? []).map((p) => `${where} real: ${p}`));
  }
  return problems;
}

describe('generated turns', () => {
  it(
    `are valid against the spec and the real server's document, every answer and frame (${runs(BASE_RUNS)} turns)`,
    async () => {
      await fc.assert(
        fc.asyncProperty(turnCase, async ({ seed, prompt, tree, steps }) => {
          expect(await play(seed, prompt, tree, steps)).toEqual([]);
        }),
        params(BASE_RUNS),
      );
    },
    timeoutFor(BASE_RUNS) + runs(BASE_RUNS) * 1000,
  );
});

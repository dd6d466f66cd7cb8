/**
 * Permissions and questions, answered by the world, through the official client: the agent's rules decide a
 * request's effect (only `ask` leaves it pending), what is asked is listed for its session and for the
 * location until it is answered, each answer is announced on the event stream as the real server announces
 * it, `always` saves patterns that later requests are allowed by, and every answer validates against the spec
 * (and against the real server's own document where it describes the operation).
 */
import { createOpencodeClient } from '@opencode-ai/sdk/v2/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type SimulatorHandle } from '../../src/index.js';
import { realDocProblemsAt } from '../support/real-doc.js';
import { eventProblems, specProblems } from '../support/spec-validator.js';
import { until } from '../support/until.js';

type JsonObject = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Frame = { id: string; type: string; data: JsonObject; durable?: unknown; location?: { directory: string } };

const SES = 'ses_dfc5ae513ffePKUBK7HkVp5zCB';
const OTHER = 'ses_dfc5ad9f0ffeQm3LpX8vT2bNcR';
const LATER = 'ses_dfc5aa0f1ffeOpenedLaterAbC';
const QUE = 'que_203a7e2a4001LmNoPqRsTuVwXy';
const QUE_LATER = 'que_203a7f000001LaterQuestAbC';
const QUE_OTHER = 'que_203a80000001OtherQuestAbC';
const PER = 'per_203a58f870013Wia5K5pJuTBrA';
const PSV = 'psv_203a50000001SavedEditAbCdE';
const ASKED_LATER = {
  id: QUE_OTHER,
  sessionID: OTHER,
  questions: [
    {
      header: 'Test runner',
      question: 'Which tests should I run?',
      options: [
        { label: 'Unit', description: 'npm test' },
        { label: 'End-to-end', description: 'npm run e2e' },
      ],
      multiple: true,
    },
  ],
  tool: { messageID: 'msg_203a52106001tZWYWeFGLbY095', callID: 'toolu_01' },
};

const SCENARIO = {
  name: 'permissions-and-questions',
  seed: 'perm',
  // Agents that ask for everything but lock files (build) and deny everything (plan), so requests wait.
  agents: [
    {
      id: 'build',
      permissions: [
        { action: '*', resource: '*', effect: 'ask' },
        { action: 'edit', resource: '*.lock', effect: 'deny' },
      ],
    },
    { id: 'plan', permissions: [{ action: '*', resource: '*', effect: 'deny' }] },
  ],
  sessions: [{ id: SES, questions: [QUE] }, { id: OTHER }, { id: LATER, appears: '1m', questions: [QUE_LATER] }],
  questions: [{ ...ASKED_LATER, appears: '10s' }],
  permissions: {
    requests: [{ id: PER, sessionID: SES, action: 'bash', resources: ['npm run migrate'] }],
    saved: [{ id: PSV, action: 'edit', resource: 'src/*' }],
  },
};

/** Answers the real server's document declares are held to it too. */
const realProblems = (path: string, method: string, body: unknown) => realDocProblemsAt(path, method, 200, body);

let sim: SimulatorHandle;
beforeAll(async () => {
  sim = await startSimulator({ scenario: SCENARIO, log: () => {} });
});
afterAll(() => sim.close());

/** A partition of its own, the official client on it, and the frames its event stream delivers. */
async function world(name: string) {
  const partition = sim.partition(name);
  const client = createOpencodeClient({ baseUrl: partition.url });
  const controller = new AbortController();
  const { stream } = await client.v2.event.subscribe({ signal: controller.signal, sseMaxRetryAttempts: 0 });
  const frames: Frame[] = [];
  void (async () => {
    try {
      for await (const event of stream) frames.push(event as unknown as Frame);
    } catch {
      // aborted at the end of the test
    }
  })();
  await until(() => frames.length > 0);
  const of = (...types: string[]) => frames.filter((f) => types.includes(f.type));
  return { partition, client, frames, of, close: () => controller.abort() };
}

function valid(operationId: string, result: { response: Response; data?: unknown; error?: unknown }): void {
  const { status } = result.response;
  const body = status >= 400 ? result.error : result.data;
  expect(
    specProblems(operationId, status, body ?? '', result.response.headers.get('content-type') ?? undefined),
  ).toEqual([]);
  expect(result.response.headers.get('x-sim-layer')).toBe('scenario');
}

describe('permission requests and saved permissions, answered by the world', () => {
  it('asks, lists, gets, replies once / always / reject, saves and removes, each change on the stream', async () => {
    const { client, frames, of, close } = await world('permissions');
    const session = client.v2.session.permission;
    const pending = async (sessionID?: string) => {
      const listed = sessionID ? await session.list({ sessionID }) : await client.v2.permission.request.list();
      valid(sessionID ? 'v2.session.permission.list' : 'v2.permission.request.list', listed);
      return (listed.data?.data ?? []).map((r) => r.id);
    };
    expect(await pending()).toEqual([PER]);
    expect(await pending(OTHER)).toEqual([]);
    const saved0 = await client.v2.permission.saved.list();
    valid('v2.permission.saved.list', saved0);
    const project = (await client.v2.permission.request.list()).data?.location.project.id;
    expect(saved0.data?.data).toEqual([{ id: PSV, projectID: project, action: 'edit', resource: 'src/*' }]);
    expect(realProblems('/api/permission/saved', 'get', saved0.data)).toEqual([]);
    // The check bites: a saved permission without its fields is not the real server's.
    expect(realProblems('/api/permission/saved', 'get', { data: [{ id: PSV }] })).not.toEqual([]);

    // Asked: pending for its session and the location, and announced with the request as listed.
    const source = { type: 'tool' as const, messageID: 'msg_203a52106001tZWYWeFGLbY095', callID: 'toolu_02' };
    const created = await session.create({
      sessionID: SES,
      action: 'bash',
      resources: ['rm -rf dist'],
      save: ['rm -rf *'],
      metadata: { command: 'rm -rf dist' },
      source,
    });
    valid('v2.session.permission.create', created);
    expect(created.data?.data.effect).toBe('ask');
    expect(realProblems('/api/session/{sessionID}/permission', 'post', created.data)).toEqual([]);
    const asked = created.data?.data.id as string;
    expect(asked).toMatch(/^per_[0-9a-f]{12}[0-9A-Za-z]{14}$/);
    const got = await session.get({ sessionID: SES, requestID: asked });
    valid('v2.session.permission.get', got);
    const record = {
      id: asked,
      sessionID: SES,
      action: 'bash',
      resources: ['rm -rf dist'],
      save: ['rm -rf *'],
      metadata: { command: 'rm -rf dist' },
      source,
    };
    expect(got.data?.data).toEqual(record);
    expect(realProblems('/api/session/{sessionID}/permission/{requestID}', 'get', got.data)).toEqual([]);
    const elsewhere = (await session.create({ sessionID: OTHER, action: 'bash', resources: ['rm -rf build'] })).data
      ?.data.id as string;
    expect(await pending(SES)).toEqual([PER, asked]);
    expect(await pending()).toEqual([PER, asked, elsewhere]);
    expect(
      realProblems('/api/session/{sessionID}/permission', 'get', (await session.list({ sessionID: SES })).data),
    ).toEqual([]);
    // An id still pending is refused; what the saved permissions allow or the rules deny is not asked at all.
    const again = await session.create({ sessionID: SES, id: asked, action: 'bash', resources: ['ls'] });
    expect(again.response.status).toBe(400);
    expect(again.error).toMatchObject({ _tag: 'InvalidRequestError', field: 'id' });
    const settled = async (body: { action: string; resources: string[]; agent?: string; id?: string }) => {
      const answer = await session.create({ sessionID: SES, ...body });
      valid('v2.session.permission.create', answer);
      expect(answer.data?.data.id).toMatch(/^per/);
      return answer.data?.data.effect;
    };
    expect(await settled({ action: 'edit', resources: ['src/app.tsx'] })).toBe('allow');
    expect(await settled({ action: 'edit', resources: ['src/app.tsx', 'package.lock'] })).toBe('deny');
    expect(await settled({ action: 'bash', resources: ['ls'], agent: 'plan' })).toBe('deny');
    expect(await settled({ action: 'bash', resources: ['ls'], agent: 'ghost', id: 'per_ghost' })).toBe('deny');
    expect(await pending()).toEqual([PER, asked, elsewhere]);
    // A settled request is nothing to read or reply to.
    expect((await session.get({ sessionID: SES, requestID: 'per_ghost' })).response.status).toBe(404);
    // The session's own agent decides a request naming none: after a switch to plan, plan's rules.
    await client.v2.session.switchAgent({ sessionID: OTHER, agent: 'plan' });
    const switched = await session.create({ sessionID: OTHER, action: 'bash', resources: ['ls'] });
    expect(switched.data?.data.effect).toBe('deny');
    await client.v2.session.switchAgent({ sessionID: OTHER, agent: 'build' });

    // always: answered, its pattern saved, and the other session's request that pattern allows answered too.
    const always = await session.reply({ sessionID: SES, requestID: asked, reply: 'always', message: 'fine' });
    expect(always.response.status).toBe(204);
    valid('v2.session.permission.reply', always);
    expect(await pending()).toEqual([PER]);
    const saved = (await client.v2.permission.saved.list()).data?.data ?? [];
    expect(saved.map((s) => [s.action, s.resource, s.projectID])).toEqual([
      ['edit', 'src/*', project],
      ['bash', 'rm -rf *', project],
    ]);
    expect((await client.v2.permission.saved.list({ projectID: 'elsewhere' })).data?.data).toEqual([]);
    const gone = await session.get({ sessionID: SES, requestID: asked });
    expect(gone.response.status).toBe(404);
    expect(gone.error).toEqual({
      _tag: 'PermissionNotFoundError',
      requestID: asked,
      message: `Permission request not found: ${asked}`,
    });
    valid('v2.session.permission.get', gone);

    // reject: the one and every other pending request of its session; once: the one only.
    const third = (await session.create({ sessionID: SES, action: 'read', resources: ['a'] })).data?.data.id;
    const fourth = (await session.create({ sessionID: SES, action: 'read', resources: ['b'] })).data?.data.id;
    const other = (await session.create({ sessionID: OTHER, action: 'read', resources: ['c'] })).data?.data.id;
    expect(
      (await session.reply({ sessionID: SES, requestID: fourth as string, reply: 'reject' })).response.status,
    ).toBe(204);
    expect(await pending()).toEqual([other]);
    expect((await session.reply({ sessionID: OTHER, requestID: other as string, reply: 'once' })).response.status).toBe(
      204,
    );
    expect(await pending()).toEqual([]);
    const twice = await session.reply({ sessionID: OTHER, requestID: other as string, reply: 'once' });
    expect(twice.error).toMatchObject({ _tag: 'PermissionNotFoundError', requestID: other });
    const nobody = await session.get({ sessionID: 'ses_nope', requestID: PER });
    expect(nobody.error).toEqual({
      _tag: 'SessionNotFoundError',
      sessionID: 'ses_nope',
      message: 'Session not found: ses_nope',
    });
    valid('v2.session.permission.get', nobody);

    // Removed, and removing again is no error.
    const fresh = saved.find((s) => s.action === 'bash')?.id as string;
    for (let i = 0; i < 2; i++) {
      const removed = await client.v2.permission.saved.remove({ id: fresh });
      expect(removed.response.status).toBe(204);
      valid('v2.permission.saved.remove', removed);
    }
    expect((await client.v2.permission.saved.list()).data?.data.map((s) => s.id)).toEqual([PSV]);

    await until(() => of('permission.v2.replied').length === 6, 'six replies');
    close();
    const replies = of('permission.v2.replied').map((f) => [f.data.requestID, f.data.reply]);
    expect(replies).toEqual([
      [asked, 'always'],
      [elsewhere, 'always'],
      [fourth, 'reject'],
      [PER, 'reject'],
      [third, 'reject'],
      [other, 'once'],
    ]);
    expect(of('permission.v2.asked').map((f) => f.data.id)).toEqual([asked, elsewhere, third, fourth, other]);
    expect(of('permission.v2.asked')[0]?.data).toEqual(record);
    for (const frame of of('permission.v2.asked', 'permission.v2.replied')) {
      expect(eventProblems(frame), JSON.stringify(frame)).toEqual([]);
      expect(frame.durable).toBeUndefined();
      expect(frame.location?.directory).toEqual(expect.any(String));
    }
    expect(frames.map((f) => f.type)).not.toContain('permission.saved');
  });
});

describe('questions, answered by the world', () => {
  it('lists a session question, asks one later, replies and rejects, each on the stream', async () => {
    const { client, partition, of, close } = await world('questions');
    const questions = client.v2.session.question;
    const pending = async (sessionID?: string) => {
      const listed = sessionID ? await questions.list({ sessionID }) : await client.v2.question.request.list();
      valid(sessionID ? 'v2.session.question.list' : 'v2.question.request.list', listed);
      return listed.data?.data ?? [];
    };
    // A session's question named by id only: pending, with believable content.
    const [named] = await pending(SES);
    expect(named).toMatchObject({ id: QUE, sessionID: SES });
    expect(named?.questions[0]?.header.length).toBeGreaterThan(0);
    expect(named?.questions[0]?.options.length).toBeGreaterThanOrEqual(2);
    expect(realProblems('/api/session/{sessionID}/question', 'get', { data: [named] })).toEqual([]);
    expect((await pending()).map((q) => q.id)).toEqual([QUE]);

    // The other session's question is asked at 10 s; the later session's shows once the session exists.
    await partition.clock.advance('10s');
    await until(() => of('question.v2.asked').length === 1, 'question.v2.asked');
    expect(of('question.v2.asked')[0]?.data).toEqual(ASKED_LATER);
    expect(await pending(OTHER)).toEqual([ASKED_LATER]);
    expect((await questions.list({ sessionID: LATER })).error).toMatchObject({ _tag: 'SessionNotFoundError' });
    await partition.clock.advance('1m');
    expect((await pending()).map((q) => q.id)).toEqual([QUE, QUE_LATER, QUE_OTHER]);
    expect(
      realProblems('/api/question/request', 'get', await client.v2.question.request.list().then((r) => r.data)),
    ).toEqual([]);

    const replied = await questions.reply({
      sessionID: SES,
      requestID: QUE,
      questionV2Reply: { answers: [['Circle']] },
    });
    expect(replied.response.status).toBe(204);
    valid('v2.session.question.reply', replied);
    const again = await questions.reply({ sessionID: SES, requestID: QUE, questionV2Reply: { answers: [['Circle']] } });
    expect(again.error).toEqual({
      _tag: 'QuestionNotFoundError',
      requestID: QUE,
      message: `Question request not found: ${QUE}`,
    });
    valid('v2.session.question.reply', again);
    // Another session's question is not found from this one; an unknown session's neither.
    expect((await questions.reject({ sessionID: SES, requestID: QUE_OTHER })).error).toMatchObject({
      _tag: 'QuestionNotFoundError',
    });
    const unknown = await questions.reject({ sessionID: 'ses_nope', requestID: QUE_OTHER });
    expect(unknown.error).toMatchObject({ _tag: 'SessionNotFoundError', sessionID: 'ses_nope' });
    valid('v2.session.question.reject', unknown);
    const rejected = await questions.reject({ sessionID: OTHER, requestID: QUE_OTHER });
    expect(rejected.response.status).toBe(204);
    valid('v2.session.question.reject', rejected);
    expect((await pending()).map((q) => q.id)).toEqual([QUE_LATER]);
    expect(await pending(SES)).toEqual([]);

    await until(() => of('question.v2.rejected').length === 1, 'question.v2.rejected');
    close();
    expect(of('question.v2.replied').map((f) => f.data)).toEqual([
      { sessionID: SES, requestID: QUE, answers: [['Circle']] },
    ]);
    expect(of('question.v2.rejected').map((f) => f.data)).toEqual([{ sessionID: OTHER, requestID: QUE_OTHER }]);
    for (const frame of of('question.v2.asked', 'question.v2.replied', 'question.v2.rejected')) {
      expect(eventProblems(frame), JSON.stringify(frame)).toEqual([]);
      expect(frame.durable).toBeUndefined();
    }
    const state = (await partition.state()) as { questions: Array<{ id: string; state: string }> };
    expect(state.questions.map((q) => [q.id, q.state])).toEqual([
      [QUE, 'replied'],
      [QUE_LATER, 'pending'],
      [QUE_OTHER, 'rejected'],
    ]);
  });
});

/**
 * Sessions as a frontend drives them through the official client: created, listed page by page, prompted
 * (the turn plays on the virtual clock and streams), waited for, interrupted, reverted and moved; consistent
 * across list, get, messages, context, the global stream and the session's own log, in each partition.
 */
import { createOpencodeClient } from '@opencode-ai/sdk/v2/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/index.js';
import { eventProblems, specProblems } from '../support/spec-validator.js';
import { subscribeWithClient } from '../support/client-subscription.js';
import { until } from '../support/until.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- frames are read field by field, as a client would
type Frame = { id: string; type: string; data: Record<string, any>; durable?: { aggregateID: string; seq: number } };

let sim: Awaited<ReturnType<typeof startSimulator>>;
const stops: Array<() => void> = [];
beforeAll(async () => {
  sim = await startSimulator({ scenario: 'default', log: () => {} });
}, 60_000);
afterAll(async () => {
  for (const stop of stops) stop();
  await sim.close();
});

async function subscribe(baseUrl: string): Promise<Frame[]> {
  const { frames, stop } = await subscribeWithClient<Frame>(baseUrl);
  stops.push(stop);
  return frames;
}

async function advance(baseUrl: string, by: string): Promise<void> {
  const res = await fetch(`${baseUrl}/__sim/clock/advance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ by }),
  });
  expect(res.status).toBe(200);
}

/** Reads a session's own event stream until `count` frames came, then stops. */
async function sessionLog(baseUrl: string, sessionID: string, after: number, count: number): Promise<Frame[]> {
  const controller = new AbortController();
  const res = await fetch(`${baseUrl}/api/session/${sessionID}/event?after=${after}`, { signal: controller.signal });
  expect(res.headers.get('content-type')).toBe('text/event-stream');
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const frames = () => text.split('\n\n').filter((f) => f.startsWith('data: '));
  const deadline = Date.now() + 5000;
  while (frames().length < count && Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value);
  }
  controller.abort();
  return frames().map((f) => JSON.parse(f.slice(6)) as Frame);
}

describe.each([
  ['the default partition', ''],
  ['a named partition', '/__partition/frontend-a'],
])('a session created, prompted and interrupted, in %s', (_label, prefix) => {
  it('is consistent across list, get, messages, context, the stream and its own log', async () => {
    const baseUrl = `${sim.url}${prefix}`;
    const client = createOpencodeClient({ baseUrl });
    const frames = await subscribe(baseUrl);

    const before = await client.v2.session.list();
    expect(before.response.status).toBe(200);
    const known = before.data!.data.length;
    expect(known).toBeGreaterThan(1);

    const created = await client.v2.session.create({ agent: 'plan' });
    expect(created.response.status).toBe(200);
    expect(specProblems('v2.session.create', 200, created.data, 'application/json')).toEqual([]);
    const id = created.data!.data.id;
    expect(id).toMatch(/^ses_/);
    expect(created.data!.data.agent).toBe('plan');
    await until(() => frames.some((f) => f.type === 'session.created' && f.data.sessionID === id), 'session.created');
    const announced = frames.find((f) => f.type === 'session.created' && f.data.sessionID === id)!;
    expect(announced.durable).toMatchObject({ aggregateID: id, seq: 0 });
    expect(announced.data.info).toMatchObject({ id, title: created.data!.data.title, agent: 'plan' });

    const listed = await client.v2.session.list();
    expect(listed.data!.data.length).toBe(known + 1);
    expect(listed.data!.data.map((s) => s.id)).toContain(id);
    const got = await client.v2.session.get({ sessionID: id });
    expect(got.data!.data).toEqual(created.data!.data);

    // A prompt plays a turn: busy at once, idle once the clock has played it.
    const prompt = await client.v2.session.prompt({ sessionID: id, prompt: { text: 'Rename the Button component' } });
    expect(prompt.response.status).toBe(200);
    expect(specProblems('v2.session.prompt', 200, prompt.data, 'application/json')).toEqual([]);
    expect(prompt.data!.data).toMatchObject({ admittedSeq: 1, sessionID: id, delivery: 'steer' });
    const active = await client.v2.session.active();
    expect(Object.keys(active.data!.data)).toContain(id);
    const waited = client.v2.session.wait({ sessionID: id });
    let settled = false;
    void waited.then(() => (settled = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(settled).toBe(false);
    await advance(baseUrl, '5m');
    expect((await waited).response.status).toBe(204);
    expect(Object.keys((await client.v2.session.active()).data!.data)).not.toContain(id);

    const messages = await client.v2.session.messages({ sessionID: id, order: 'asc' });
    const types = messages.data!.data.map((m) => m.type);
    expect(types[0]).toBe('user');
    expect(types).toContain('assistant');
    expect(messages.data!.data[0]).toMatchObject({ id: prompt.data!.data.id, text: 'Rename the Button component' });
    const one = await client.v2.session.message({ sessionID: id, messageID: messages.data!.data[1]!.id });
    expect(one.data!.data).toEqual(messages.data!.data[1]);
    const context = await client.v2.session.context({ sessionID: id });
    expect(context.data!.data).toEqual(messages.data!.data);

    // Every frame of the session on the global stream, numbered without a gap, is its own log's.
    const mine = frames.filter((f) => f.durable?.aggregateID === id);
    expect(mine.map((f) => f.durable!.seq)).toEqual(mine.map((_, i) => i));
    expect(mine.map((f) => f.type)).toEqual(
      expect.arrayContaining(['session.next.prompt.admitted', 'session.next.prompted', 'session.next.step.started']),
    );
    for (const f of frames) expect(eventProblems(f)).toEqual([]);
    const history = await client.v2.session.history({ sessionID: id });
    expect(history.data!.hasMore).toBe(false);
    expect(history.data!.data.map((e) => e.id)).toEqual(mine.slice(1).map((f) => f.id));
    const log = await sessionLog(baseUrl, id, 2, mine.length - 3);
    expect(log.map((e) => e.id)).toEqual(mine.slice(3).map((f) => f.id));

    // An interrupt stops a turn under way: its step fails as the real server fails it, the session is idle.
    await client.v2.session.prompt({ sessionID: id, prompt: { text: 'And the IconButton too' } });
    await advance(baseUrl, '2s');
    expect(Object.keys((await client.v2.session.active()).data!.data)).toContain(id);
    const interrupted = await client.v2.session.interrupt({ sessionID: id });
    expect(interrupted.response.status).toBe(204);
    expect(Object.keys((await client.v2.session.active()).data!.data)).not.toContain(id);
    const failed = () => frames.filter((f) => f.type === 'session.next.step.failed' && f.data.sessionID === id);
    await until(() => failed().length > 0, 'the step failed');
    expect(failed().at(-1)!.data.error).toEqual({ type: 'unknown', message: 'Provider turn interrupted' });
    expect((await client.v2.session.wait({ sessionID: id })).response.status).toBe(204);
    const after = await client.v2.session.messages({ sessionID: id, order: 'asc' });
    expect(after.data!.data.at(-1)).toMatchObject({
      type: 'assistant',
      finish: 'error',
      error: { message: 'Provider turn interrupted' },
    });
    const updated = (await client.v2.session.get({ sessionID: id })).data!.data;
    expect(updated.time.updated).toBeGreaterThan(created.data!.data.time.created);
    expect((await client.v2.session.list()).data!.data[0]!.id).toBe(id);
  });
});

describe('session list pages as the real server pages it', () => {
  it('walks forward and back with cursors, in either order, and refuses a cursor with filters', async () => {
    const client = createOpencodeClient({ baseUrl: `${sim.url}/__partition/paging` });
    for (let i = 0; i < 5; i++) await client.v2.session.create({ agent: 'build' });
    const all = (await client.v2.session.list({ limit: 100 })).data!.data.map((s) => s.id);
    const first = await client.v2.session.list({ limit: 3 });
    expect(first.data!.data.map((s) => s.id)).toEqual(all.slice(0, 3));
    const second = await client.v2.session.list({ cursor: first.data!.cursor.next, limit: 3 });
    expect(second.data!.data.map((s) => s.id)).toEqual(all.slice(3, 6));
    const back = await client.v2.session.list({ cursor: second.data!.cursor.previous, limit: 3 });
    expect(back.data!.data.map((s) => s.id)).toEqual(all.slice(0, 3));
    const asc = await client.v2.session.list({ order: 'asc', limit: 100 });
    expect(asc.data!.data.map((s) => s.id)).toEqual([...all].reverse());
    const bad = await client.v2.session.list({ cursor: first.data!.cursor.next, order: 'asc' });
    expect(bad.response.status).toBe(400);
    expect(bad.error).toMatchObject({ _tag: 'InvalidCursorError' });
    const garbage = await client.v2.session.list({ cursor: 'garbage' });
    expect(garbage.error).toEqual({ _tag: 'InvalidCursorError', message: 'Invalid cursor' });
    const searched = await client.v2.session.list({ search: 'avatar' });
    expect(searched.data!.data.map((s) => s.title)).toEqual(['Add an avatar to the profile page']);
  });
});

describe('reverts, moves and the experimental session operations', () => {
  it('commits a staged revert by dropping the messages from it on; clears one by keeping them', async () => {
    const client = createOpencodeClient({ baseUrl: `${sim.url}/__partition/revert` });
    const id = (await client.v2.session.create({ agent: 'build' })).data!.data.id;
    for (const text of ['one', 'two', 'three']) await client.v2.session.prompt({ sessionID: id, prompt: { text } });
    await advance(`${sim.url}/__partition/revert`, '10m');
    const messages = (await client.v2.session.messages({ sessionID: id, order: 'asc' })).data!.data;
    const second = messages.filter((m) => m.type === 'user')[1]!;
    await client.v2.session.revert.stage({ sessionID: id, messageID: second.id });
    expect((await client.v2.session.get({ sessionID: id })).data!.data.revert).toMatchObject({ messageID: second.id });
    await client.v2.session.revert.clear({ sessionID: id });
    expect((await client.v2.session.get({ sessionID: id })).data!.data.revert).toBeUndefined();
    expect((await client.v2.session.messages({ sessionID: id })).data!.data).toHaveLength(messages.length);
    await client.v2.session.revert.stage({ sessionID: id, messageID: second.id });
    expect((await client.v2.session.revert.commit({ sessionID: id })).response.status).toBe(204);
    const kept = (await client.v2.session.messages({ sessionID: id, order: 'asc' })).data!.data;
    expect(kept.map((m) => m.id)).toEqual(messages.slice(0, messages.indexOf(second)).map((m) => m.id));
  });

  it('moves a session, lists sessions the experimental way and backgrounds nothing', async () => {
    const baseUrl = `${sim.url}/__partition/experimental`;
    const client = createOpencodeClient({ baseUrl });
    const id = (await client.v2.session.create({ agent: 'build' })).data!.data.id;
    const moved = await client.experimental.controlPlane.moveSession({
      sessionID: id,
      destination: { directory: '/srv/elsewhere' },
    });
    expect(moved.response.status).toBe(204);
    expect((await client.v2.session.get({ sessionID: id })).data!.data.location).toEqual({
      directory: '/srv/elsewhere',
    });
    const unknown = await client.experimental.controlPlane.moveSession({
      sessionID: 'ses_nope',
      destination: { directory: '/x' },
    });
    expect(unknown.response.status).toBe(400);
    expect(unknown.error).toEqual({ name: 'MoveSessionError', data: { message: 'Session not found: ses_nope' } });
    const list = await client.experimental.session.list({ limit: 2 });
    expect(list.response.status).toBe(200);
    expect(specProblems('experimental.session.list', 200, list.data, 'application/json')).toEqual([]);
    expect(list.data!.map((s) => s.id)).toEqual([id, expect.stringMatching(/^ses_/)]);
    const background = await client.experimental.session.background({ sessionID: id });
    expect(background.data).toBe(false);
  });

  it('answers an unknown session with SessionNotFoundError and a taken prompt id with ConflictError', async () => {
    const client = createOpencodeClient({ baseUrl: `${sim.url}/__partition/errors` });
    const missing = await client.v2.session.get({ sessionID: 'ses_nope' });
    expect(missing.error).toEqual({
      _tag: 'SessionNotFoundError',
      sessionID: 'ses_nope',
      message: 'Session not found: ses_nope',
    });
    const id = (await client.v2.session.create({ agent: 'build' })).data!.data.id;
    await client.v2.session.prompt({ sessionID: id, id: 'msg_given1', prompt: { text: 'a' }, resume: false });
    const again = await client.v2.session.prompt({ sessionID: id, id: 'msg_given1', prompt: { text: 'a' } });
    expect(again.response.status).toBe(409);
    expect(again.error).toMatchObject({ _tag: 'ConflictError', resource: 'msg_given1' });
    const message = await client.v2.session.message({ sessionID: id, messageID: 'msg_nope' });
    expect(message.error).toMatchObject({ _tag: 'MessageNotFoundError', messageID: 'msg_nope' });
  });
});

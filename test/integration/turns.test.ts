/**
 * Agent turns over HTTP, on the default scenario: a synthetic message with resume plays the main session's
 * scripted turn as the virtual clock is advanced (its events in /__sim/events, its messages in the listing,
 * every answer valid against the spec), and a session without a script plays a generated turn that two
 * simulators with the same seed play identically.
 */
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/hosts/app.js';
import { specProblems } from '../support/spec-validator.js';

type App = Awaited<ReturnType<typeof createApp>>;
type JsonObject = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const MAIN = 'ses_dfc5ae513ffePKUBK7HkVp5zCB';
// A session the scenario scripts no turn for.
const GENERATED = 'ses_dfc5ab003ffeNewSessionAbCd';
const stage = { messageID: 'msg_203a52106001tZWYWeFGLbY095' };

const app = () => createApp({ scenario: 'default', log: () => {} });

/** One session's events (the scenario's other sessions, commands and forms keep their own time alongside). */
async function events(sim: App, after = 0, sessionID = MAIN): Promise<JsonObject[]> {
  const res = await request(sim).get(`/__sim/events?after=${after}`).expect(200);
  return (res.body.entries as JsonObject[]).filter(
    (e) => e.kind === 'event' && (e.data as JsonObject).sessionID === sessionID,
  );
}

async function advance(sim: App, ms: number): Promise<number> {
  return (await request(sim).post('/__sim/clock/advance').send({ ms }).expect(200)).body.now as number;
}

/** A page of messages, held to the spec the way every answer is. */
async function messages(sim: App, sessionID: string, query = ''): Promise<{ text: string; body: JsonObject }> {
  const res = await request(sim).get(`/api/session/${sessionID}/message${query}`);
  expect(res.status).toBe(200);
  expect(res.headers['x-sim-violations']).toBeUndefined();
  expect(specProblems('v2.session.messages', res.status, res.body, res.headers['content-type'])).toEqual([]);
  return { text: res.text, body: res.body as JsonObject };
}

describe('a scripted turn over HTTP', () => {
  it('plays as the clock advances: events in the log, messages in the listing, busy until it ends', async () => {
    const sim = await app();
    const start = (await request(sim).get('/__sim/clock')).body.now as number;
    await request(sim)
      .post(`/api/session/${MAIN}/synthetic`)
      .send({ text: 'Use the design-system Avatar instead', resume: true })
      .expect(204);
    const admitted = await events(sim);
    // The turn's plan and its busy are the simulator's own; nothing of a step shows before its first token.
    expect(admitted.map((e) => [e.type, e.time - start])).toEqual([
      ['session.next.synthetic', 0],
      ['session.next.prompt.admitted', 0],
      ['session.turn.started', 0],
      ['session.turn.status', 0],
    ]);
    expect(admitted.every((e) => 'request' in e.cause)).toBe(true);
    expect((await request(sim).post(`/api/session/${MAIN}/revert/stage`).send(stage)).body._tag).toBe(
      'SessionBusyError',
    );

    await advance(sim, 1000);
    const streaming = await events(sim, admitted.at(-1)?.seq);
    expect(streaming.map((e) => e.type)).toContain('session.next.reasoning.delta');
    expect(streaming.find((e) => e.type === 'session.next.step.started')?.data).toMatchObject({
      sessionID: MAIN,
      agent: expect.any(String),
      model: { id: 'claude-sonnet-4-5', providerID: 'anthropic' },
      snapshot: expect.stringMatching(/^[0-9a-f]{40}$/),
    });
    expect(
      streaming.every((e) => e.time > start && e.time <= start + 1000 && e.cause.timer === `session:${MAIN}`),
    ).toBe(true);
    const mid = (await messages(sim, MAIN, '?limit=2')).body.data as JsonObject[];
    expect(mid.map((m) => m.type)).toEqual(['assistant', 'synthetic']);
    expect(mid[0]?.content[0]).toMatchObject({ type: 'reasoning' });
    expect(mid[0]?.time.completed).toBeUndefined();

    await advance(sim, 30_000);
    const rest = await events(sim, streaming.at(-1)?.seq);
    expect(rest.at(-1)).toMatchObject({
      type: 'session.turn.status',
      data: { sessionID: MAIN, status: { type: 'idle' } },
    });
    // The provider's 529 was retried by the runtime, which shows nothing of it.
    expect(rest.map((e) => e.type)).not.toContain('session.next.retried');
    expect((await request(sim).post(`/api/session/${MAIN}/revert/stage`).send(stage)).status).toBe(200);
    const done = (await messages(sim, MAIN, '?limit=4')).body.data as JsonObject[];
    expect(done.map((m) => [m.type, m.finish])).toEqual([
      ['assistant', 'stop'],
      ['assistant', 'tool-calls'],
      ['assistant', 'tool-calls'],
      ['synthetic', undefined],
    ]);
    // The edit changed a file: the step's snapshot moved on and names it.
    expect(done[2]?.snapshot).toMatchObject({ files: ['src/pages/Profile.tsx'] });
    expect(done[2]?.snapshot.end).not.toBe(done[2]?.snapshot.start);
    expect(done[0]?.content).toEqual([
      { type: 'text', id: expect.stringMatching(/^prt_/), text: expect.stringContaining('design-system `Avatar`') },
    ]);
  });

  it('queues a second prompt behind the playing turn, and takes a model switch on the next turn', async () => {
    const sim = await app();
    await request(sim)
      .post(`/api/session/${MAIN}/synthetic`)
      .send({ text: 'Use the design-system Avatar instead' })
      .expect(204);
    await advance(sim, 2000);
    await request(sim)
      .post(`/api/session/${MAIN}/model`)
      .send({ model: { id: 'gpt-5', providerID: 'openai' } })
      .expect(204);
    await request(sim).post(`/api/session/${MAIN}/synthetic`).send({ text: 'Then delete the old Avatar' }).expect(204);
    await advance(sim, 60_000);
    const all = await events(sim);
    expect(all.filter((e) => e.type === 'session.next.prompt.admitted').map((e) => e.data.delivery)).toEqual([
      'steer',
      'queue',
    ]);
    expect(all.filter((e) => e.type === 'session.turn.status').map((e) => e.data.status.type)).toEqual([
      'busy',
      'idle',
    ]);
    const models = all.filter((e) => e.type === 'session.next.step.started').map((e) => e.data.model.id);
    expect(models[0]).toBe('claude-sonnet-4-5');
    expect(models.at(-1)).toBe('gpt-5');
    expect(new Set(models)).toEqual(new Set(['claude-sonnet-4-5', 'gpt-5']));
    await messages(sim, MAIN, '?limit=50');
  });

  it('appends without playing when resume is false', async () => {
    const sim = await app();
    await request(sim)
      .post(`/api/session/${MAIN}/synthetic`)
      .send({ text: 'FYI: CI is green', resume: false })
      .expect(204);
    await advance(sim, 60_000);
    expect((await events(sim)).map((e) => e.type)).toEqual(['session.next.synthetic']);
  });
});

describe('a generated turn over HTTP', () => {
  /** The same requests against a fresh simulator: every answer, and the log's events without their causes. */
  async function transcript(): Promise<{ answers: string[]; events: unknown[] }> {
    const sim = await app();
    const answers: string[] = [];
    await request(sim)
      .post(`/api/session/${GENERATED}/synthetic`)
      .send({ text: 'Fix the flaky login test', resume: true })
      .expect(204);
    for (let i = 0; i < 24; i++) {
      await advance(sim, 500);
      const first = await messages(sim, GENERATED, '?limit=2');
      answers.push(first.text);
      const cursor = first.body.cursor.next as string | undefined;
      if (cursor) answers.push((await messages(sim, GENERATED, `?limit=3&cursor=${cursor}`)).text);
    }
    answers.push((await messages(sim, GENERATED, '?order=asc&limit=200')).text);
    const logged = (await events(sim, 0, GENERATED)).map((e) => ({
      id: e.id,
      type: e.type,
      time: e.time,
      data: e.data,
    }));
    return { answers, events: logged };
  }

  it('plays identically on two simulators with the same seed', async () => {
    const [one, two] = [await transcript(), await transcript()];
    expect(two.answers).toEqual(one.answers);
    expect(two.events).toEqual(one.events);
    const types = (one.events as JsonObject[]).map((e) => e.type);
    expect(types.at(-1)).toBe('session.turn.status');
    expect(types).toEqual(
      expect.arrayContaining([
        'session.next.step.started',
        'session.next.tool.called',
        'session.next.text.delta',
        'session.next.step.ended',
      ]),
    );
    expect((one.events as JsonObject[]).find((e) => e.type === 'session.turn.started')?.data).toMatchObject({
      scripted: false,
      number: 0,
    });
  });
});

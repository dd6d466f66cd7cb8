/**
 * Integrations, OAuth attempts and credentials, driven through the official client against the world: the
 * default catalogue, an OAuth attempt started, polled, completed on the virtual clock, its credential shown,
 * relabelled and removed; a cancelled attempt; a code-mode attempt; each change announced on the event stream
 * as the real server announces it (and nothing where it announces nothing), every frame valid.
 */
import { createOpencodeClient } from '@opencode-ai/sdk/v2/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineScenario, startSimulator, type Scenario, type SimulatorHandle } from '../../src/index.js';
import { realDocProblemsAt } from '../support/real-doc.js';
import { eventProblems, specProblems } from '../support/spec-validator.js';
import { until } from '../support/until.js';

type JsonObject = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Frame = { type: string; data: JsonObject; location?: JsonObject; durable?: unknown };

/** One integration with a scripted failure, and one whose OAuth attempt settles on its second poll. */
const SCRIPTED = defineScenario({
  name: 'integrations-scripted',
  integrations: [
    {
      id: 'acme',
      name: 'Acme AI',
      methods: [
        {
          type: 'oauth',
          id: 'sso',
          label: 'Acme SSO',
          attempt: { settles: { as: 'failed', after: '3s', message: 'Access denied' } },
        },
        {
          type: 'oauth',
          id: 'polled',
          label: 'Acme (polled)',
          attempt: { settles: { as: 'complete', poll: 2, label: 'Polled' } },
        },
        { type: 'oauth', id: 'never', label: 'Acme (never)', attempt: { settles: { as: 'expired' }, expires: '2m' } },
        { type: 'oauth', id: 'paste', label: 'Acme (paste)', attempt: { mode: 'code', settles: { as: 'failed' } } },
        { type: 'key' },
      ],
      connections: [{ type: 'env', name: 'ACME_API_KEY' }],
    },
  ],
});

let sim: SimulatorHandle;
const running: AbortController[] = [];
beforeAll(async () => {
  // integration.attempt.settled is the simulator's own: on the stream only with simEvents.
  sim = await startSimulator({ scenario: { name: 'integrations-default' }, simEvents: true, log: () => {} });
});
afterAll(async () => {
  for (const controller of running) controller.abort();
  await sim.close();
});

/** The official client on a partition of its own, and its event stream as read so far. */
async function world(name: string, scenario?: Scenario) {
  const handle = sim.partition(name);
  if (scenario) await handle.useScenario(scenario);
  // Every answer the world gives is checked by the pipeline too: none may carry a violation.
  const checked: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    expect(res.headers.get('x-sim-violations'), `${res.url} ${res.status}`).toBeNull();
    return res;
  };
  const client = createOpencodeClient({ baseUrl: handle.url, fetch: checked });
  const controller = new AbortController();
  running.push(controller);
  const { stream } = await client.v2.event.subscribe({ signal: controller.signal, sseMaxRetryAttempts: 0 });
  const frames: Frame[] = [];
  void (async () => {
    try {
      for await (const event of stream) frames.push(event as unknown as Frame);
    } catch {
      // aborted at the end
    }
  })();
  await until(() => frames.length > 0);
  let read = frames.length;
  /** The frames published since the last call, after the stream has had a moment to deliver them. */
  const published = async (atLeast = 0): Promise<Frame[]> => {
    await until(() => frames.length - read >= atLeast);
    await new Promise((r) => setTimeout(r, 30));
    const fresh = frames.slice(read);
    read = frames.length;
    for (const frame of fresh) expect(eventProblems(frame)).toEqual([]);
    return fresh;
  };
  return { handle, client, published };
}

const shown = (frames: Frame[]) => frames.map((f) => (f.type === 'integration.updated' ? f.type : [f.type, f.data]));

/** Answers the real server's document declares are held to it too. */
const realProblems = (path: string, method: string, body: unknown) => realDocProblemsAt(path, method, 200, body);

describe('the integration kind through the official client', () => {
  it('lists a believable catalogue when the scenario has none, and gets one by id', async () => {
    const { client } = await world('catalogue');
    const list = await client.v2.integration.list();
    expect(list.response.headers.get('x-sim-layer')).toBe('scenario');
    expect(list.data?.data.map((i) => i.id)).toEqual([
      'anthropic',
      'github-copilot',
      'openai',
      'opencode',
      'openrouter',
    ]);
    expect(specProblems('v2.integration.list', 200, list.data, 'application/json')).toEqual([]);
    expect(realProblems('/api/integration', 'get', list.data)).toEqual([]);
    const anthropic = await client.v2.integration.get({ integrationID: 'anthropic' });
    expect(anthropic.data?.data).toEqual(list.data?.data[0]);
    expect(anthropic.data?.data.connections).toEqual([
      { type: 'credential', id: 'cred_203a62d81001vkrjQIC7ANyh3p', label: 'Work key' },
    ]);
    expect(realProblems('/api/integration/{integrationID}', 'get', anthropic.data)).toEqual([]);
    // What the scenario says of an attempt is never served.
    expect(JSON.stringify(list.data)).not.toContain('"attempt"');
    const unknown = await client.v2.integration.get({ integrationID: 'nope' });
    expect(unknown.response.status).toBe(400);
    expect(unknown.error).toMatchObject({ _tag: 'InvalidRequestError', kind: 'Params', field: 'integrationID' });
  });

  it('starts an OAuth attempt, completes it on the clock, and shows, relabels and removes its credential', async () => {
    const { handle, client, published } = await world('oauth');
    const start = await client.v2.integration.connect.oauth({
      integrationID: 'openai',
      methodID: 'chatgpt-browser',
      inputs: {},
    });
    expect(start.response.status).toBe(200);
    const attempt = start.data!.data;
    expect(attempt.attemptID).toMatch(/^con_[0-9a-f]{12}[0-9A-Za-z]{14}$/);
    expect(attempt.mode).toBe('auto');
    expect(attempt.url).toMatch(/^https:\/\/auth\.openai\.com\/oauth\/authorize\?.*state=[0-9A-Za-z]{14}$/);
    expect(attempt.instructions).toBe('Complete authorization in your browser. This window will close automatically.');
    expect(attempt.time).toEqual({ created: await handle.clock.now(), expires: (await handle.clock.now()) + 600_000 });
    expect(specProblems('v2.integration.connect.oauth', 200, start.data, 'application/json')).toEqual([]);
    expect(realProblems('/api/integration/{integrationID}/connect/oauth', 'post', start.data)).toEqual([]);
    expect(await published()).toEqual([]); // the real server announces no attempt starting

    const pending = await client.v2.integration.attempt.status({ attemptID: attempt.attemptID });
    expect(pending.data?.data).toEqual({ status: 'pending', time: attempt.time });
    // Completing an auto attempt is the browser's job: the real server's undeclared 500, a 400 here.
    const early = await client.v2.integration.attempt.complete({ attemptID: attempt.attemptID, code: 'x' });
    expect(early.response.status).toBe(400);
    expect(early.error).toMatchObject({ _tag: 'InvalidRequestError', field: 'attemptID' });

    await handle.clock.advance('5s');
    expect(shown(await published(4))).toEqual([
      ['integration.attempt.settled', { attemptID: attempt.attemptID, integrationID: 'openai', status: 'complete' }],
      ['integration.connection.updated', { integrationID: 'openai' }],
      'integration.updated',
      ['catalog.updated', {}],
    ]);
    const complete = await client.v2.integration.attempt.status({ attemptID: attempt.attemptID });
    expect(complete.data?.data).toEqual({ status: 'complete', time: attempt.time });
    const openai = await client.v2.integration.get({ integrationID: 'openai' });
    const [credential] = openai.data!.data.connections;
    expect(credential).toEqual({ type: 'credential', id: expect.stringMatching(/^cred_/), label: 'default' });
    const credentialID = (credential as { id: string }).id;
    const listed = await client.v2.integration.list();
    expect(listed.data?.data.find((i) => i.id === 'openai')?.connections).toEqual([credential]);

    await client.v2.credential.update({ credentialID, label: 'ChatGPT Pro' });
    expect(shown(await published(3))).toEqual([
      ['integration.connection.updated', { integrationID: 'openai' }],
      'integration.updated',
      ['catalog.updated', {}],
    ]);
    expect((await client.v2.integration.get({ integrationID: 'openai' })).data?.data.connections).toEqual([
      { type: 'credential', id: credentialID, label: 'ChatGPT Pro' },
    ]);

    const removed = await client.v2.credential.remove({ credentialID });
    expect(removed.response.status).toBe(204);
    expect(shown(await published(3))).toEqual([
      ['integration.connection.updated', { integrationID: 'openai' }],
      'integration.updated',
      ['catalog.updated', {}],
    ]);
    expect((await client.v2.integration.get({ integrationID: 'openai' })).data?.data.connections).toEqual([]);
    // Gone: removing it again changes nothing, and the real server announces only integration.updated.
    expect((await client.v2.credential.remove({ credentialID })).response.status).toBe(204);
    // The catalogue follows every integration change (catalog.updated), as the real server's does.
    expect(shown(await published(2))).toEqual(['integration.updated', ['catalog.updated', {}]]);

    // A minute after it settled the attempt is gone, as the real server's sweep removes it.
    await handle.clock.advance('1m');
    const gone = await client.v2.integration.attempt.status({ attemptID: attempt.attemptID });
    expect(gone.response.status).toBe(400);
    expect(gone.error).toMatchObject({ _tag: 'InvalidRequestError', field: 'attemptID' });
  });

  it('cancels a pending attempt at once, and a second time changes nothing', async () => {
    const { handle, client, published } = await world('cancel');
    const start = await client.v2.integration.connect.oauth({
      integrationID: 'opencode',
      methodID: 'device',
      inputs: {},
    });
    const { attemptID, url, instructions } = start.data!.data;
    const userCode = /^Enter code: ([A-Z2-9]{4}-[A-Z2-9]{4})$/.exec(instructions)?.[1];
    expect(userCode).toBeDefined();
    expect(url).toBe(`https://opencode.ai/console/auth/device?user_code=${userCode}`);
    for (let i = 0; i < 2; i++) {
      const cancel = await client.v2.integration.attempt.cancel({ attemptID });
      expect(cancel.response.status).toBe(204);
    }
    expect((await client.v2.integration.attempt.status({ attemptID })).response.status).toBe(400);
    // Nothing settles later: the time it would have completed passes quietly.
    await handle.clock.advance('10s');
    expect(await published()).toEqual([]);
    expect((await client.v2.integration.get({ integrationID: 'opencode' })).data?.data.connections).toEqual([]);
    expect((await client.v2.integration.attempt.cancel({ attemptID: 'con_unknown' })).response.status).toBe(204);
  });

  it('completes a code-mode attempt with its code, and asks for one without', async () => {
    const { handle, client, published } = await world('code');
    const start = await client.v2.integration.connect.oauth({
      integrationID: 'anthropic',
      methodID: 'claude-max',
      inputs: {},
      label: 'Claude Max',
    });
    const { attemptID, mode, instructions } = start.data!.data;
    expect({ mode, instructions }).toEqual({ mode: 'code', instructions: 'Paste the authorization code here: ' });
    // The client sends no body without a code; the real server's document requires one, so `{}` is sent.
    const missing = await fetch(`${handle.url}/api/integration/attempt/${attemptID}/complete`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(missing.status).toBe(400);
    const refusal = await missing.json();
    expect(refusal).toEqual({
      _tag: 'InvalidRequestError',
      message: 'Authorization code is required',
      kind: 'integration_code_required',
    });
    expect(specProblems('v2.integration.attempt.complete', 400, refusal, 'application/json')).toEqual([]);
    const done = await client.v2.integration.attempt.complete({ attemptID, code: 'abc123#state' });
    expect(done.response.status).toBe(204);
    expect(shown(await published(4))).toEqual([
      ['integration.attempt.settled', { attemptID, integrationID: 'anthropic', status: 'complete' }],
      ['integration.connection.updated', { integrationID: 'anthropic' }],
      'integration.updated',
      ['catalog.updated', {}],
    ]);
    // The new credential replaces the one the integration had, labelled as the request asked.
    const connections = (await client.v2.integration.get({ integrationID: 'anthropic' })).data?.data.connections;
    expect(connections).toEqual([{ type: 'credential', id: expect.stringMatching(/^cred_/), label: 'Claude Max' }]);
    expect((await client.v2.integration.attempt.status({ attemptID })).data?.data.status).toBe('complete');
    // A settled attempt ignores a second code, as on the real server.
    expect((await client.v2.integration.attempt.complete({ attemptID, code: 'again' })).response.status).toBe(204);
    expect(await published()).toEqual([]);
    const unknown = await client.v2.integration.attempt.complete({ attemptID: 'con_unknown', code: 'x' });
    expect(unknown.error).toMatchObject({ _tag: 'InvalidRequestError', kind: 'Params', field: 'attemptID' });
  });

  it('settles as the scenario says: failed on time, complete on a poll, expired, a code refused', async () => {
    const { handle, client, published } = await world('scripted', SCRIPTED);
    const begin = async (methodID: string) =>
      (await client.v2.integration.connect.oauth({ integrationID: 'acme', methodID, inputs: {} })).data!.data;
    const sso = await begin('sso');
    const polled = await begin('polled');
    const never = await begin('never');
    const paste = await begin('paste');
    expect(Number(never.time.expires) - Number(never.time.created)).toBe(120_000);
    expect(sso.url).toMatch(/^https:\/\/auth\.example\.com\/acme\/oauth\/authorize\?.*method=sso&state=/);

    expect((await client.v2.integration.attempt.status({ attemptID: polled.attemptID })).data?.data.status).toBe(
      'pending',
    );
    expect((await client.v2.integration.attempt.status({ attemptID: polled.attemptID })).data?.data.status).toBe(
      'complete',
    );
    await handle.clock.advance('3s');
    const refused = await client.v2.integration.attempt.complete({ attemptID: paste.attemptID, code: 'wrong' });
    expect(refused.error).toMatchObject({ _tag: 'InvalidRequestError', kind: 'integration_authorization' });
    expect((await client.v2.integration.attempt.status({ attemptID: sso.attemptID })).data?.data).toMatchObject({
      status: 'failed',
      message: 'Access denied',
    });
    expect((await client.v2.integration.attempt.status({ attemptID: paste.attemptID })).data?.data).toMatchObject({
      status: 'failed',
      message: 'Authorization failed',
    });
    await handle.clock.advance('2m');
    // Long settled by now, the others are gone; the one nobody finished expired on time and is kept a minute.
    expect((await client.v2.integration.attempt.status({ attemptID: never.attemptID })).data?.data.status).toBe(
      'expired',
    );
    const settled = (await published())
      .filter((f) => f.type === 'integration.attempt.settled')
      .map((f) => [f.data.attemptID, f.data.status]);
    expect(settled).toEqual([
      [polled.attemptID, 'complete'],
      [sso.attemptID, 'failed'],
      [paste.attemptID, 'failed'],
      [never.attemptID, 'expired'],
    ]);
    const acme = (await client.v2.integration.get({ integrationID: 'acme' })).data?.data;
    expect(acme?.connections).toEqual([
      { type: 'credential', id: expect.stringMatching(/^cred_/), label: 'Polled' },
      { type: 'env', name: 'ACME_API_KEY' },
    ]);
    const unknownMethod = await client.v2.integration.connect.oauth({
      integrationID: 'acme',
      methodID: 'x',
      inputs: {},
    });
    expect(unknownMethod.error).toMatchObject({ _tag: 'InvalidRequestError', field: 'methodID' });
    const unknownIntegration = await client.v2.integration.connect.oauth({
      integrationID: 'nope',
      methodID: 'sso',
      inputs: {},
    });
    expect(unknownIntegration.error).toMatchObject({ _tag: 'InvalidRequestError', field: 'integrationID' });
  });
});

/**
 * `session-agent-sim/msw` in Node, through msw's `setupServer` and the official client: the same pipeline as
 * on a socket (the world, validation in the API's dialect, rules, coverage, the journal), the event stream
 * through msw, partitions for isolation, and other hosts left to msw's own `onUnhandledRequest`.
 */
import { createOpencodeClient } from '@opencode-ai/sdk/v2/client';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { simulatorHandlers, SimulatorError, type MswSimulator } from '../../src/msw/index.js';
import { subscribeWithClient } from '../support/client-subscription.js';
import { until } from '../support/until.js';

const SESSION = 'ses_dfc5ae513ffePKUBK7HkVp5zCB';

describe('msw in Node', () => {
  let sim: MswSimulator;
  const server = setupServer();

  beforeAll(async () => {
    sim = await simulatorHandlers({ scenario: 'default' });
    server.use(...sim.handlers);
    server.listen({ onUnhandledRequest: 'error' });
  });
  afterEach(() => sim.reset());
  afterAll(async () => {
    server.close();
    await sim.close();
  });

  it('answers the official client from the scenario’s world, at the default base URL', async () => {
    expect(sim.url).toBe('http://localhost:4096');
    const client = createOpencodeClient({ baseUrl: sim.url });
    const { data, response } = await client.v2.session.get({ sessionID: SESSION });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-sim-layer')).toBe('scenario');
    expect((data as { data: { id: string } }).data.id).toBe(SESSION);
  });

  it('refuses a bad request in the API’s dialect, and an unknown path with a Sim tag', async () => {
    const bad = await fetch(`${sim.url}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'not-a-session' }),
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ _tag: 'InvalidRequestError' });
    const unknown = await fetch(`${sim.url}/api/nope`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ _tag: 'SimRouteNotFoundError' });
  });

  it('streams the world’s events to the client’s subscription as the clock moves', async () => {
    const client = createOpencodeClient({ baseUrl: sim.url });
    const subscription = await subscribeWithClient<{ type: string; data: { sessionID?: string } }>(client);
    try {
      const created = await client.v2.session.create({ agent: 'build' });
      const id = (created.data as { data: { id: string } }).data.id;
      await client.v2.session.prompt({ sessionID: id, prompt: { text: 'Add a dark mode toggle' } });
      await sim.clock.advance('5m');
      await until(
        () => subscription.frames.some((f) => f.type === 'session.next.step.ended' && f.data.sessionID === id),
        'the turn on the stream',
      );
      const types = subscription.frames.filter((f) => f.data.sessionID === id).map((f) => f.type);
      expect(types).toEqual(expect.arrayContaining(['session.created', 'session.next.prompted']));
    } finally {
      subscription.stop();
    }
  });

  it('applies rules, and counts what was covered', async () => {
    await sim.rules.add({
      when: { operation: 'v2.plugin.list' },
      then: { error: { _tag: 'UnauthorizedError', message: 'Authentication required' } },
    });
    const refused = await fetch(`${sim.url}/api/plugin`);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('x-sim-layer')).toBe('rule');
    const coverage = await sim.coverage();
    expect(coverage.summary.line).toMatch(/rules fired 1\/1/);
    const journal = await sim.journal();
    expect(journal.at(-1)).toMatchObject({ operationId: 'v2.plugin.list', status: 401, tag: 'UnauthorizedError' });
  });

  it('keeps partitions apart: a rule in one does not reach the other', async () => {
    const worker = sim.partition('worker-1');
    try {
      await worker.rules.add({
        when: { operation: 'v2.plugin.list' },
        then: { status: 401, error: { _tag: 'UnauthorizedError', message: 'no' } },
      });
      expect((await fetch(`${worker.url}/api/plugin`)).status).toBe(401);
      expect((await fetch(`${sim.url}/api/plugin`)).status).toBe(200);
    } finally {
      await worker.close();
    }
  });

  it('leaves other hosts to msw: another handler answers them, and an unhandled one is msw’s error', async () => {
    server.use(http.get('https://cdn.example.test/flags.json', () => HttpResponse.json({ dark: true })));
    expect(await (await fetch('https://cdn.example.test/flags.json')).json()).toEqual({ dark: true });
    await expect(fetch('https://elsewhere.example.test/')).rejects.toThrow();
  });
});

describe('simulatorHandlers options', () => {
  it('serves the API under a base URL with a path, and nothing beside it', async () => {
    const sim = await simulatorHandlers({ baseUrl: 'https://agent.example.test/opencode', scenario: 'default' });
    const server = setupServer(...sim.handlers);
    server.listen({ onUnhandledRequest: 'error' });
    try {
      const answer = await fetch(`${sim.url}/api/session/${SESSION}`);
      expect(answer.status).toBe(200);
      expect(await sim.clock.advance('1s')).toBeGreaterThan(0);
      await expect(fetch('https://agent.example.test/api/session')).rejects.toThrow();
    } finally {
      server.close();
      await sim.close();
    }
  });

  it('refuses a misspelt option and a base URL that is not one, saying how to fix it', async () => {
    await expect(simulatorHandlers({ scenaro: 'default' } as never)).rejects.toThrow(/did you mean "scenario"/);
    const error = await simulatorHandlers({ baseUrl: 'localhost:4096/x?y' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SimulatorError);
    expect((error as SimulatorError).hint).toMatch(/baseUrl: "http:\/\/localhost:4096"/);
  });
});

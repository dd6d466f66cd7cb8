/**
 * A frontend built on the official client, against the default scenario: every method of `client.v2`, in the
 * order an app calls them. It boots (health, location, catalogues, lists), creates a session, prompts it and
 * watches the turn on the stream until idle, reads the messages, answers a permission and a question, types
 * into a PTY over its WebSocket, and connects an integration by OAuth. Every answer is held to the real
 * server's own document where the real server serves the operation and the interface document does not
 * show it otherwise, and to the spec everywhere.
 */
import { createOpencodeClient } from '@opencode-ai/sdk/v2/client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSimulator } from '../../src/index.js';
import { realDocProblems, realServes } from '../support/real-doc.js';
import { eventProblems, operation, specProblems } from '../support/spec-validator.js';
import { isRefusal, openSocket, until } from '../support/ws-client.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- frames and answers are read field by field
type JsonObject = Record<string, any>;
type Result = { response: Response; data?: unknown; error?: unknown };

let sim: Awaited<ReturnType<typeof startSimulator>>;
beforeAll(async () => {
  sim = await startSimulator({ scenario: 'default', log: () => {} });
}, 60_000);
afterAll(() => sim.close());

const called = new Set<string>();

/** One call of the client: its status as expected, its answer valid against the spec and the real document. */
async function call<T extends Result>(id: string, made: Promise<T>, status = 200): Promise<T> {
  const result = await made;
  called.add(id);
  expect(result.response.status, `${id}: ${JSON.stringify(result.error ?? '')}`).toBe(status);
  const body = result.data ?? result.error;
  const type = result.response.headers.get('content-type') ?? undefined;
  if (status !== 204) expect(specProblems(id, status, body, type), id).toEqual([]);
  // Where the interface document shows the operation its shapes win; elsewhere the real server's document is
  // the source, and the answer must be what it declares.
  const fromRealServer = String(operation(id).raw['x-source']).startsWith('real-server');
  if (fromRealServer && realServes(id) && status !== 204)
    expect(realDocProblems(id, status, body), `${id} against the real server's document`).toEqual([]);
  return result;
}

async function advance(by: string): Promise<void> {
  await fetch(`${sim.url}/__sim/clock/advance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ by }),
  });
}

it('every method of client.v2 completes, in the order a frontend calls them', async () => {
  const client = createOpencodeClient({ baseUrl: sim.url });

  // 1. Boot: what the app loads before it shows anything.
  const controller = new AbortController();
  const { stream } = await client.v2.event.subscribe({ signal: controller.signal, sseMaxRetryAttempts: 0 });
  called.add('v2.event.subscribe');
  const frames: JsonObject[] = [];
  void (async () => {
    try {
      for await (const event of stream) frames.push(event as JsonObject);
    } catch {
      // aborted at the end
    }
  })();
  await until(() => frames.length > 0, 'server.connected');
  expect(frames[0]!.type).toBe('server.connected');

  expect((await call('v2.health.get', client.v2.health.get())).data).toEqual({ healthy: true });
  const location = (await call('v2.location.get', client.v2.location.get())).data as JsonObject;
  const agents = (await call('v2.agent.list', client.v2.agent.list())).data as JsonObject;
  expect(agents.data.map((a: JsonObject) => a.id)).toContain('build');
  const models = (await call('v2.model.list', client.v2.model.list())).data as JsonObject;
  const providers = (await call('v2.provider.list', client.v2.provider.list())).data as JsonObject;
  const provider = providers.data[0].id as string;
  await call('v2.provider.get', client.v2.provider.get({ providerID: provider }));
  expect(models.data.some((m: JsonObject) => providers.data.some((p: JsonObject) => p.id === m.providerID))).toBe(true);
  await call('v2.command.list', client.v2.command.list());
  await call('v2.skill.list', client.v2.skill.list());
  await call('v2.reference.list', client.v2.reference.list());
  await call('v2.integration.list', client.v2.integration.list());
  const tree = (await call('v2.fs.list', client.v2.fs.list())).data as JsonObject;
  expect(tree.location).toEqual(location);
  const found = (await call('v2.fs.find', client.v2.fs.find({ query: 'package' }))).data as JsonObject;
  const file = (found.data as JsonObject[]).find((f) => f.type !== 'directory') ?? found.data[0];
  // The client sends its literal `/api/fs/read/*`; an app puts the file's path in its place.
  const read = await client.v2.fs.read(undefined, { url: `/api/fs/read/${file.path as string}` } as never);
  called.add('v2.fs.read');
  expect(read.response.status).toBe(200);
  const sessions = (await call('v2.session.list', client.v2.session.list())).data as JsonObject;
  expect(sessions.data.length).toBeGreaterThanOrEqual(4);
  const active = (await call('v2.session.active', client.v2.session.active())).data as JsonObject;
  expect(Object.keys(active.data)).toHaveLength(1); // the migration session is at work
  const pending = (await call('v2.permission.request.list', client.v2.permission.request.list())).data as JsonObject;
  expect(pending.data.length).toBeGreaterThan(0);
  await call('v2.question.request.list', client.v2.question.request.list());
  await call('v2.permission.saved.list', client.v2.permission.saved.list());
  await call('v2.pty.list', client.v2.pty.list());

  // 2. A session of one's own.
  const created = (await call('v2.session.create', client.v2.session.create({ agent: 'build' }))).data as JsonObject;
  const sessionID = created.data.id as string;
  await call('v2.session.get', client.v2.session.get({ sessionID }));
  await call('v2.session.switchAgent', client.v2.session.switchAgent({ sessionID, agent: 'plan' }), 204);
  await call(
    'v2.session.switchModel',
    client.v2.session.switchModel({
      sessionID,
      model: { id: models.data[0].id, providerID: models.data[0].providerID },
    }),
    204,
  );

  // 3. A prompt, and its turn on the stream until the session is idle.
  const prompt = (
    await call('v2.session.prompt', client.v2.session.prompt({ sessionID, prompt: { text: 'Add a dark mode toggle' } }))
  ).data as JsonObject;
  await advance('5m');
  await call('v2.session.wait', client.v2.session.wait({ sessionID }), 204);
  // Over by the real server's signals: a step that ends with no more tool calls, or fails.
  await until(
    () =>
      frames.some(
        (f) =>
          f.data?.sessionID === sessionID &&
          ((f.type === 'session.next.step.ended' && f.data.finish !== 'tool-calls') ||
            f.type === 'session.next.step.failed'),
      ),
    'the turn to end',
  );
  const turn = frames.filter((f) => f.data?.sessionID === sessionID).map((f) => f.type);
  expect(turn).toEqual(
    expect.arrayContaining(['session.next.prompted', 'session.next.step.started', 'session.next.step.ended']),
  );

  // 4. The messages, as the app shows them.
  const messages = (await call('v2.session.messages', client.v2.session.messages({ sessionID }))).data as JsonObject;
  expect(messages.data.map((m: JsonObject) => m.type)).toEqual(expect.arrayContaining(['user', 'assistant']));
  await call('v2.session.message', client.v2.session.message({ sessionID, messageID: prompt.data.id }));
  await call('v2.session.context', client.v2.session.context({ sessionID }));
  const history = (await call('v2.session.history', client.v2.session.history({ sessionID }))).data as JsonObject;
  expect(history.data.length).toBeGreaterThan(3);
  const log = new AbortController();
  const events = await client.v2.session.events({ sessionID, after: '0' }, {
    signal: log.signal,
    sseMaxRetryAttempts: 0,
  } as never);
  called.add('v2.session.events');
  const first = (await events.stream[Symbol.asyncIterator]().next()).value as JsonObject;
  expect(first.id).toBe(history.data[0].id);
  log.abort();
  await call('v2.session.compact', client.v2.session.compact({ sessionID }));
  const userMessage = messages.data.find((m: JsonObject) => m.type === 'user') as JsonObject;
  await call('v2.session.revert.stage', client.v2.session.revert.stage({ sessionID, messageID: userMessage.id }));
  await call('v2.session.revert.clear', client.v2.session.revert.clear({ sessionID }), 204);
  await call('v2.session.revert.stage', client.v2.session.revert.stage({ sessionID, messageID: userMessage.id }));
  await call('v2.session.revert.commit', client.v2.session.revert.commit({ sessionID }), 204);
  await call('v2.session.interrupt', client.v2.session.interrupt({ sessionID }), 204);

  // 5. A permission and a question answered. The build agent's rules allow commands and ask before leaving
  // the project's directory, so this one waits for a reply.
  const asked = (
    await call(
      'v2.session.permission.create',
      client.v2.session.permission.create({
        sessionID,
        action: 'external_directory',
        resources: ['/home/dev/shared/lint/*'],
        save: ['/home/dev/shared/*'],
      }),
    )
  ).data as JsonObject;
  expect(asked.data.effect).toBe('ask');
  const requestID = asked.data.id as string;
  const mine = (await call('v2.session.permission.list', client.v2.session.permission.list({ sessionID })))
    .data as JsonObject;
  expect(mine.data.map((p: JsonObject) => p.id)).toEqual([requestID]);
  await call('v2.session.permission.get', client.v2.session.permission.get({ sessionID, requestID }));
  await call(
    'v2.session.permission.reply',
    client.v2.session.permission.reply({ sessionID, requestID, reply: 'always' }),
    204,
  );
  const saved = (await call('v2.permission.saved.list', client.v2.permission.saved.list())).data as JsonObject;
  const lint = (saved.data as JsonObject[]).find((s) => s.resource === '/home/dev/shared/*')!;
  await call('v2.permission.saved.remove', client.v2.permission.saved.remove({ id: lint.id }), 204);
  const avatar = 'ses_dfc5ae513ffePKUBK7HkVp5zCB';
  const questions = (await call('v2.session.question.list', client.v2.session.question.list({ sessionID: avatar })))
    .data as JsonObject;
  await call(
    'v2.session.question.reply',
    client.v2.session.question.reply({
      sessionID: avatar,
      requestID: questions.data[0].id,
      questionV2Reply: { answers: [['Circle']] },
    }),
    204,
  );
  const migration = 'ses_dfc5ac1e2ffeHs7KdW4yR9zPaE';
  const asking = (await call('v2.session.question.list', client.v2.session.question.list({ sessionID: migration })))
    .data as JsonObject;
  await call(
    'v2.session.question.reject',
    client.v2.session.question.reject({ sessionID: migration, requestID: asking.data[0].id }),
    204,
  );

  // 6. A terminal: created, renamed, typed into over its WebSocket, removed.
  const pty = (await call('v2.pty.create', client.v2.pty.create({ title: 'scratch' }))).data as JsonObject;
  const ptyID = pty.data.id as string;
  await call('v2.pty.get', client.v2.pty.get({ ptyID }));
  await call('v2.pty.update', client.v2.pty.update({ ptyID, title: 'scratch 2', size: { rows: 30, cols: 100 } }));
  const ticket = (
    await call('v2.pty.connectToken', client.v2.pty.connectToken({ ptyID }, { headers: { 'x-opencode-ticket': '1' } }))
  ).data as JsonObject;
  const socket = await openSocket(
    `${sim.url.replace(/^http/, 'ws')}/api/pty/${ptyID}/connect?ticket=${ticket.data.ticket as string}`,
  );
  if (isRefusal(socket)) throw new Error(`refused ${socket.status}: ${socket.body}`);
  socket.send('echo hello from the frontend\r');
  await until(() => socket.text().includes('hello from the frontend\r\n'), 'the echo');
  socket.close();
  // The client's own connect is a plain GET: without an upgrade the server refuses it, as the real one does.
  await call('v2.pty.connect', client.v2.pty.connect({ ptyID }), 400);
  await call('v2.pty.remove', client.v2.pty.remove({ ptyID }), 204);

  // 7. An integration connected by OAuth, a key and a credential relabelled and removed.
  await call('v2.integration.get', client.v2.integration.get({ integrationID: 'openai' }));
  // The browser flow: an attempt the scenario completes a few virtual seconds after it starts.
  const browserAttempt = async () =>
    (
      await call(
        'v2.integration.connect.oauth',
        client.v2.integration.connect.oauth({
          integrationID: 'openai',
          methodID: 'chatgpt-browser',
          inputs: {},
        } as never),
      )
    ).data as JsonObject;
  const oauth = await browserAttempt();
  const attemptID = oauth.data.attemptID as string;
  const polled = (await call('v2.integration.attempt.status', client.v2.integration.attempt.status({ attemptID })))
    .data as JsonObject;
  expect(polled.data.status).toBe('pending');
  await advance('1m');
  const settled = (await call('v2.integration.attempt.status', client.v2.integration.attempt.status({ attemptID })))
    .data as JsonObject;
  expect(settled.data.status).toBe('complete');
  const other = await browserAttempt();
  await call(
    'v2.integration.attempt.complete',
    client.v2.integration.attempt.complete({ attemptID: other.data.attemptID }),
    400,
  );
  await call(
    'v2.integration.attempt.cancel',
    client.v2.integration.attempt.cancel({ attemptID: other.data.attemptID }),
    204,
  );
  await call(
    'v2.integration.connect.key',
    client.v2.integration.connect.key({ integrationID: 'anthropic', key: 'sk-flow-test' }),
    204,
  );
  const anthropic = (await call('v2.integration.get', client.v2.integration.get({ integrationID: 'anthropic' })))
    .data as JsonObject;
  const credentialID = anthropic.data.connections.find((c: JsonObject) => c.type === 'credential').id as string;
  await call('v2.credential.update', client.v2.credential.update({ credentialID, label: 'Flow key' }), 204);
  await call('v2.credential.remove', client.v2.credential.remove({ credentialID }), 204);

  // Project copies, last: what a frontend offers to work on in parallel.
  const projectID = location.project.id as string;
  const copy = (
    await call(
      'v2.projectCopy.create',
      client.v2.projectCopy.create({ projectID, strategy: 'git_worktree', directory: '/home/dev/copies' } as never),
    )
  ).data as JsonObject;
  await call(
    'v2.projectCopy.refresh',
    client.v2.projectCopy.refresh({ projectID, directory: copy.directory } as never),
    204,
  );
  await call(
    'v2.projectCopy.remove',
    client.v2.projectCopy.remove({ projectID, directory: copy.directory, force: true } as never),
    204,
  );

  controller.abort();
  for (const frame of frames) expect(eventProblems(frame), frame.type).toEqual([]);

  // Every method of client.v2 was called.
  const methods: string[] = [];
  const walk = (node: unknown, path: string) => {
    const proto = Object.getPrototypeOf(node) as object;
    for (const key of Object.getOwnPropertyNames(proto)) {
      if (key === 'constructor') continue;
      const descriptor = Object.getOwnPropertyDescriptor(proto, key)!;
      if (descriptor.get) walk((node as JsonObject)[key], `${path}.${key}`);
      else if (typeof descriptor.value === 'function') methods.push(`${path}.${key}`);
    }
  };
  walk(client.v2, 'v2');
  expect(methods).toHaveLength(61);
  expect(methods.filter((m) => !called.has(m))).toEqual([]);
}, 60_000);

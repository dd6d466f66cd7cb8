/**
 * The PTY kind on an engine built from a scenario, without sockets: its section read, its handlers' answers
 * and events (committed as the world layer commits them), and its connections driven through a stand-in
 * socket, so what a client would receive is checked frame by frame.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { answerBody, type Answer, type Exchange, type MessageSocket } from '../../../../src/exchange/exchange.js';
import { TaggedError } from '../../../../src/errors/errors.js';
import type { HandlerRequest } from '../../../../src/kinds/kind.js';
import { KINDS } from '../../../../src/kinds/registry.js';
import { PTY_LIMITS } from '../../../../src/kinds/pty/limits.js';
import { cursorFrame, replayFrom } from '../../../../src/kinds/pty/connection.js';
import { ticketOrigin } from '../../../../src/kinds/pty/handlers.js';
import { checkAnswer } from '../../../../src/openapi/answer-check.js';
import { projectContext } from '../../../../src/openapi/location.js';
import { loadSpec, type SpecIndex } from '../../../../src/openapi/openapi.js';
import { parseScenario } from '../../../../src/scenarios/load-scenario.js';
import { createEngine, type Engine } from '../../../../src/state/engine.js';
import type { DomainEvent } from '../../../../src/state/events.js';
import type { World } from '../../../../src/state/world.js';
import { scenarioProblems } from '../../../support/scenario-problems.js';

const PROJECT = projectContext('/home/dev/acme-web');
const SHELL = 'pty_203a5ad4f0011C7Y4ftsC84JMU';
const DONE = 'pty_203a5b02a001Kd8Lp2Qx7RmVnB';
const OTHER = 'pty_203a6bebb0015e6euclduDVDR0';
const SCENARIO = `
name: ptys
ptys:
  - id: ${SHELL}
    title: zsh
    command: /bin/zsh
    banner: "Last login: Mon Nov 23 09:12:44 on ttys001\\n"
    transcript:
      - { input: git status, output: "On branch main\\nnothing to commit, working tree clean\\n" }
    replies:
      - { input: npm test, output: "Tests: 12 passed", exitCode: 0 }
  - id: ${DONE}
    title: tests
    command: /bin/sh
    args: [-c, npm test]
    status: exited
    exitCode: 1
    transcript: "Tests: 1 failed\\n"
  - id: ${OTHER}
    directory: /srv/other
`;

let spec: SpecIndex;
beforeAll(async () => {
  spec = await loadSpec();
});

function engineOf(text = SCENARIO): Engine {
  return createEngine({ kinds: KINDS, definition: parseScenario(text, '<test>', spec), seed: 'test' });
}

const worldOf = (engine: Engine) => engine.world as World;

interface Call {
  ptyID?: string;
  query?: Record<string, unknown>;
  body?: unknown;
  headers?: Record<string, string>;
  upgrade?: boolean;
}

/** Runs the handler as the world layer does; answers are checked against the spec, thrown errors returned. */
function call(engine: Engine, operationId: string, c: Call = {}): { answer: Answer; body: unknown } | TaggedError {
  const operation = spec.byId.get(operationId)!;
  const exchange = {
    id: 'req_test',
    headers: c.headers ?? {},
    ...(c.upgrade ? { upgrade: 'websocket' } : {}),
  } as unknown as Exchange;
  const request: HandlerRequest = {
    exchange,
    operation,
    pathParams: c.ptyID ? { ptyID: c.ptyID } : {},
    query: c.query ?? {},
    body: c.body,
    partition: { engine },
  };
  try {
    const decision = KINDS.handlers[operationId]!(request, {
      world: worldOf(engine),
      now: engine.clock.now(),
      project: PROJECT,
    })!;
    if (decision.events) engine.commit(decision.events, { request: 'req_test' });
    const body = answerBody(decision.answer);
    if (decision.answer.kind !== 'upgrade') expect(checkAnswer(operation, decision.answer.status, body)).toEqual([]);
    return { answer: decision.answer, body };
  } catch (error) {
    if (!(error instanceof TaggedError)) throw error;
    if (!error.fromSimulator) expect(checkAnswer(operation, error.status, error.toBody())).toEqual([]);
    return error;
  }
}

function ok(result: ReturnType<typeof call>): { answer: Answer; body: unknown } {
  if (result instanceof TaggedError) throw new Error(`failed: ${JSON.stringify(result.toBody())}`);
  return result;
}
const data = (result: ReturnType<typeof call>) => (ok(result).body as { data: Record<string, unknown> }).data;

function events(engine: Engine, after = 0): DomainEvent[] {
  return engine.log.entries(after).filter((e): e is DomainEvent => e.kind === 'event');
}

/** A stand-in socket: what the connection sends, and whether it closed. */
function fakeSocket() {
  const sent: Array<string | Uint8Array> = [];
  const socket: MessageSocket & { sent: typeof sent; closedWith?: [number, string] } = {
    sent,
    sendText: (text) => sent.push(text),
    sendBinary: (bytes) => sent.push(bytes),
    close(code = 1000, reason = '') {
      socket.closedWith ??= [code, reason];
    },
  };
  return socket;
}

function connect(engine: Engine, ptyID: string, query: Record<string, unknown> = {}) {
  const { answer } = ok(call(engine, 'v2.pty.connect', { ptyID, query, upgrade: true }));
  if (answer.kind !== 'upgrade') throw new Error('no upgrade');
  const socket = fakeSocket();
  const handlers = answer.open(socket);
  return { socket, handlers };
}

describe('the scenario section', () => {
  it('starts each terminal with its banner, transcript and prompt, and an exited one with its code', () => {
    const world = worldOf(engineOf());
    expect(world.ptys.get(SHELL)).toMatchObject({
      status: 'running',
      title: 'zsh',
      output:
        'Last login: Mon Nov 23 09:12:44 on ttys001\r\n$ git status\r\nOn branch main\r\nnothing to commit, working tree clean\r\n$ ',
    });
    expect(world.ptys.get(DONE)).toMatchObject({ status: 'exited', exitCode: 1, output: 'Tests: 1 failed\r\n' });
    expect(KINDS.snapshot(world).ptys).toEqual([
      { id: SHELL, state: 'running' },
      { id: DONE, state: 'exited', exitCode: 1 },
      { id: OTHER, state: 'running' },
    ]);
  });

  it('reports a reply pattern that is no regular expression, and twins', () => {
    expect(
      scenarioProblems(
        spec,
        `name: bad\nptys:\n  - id: pty_a\n    replies:\n      - { match: "(", output: x }\n  - id: pty_a\n`,
      ),
    ).toEqual([
      '5:18 match "(" is not a regular expression (Invalid regular expression: /(/: Unterminated group)',
      '6:9 pty pty_a is declared twice',
    ]);
  });

  it('holds a reply to an input or a pattern', () => {
    const problems = scenarioProblems(spec, `name: bad\nptys:\n  - id: pty_a\n    replies:\n      - { output: y }\n`);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.every((p) => p.startsWith('5:'))).toBe(true);
  });
});

describe('the operations', () => {
  it('lists, gets, updates and removes the PTYs of the location the request names', () => {
    const engine = engineOf();
    expect((data(call(engine, 'v2.pty.list')) as unknown as Array<{ id: string }>).map((p) => p.id)).toEqual([
      SHELL,
      DONE,
    ]);
    const other = { location: { directory: '/srv/other' } };
    expect(
      (data(call(engine, 'v2.pty.list', { query: other })) as unknown as Array<{ id: string }>).map((p) => p.id),
    ).toEqual([OTHER]);
    expect(call(engine, 'v2.pty.get', { ptyID: OTHER })).toMatchObject({ _tag: 'PtyNotFoundError', status: 404 });
    expect(data(call(engine, 'v2.pty.get', { ptyID: DONE }))).toMatchObject({ status: 'exited', exitCode: 1 });

    const seq = engine.log.lastSeq;
    expect(
      data(call(engine, 'v2.pty.update', { ptyID: SHELL, body: { title: 'main', size: { rows: 30, cols: 100 } } })),
    ).toMatchObject({ id: SHELL, title: 'main', status: 'running' });
    call(engine, 'v2.pty.update', { ptyID: SHELL, body: {} });
    expect(worldOf(engine).ptys.get(SHELL)).toMatchObject({ title: 'main', size: { rows: 30, cols: 100 } });
    expect(ok(call(engine, 'v2.pty.remove', { ptyID: SHELL })).answer.status).toBe(204);
    expect(events(engine, seq).map((e) => [e.type, e.type === 'pty.updated' ? e.data.info.title : e.data])).toEqual([
      ['pty.updated', 'main'],
      ['pty.updated', 'main'],
      ['pty.deleted', { id: SHELL }],
    ]);
    expect(call(engine, 'v2.pty.remove', { ptyID: SHELL })).toMatchObject({ _tag: 'PtyNotFoundError' });
  });

  it('issues a ticket only with x-opencode-ticket: 1 and an origin it trusts, looking for the PTY after', () => {
    const engine = engineOf();
    expect(call(engine, 'v2.pty.connectToken', { ptyID: 'pty_nope' })).toMatchObject({
      _tag: 'ForbiddenError',
      status: 403,
    });
    const header = { 'x-opencode-ticket': '1' };
    expect(call(engine, 'v2.pty.connectToken', { ptyID: 'pty_nope', headers: header })).toMatchObject({ status: 404 });
    expect(
      call(engine, 'v2.pty.connectToken', { ptyID: SHELL, headers: { ...header, origin: 'https://evil.example' } }),
    ).toMatchObject({ _tag: 'ForbiddenError' });
    const token = data(call(engine, 'v2.pty.connectToken', { ptyID: SHELL, headers: header }));
    expect(token).toEqual({
      ticket: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      expires_in: 60,
    });
    expect(
      worldOf(engine)
        .ptys.get(SHELL)
        ?.tickets.get(token.ticket as string),
    ).toBe(engine.clock.now() + 60_000);
    // The same scenario and seed give the same tickets.
    expect(data(call(engineOf(), 'v2.pty.connectToken', { ptyID: SHELL, headers: header }))).toEqual(token);
  });

  it('creates PTYs up to the bound of a partition, then answers SimResourceLimitError', () => {
    const engine = engineOf();
    for (let i = worldOf(engine).ptys.size; i < PTY_LIMITS.pty; i++) ok(call(engine, 'v2.pty.create', { body: {} }));
    expect(call(engine, 'v2.pty.create', { body: {} })).toMatchObject({ _tag: 'SimResourceLimitError', status: 429 });
    // A created shell waits at its prompt; a command that is no shell starts with nothing printed.
    const shell = worldOf(engine).ptys.get([...worldOf(engine).ptys.keys()].at(-1)!)!;
    expect([shell.output, shell.definition.script.interactive]).toEqual(['$ ', true]);
  });

  it('trusts no origin, its own host, loopback, the desktop app and opencode.ai', () => {
    for (const origin of [
      undefined,
      'http://sim:4096',
      'http://localhost:3000',
      'http://127.0.0.1:5173',
      'tauri://localhost',
      'https://app.opencode.ai',
    ])
      expect(ticketOrigin(origin, 'sim:4096'), origin).toBe(true);
    for (const origin of ['null', 'https://evil.example', 'http://opencode.ai.evil.example'])
      expect(ticketOrigin(origin, 'sim:4096'), origin).toBe(false);
  });
});

describe('connect', () => {
  it('answers a request that is no WebSocket handshake 400, and an unknown PTY 404', () => {
    const engine = engineOf();
    expect(call(engine, 'v2.pty.connect', { ptyID: SHELL })).toMatchObject({
      _tag: 'InvalidRequestError',
      status: 400,
    });
    expect(call(engine, 'v2.pty.connect', { ptyID: 'pty_nope', upgrade: true })).toMatchObject({
      _tag: 'PtyNotFoundError',
    });
  });

  it('replays from the cursor, then says where it ended, then shows what typing prints', () => {
    const engine = engineOf();
    const start = worldOf(engine).ptys.get(SHELL)!.output;
    const { socket, handlers } = connect(engine, SHELL, { cursor: '10' });
    expect(socket.sent).toEqual([start.slice(10), cursorFrame(start.length)]);
    expect(Buffer.from(socket.sent[1] as Uint8Array).toString('latin1')).toBe(`\x00{"cursor":${start.length}}`);
    handlers.message('npm test\r');
    expect(socket.sent.slice(2)).toEqual(['npm test\r\nTests: 12 passed\r\n$ ']);
    const late = connect(engine, SHELL, { cursor: '-1' });
    expect(late.socket.sent).toEqual([cursorFrame(start.length + 30)]);
    expect(worldOf(engine).ptys.get(SHELL)?.connections).toBe(2);
    handlers.message('exit\r');
    expect(socket.sent.at(-1)).toBe('exit\r\nlogout\r\n');
    expect(socket.closedWith).toEqual([1000, '']);
    expect(late.socket.closedWith).toEqual([1000, '']);
    expect(
      events(engine)
        .filter((e) => e.type === 'pty.exited')
        .map((e) => e.data),
    ).toEqual([{ id: SHELL, exitCode: 0 }]);
    handlers.closed();
    late.handlers.closed();
    expect(worldOf(engine).ptys.get(SHELL)).toMatchObject({ status: 'exited', connections: 0 });
  });

  it('reads the cursor as the real server does', () => {
    expect([undefined, '', 'abc', '1.5', '0', '7', '-1', '-9', '999'].map((c) => replayFrom(c, 50))).toEqual([
      0, 0, 0, 0, 0, 7, 50, 50, 999,
    ]);
  });

  it('closes a connection to an exited PTY at once (4404), and one whose PTY is removed (1000)', () => {
    const engine = engineOf();
    expect(connect(engine, DONE).socket).toMatchObject({ sent: [], closedWith: [4404, 'session exited'] });
    const { socket } = connect(engine, SHELL);
    call(engine, 'v2.pty.remove', { ptyID: SHELL });
    expect(socket.closedWith).toEqual([1000, '']);
  });

  it('closes its connections when the world restarts, and then counts nothing against the new one', () => {
    const engine = engineOf();
    const { socket, handlers } = connect(engine, SHELL);
    engine.reset();
    expect(socket.closedWith).toEqual([1012, 'the simulated world restarted']);
    handlers.closed();
    expect(worldOf(engine).ptys.get(SHELL)?.connections).toBe(0);
  });

  it('opens with a ticket once, and refuses another PTY its ticket', () => {
    const engine = engineOf();
    const header = { 'x-opencode-ticket': '1' };
    const { ticket } = data(call(engine, 'v2.pty.connectToken', { ptyID: SHELL, headers: header })) as {
      ticket: string;
    };
    const other = (ptyID: string) => call(engine, 'v2.pty.connect', { ptyID, query: { ticket }, upgrade: true });
    expect(other(DONE)).toMatchObject({ _tag: 'ForbiddenError' });
    expect(ok(other(SHELL)).answer.status).toBe(101);
    expect(other(SHELL)).toMatchObject({ _tag: 'ForbiddenError', status: 403 });
  });

  it('refuses a ticket past its 60 s on the virtual clock', () => {
    const engine = engineOf();
    const header = { 'x-opencode-ticket': '1' };
    const { ticket } = data(call(engine, 'v2.pty.connectToken', { ptyID: SHELL, headers: header })) as {
      ticket: string;
    };
    engine.advance(60_000);
    expect(call(engine, 'v2.pty.connect', { ptyID: SHELL, query: { ticket }, upgrade: true })).toMatchObject({
      _tag: 'ForbiddenError',
    });
  });

  it('keeps only the most recent output, its cursor still counting from the first character', () => {
    const engine = engineOf();
    const { handlers } = connect(engine, SHELL);
    const line = `echo ${'x'.repeat(60_000)}\r`;
    for (let i = 0; i < 20; i++) handlers.message(line);
    const pty = worldOf(engine).ptys.get(SHELL)!;
    expect(pty.output.length).toBe(PTY_LIMITS.ptyOutput);
    expect(pty.dropped).toBeGreaterThan(0);
    const late = connect(engine, SHELL, { cursor: '0' });
    expect((late.socket.sent[0] as string).length).toBe(PTY_LIMITS.ptyOutput);
    expect(late.socket.sent[1]).toEqual(cursorFrame(pty.dropped + PTY_LIMITS.ptyOutput));
  });

  it('refuses a connection past the bound with SimResourceLimitError', () => {
    const engine = engineOf();
    for (let i = 0; i < PTY_LIMITS.ptyConnection; i++) connect(engine, SHELL);
    expect(call(engine, 'v2.pty.connect', { ptyID: SHELL, upgrade: true })).toMatchObject({
      _tag: 'SimResourceLimitError',
      status: 429,
    });
  });
});

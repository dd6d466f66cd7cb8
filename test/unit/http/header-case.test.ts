/**
 * Header names are case-insensitive on every path into the pipeline: a request whose names keep the case its
 * client wrote (`Content-Type`, `PREFER`, `X-Sim-Partition`, `Authorization`) is read as one in lower case, by
 * each host that reads requests: the CLI's lean reader and Node's parser (on the same server, over a raw
 * socket, so the names reach it exactly as written), `createApp` (supertest, and a host app's middleware that
 * adds a header of its own), and the Fetch API's reader (msw's, given a happy-dom `Request`, whose `Headers`
 * keeps the case).
 */
import express from 'express';
import { Window } from 'happy-dom';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, createSimulator } from '../../../src/hosts/app.js';
import type { SimulatorHandle } from '../../../src/handle/simulator-handle.js';
import { fetchHost } from '../../../src/http/fetch-io.js';
import { readLean } from '../../../src/http/lean-http.js';
import { lowerCaseNames } from '../../../src/http/request.js';
import { startSimulator } from '../../../src/index.js';
import { rawExchange } from '../../support/raw-http.js';

const SESSION = 'ses_dfc5ae513ffePKUBK7HkVp5zCB';
const AUTH = { user: 'dev', password: 'correct horse' };
const BASIC = `Basic ${Buffer.from(`${AUTH.user}:${AUTH.password}`).toString('base64')}`;
const LIMIT = 1024 * 1024;

interface Sent {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

interface Got {
  status: number;
  /** Names in lower case, as every client reads them. */
  headers: Record<string, string>;
  body: { _tag?: string; data?: { id?: string } };
}

type Send = (sent: Sent) => Promise<Got>;

const json = (text: string): Got['body'] => (text ? (JSON.parse(text) as Got['body']) : {});

/** The four headers, as a client that capitalises them sends them, against each host. */
function honoursEveryCase(send: () => Send): void {
  it('reads Content-Type, Authorization and X-Sim-Partition: a JSON body accepted, in the partition named', async () => {
    const created = await send()({
      method: 'POST',
      path: '/api/session',
      headers: { 'Content-Type': 'application/json', Authorization: BASIC, 'X-Sim-Partition': 'Tab-A' },
      body: JSON.stringify({ agent: 'build' }),
    });
    expect(created.body._tag, JSON.stringify(created.body)).toBeUndefined();
    expect(created.status).toBe(200);
    expect(created.headers['x-sim-partition']).toBe('Tab-A');
    const id = created.body.data?.id ?? '';
    const there = await send()({
      method: 'GET',
      path: `/api/session/${id}`,
      headers: { AUTHORIZATION: BASIC, 'x-SIM-partition': 'Tab-A' },
    });
    expect(there.status).toBe(200);
    // Made in that partition only: the default one has not heard of it.
    const elsewhere = await send()({ method: 'GET', path: `/api/session/${id}`, headers: { Authorization: BASIC } });
    expect(elsewhere.body._tag).toBe('SessionNotFoundError');
  });

  it('reads PREFER: the status asked for', async () => {
    const answer = await send()({
      method: 'GET',
      path: `/api/session/${SESSION}`,
      headers: { PREFER: 'code=404', Authorization: BASIC },
    });
    expect(answer.status).toBe(404);
    expect(answer.headers['x-sim-layer']).toBe('fallback');
  });

  it('refuses the same request without Authorization: auth is on', async () => {
    const answer = await send()({ method: 'GET', path: `/api/session/${SESSION}`, headers: { PREFER: 'code=404' } });
    expect(answer.status).toBe(401);
    expect(answer.body._tag).toBe('UnauthorizedError');
  });
}

/** The request as bytes, names exactly as given. */
function wire({ method, path, headers, body = '' }: Sent, extra: Record<string, string> = {}): string {
  const lines = Object.entries({ Host: '127.0.0.1', ...headers, ...extra, 'Content-Length': String(body.length) });
  return `${method} ${path} HTTP/1.1\r\n${lines.map(([name, value]) => `${name}: ${value}`).join('\r\n')}\r\n\r\n${body}`;
}

describe('the CLI’s server, over a raw socket', () => {
  let sim: SimulatorHandle;
  let port = 0;
  beforeAll(async () => {
    sim = await startSimulator({ scenario: 'default', auth: AUTH });
    port = Number(new URL(sim.url).port);
  }, 60_000);
  afterAll(() => sim.close());

  const over =
    (extra: Record<string, string>, lean: boolean): Send =>
    async (sent) => {
      const bytes = wire(sent, extra);
      // Which reader takes it: the lean one, or (from a request it leaves, on) Node's.
      expect(readLean(Buffer.from(bytes), LIMIT, 65536) !== undefined).toBe(lean);
      const { status, headers, body } = await rawExchange(port, bytes);
      return { status, headers, body: json(body) };
    };

  describe('read by the lean reader', () => honoursEveryCase(() => over({}, true)));
  // `Connection: close` is one the lean reader leaves to Node.
  describe('read by Node’s parser', () => honoursEveryCase(() => over({ Connection: 'close' }, false)));
});

describe('createApp, through supertest', () => {
  let app: Awaited<ReturnType<typeof createApp>>;
  beforeAll(async () => {
    app = await createApp({ scenario: 'default', auth: AUTH });
  }, 60_000);
  afterAll(() => app.sim.partitions.dispose());

  honoursEveryCase(() => async ({ method, path, headers, body }) => {
    const test = method === 'GET' ? request(app).get(path) : request(app).post(path);
    const response = await test.set(headers).send(body);
    return { status: response.status, headers: response.headers as Record<string, string>, body: json(response.text) };
  });

  it('reads a header a host app’s middleware added in another case', async () => {
    const host = express();
    host.use((req, _res, next) => {
      // As a host app might route its users' tabs: in a case of its own choosing.
      req.headers['X-Sim-Partition'] = 'from-the-host';
      req.headers.Authorization = BASIC;
      next();
    });
    host.use(app);
    const answer = await request(host).get(`/api/session/${SESSION}`);
    expect(answer.status).toBe(200);
    expect(answer.headers['x-sim-partition']).toBe('from-the-host');
  });
});

describe('the Fetch API’s reader (msw’s), given happy-dom’s Request', () => {
  const window = new Window({ url: 'http://localhost:4096/' });
  let fetch: (request: Request) => Promise<Response>;
  let dispose = () => {};
  beforeAll(async () => {
    const { decide, sim } = await createSimulator({ scenario: 'default', auth: AUTH, log: () => {} });
    fetch = fetchHost(decide, sim.config.bodyLimit);
    dispose = () => sim.partitions.dispose();
  }, 60_000);
  afterAll(async () => {
    dispose();
    await window.happyDOM.close();
  });

  it('is handed names as the page wrote them', () => {
    const names: string[] = [];
    new window.Request('http://localhost:4096/', { headers: { 'Content-Type': 'application/json' } }).headers.forEach(
      (_value, name) => names.push(name),
    );
    // What makes this reader's lowering needed; should happy-dom follow the Fetch standard one day, it is moot.
    expect(names).toEqual(['Content-Type']);
  });

  honoursEveryCase(() => async ({ method, path, headers, body }) => {
    const page = new window.Request(`http://localhost:4096${path}`, { method, headers, body });
    const response = await fetch(page as unknown as Request);
    const seen: Record<string, string> = {};
    response.headers.forEach((value, name) => (seen[name] = value));
    return { status: response.status, headers: seen, body: json(await response.text()) };
  });
});

describe('lowerCaseNames', () => {
  it('gives back the same object when every name is lower case already, as Node’s are', () => {
    const headers = { host: 'x', 'content-type': 'application/json' };
    expect(lowerCaseNames(headers)).toBe(headers);
  });

  it('lowers the others, joining names that meet as Node joins a repeated header', () => {
    expect(
      lowerCaseNames({
        Accept: 'a',
        accept: 'b',
        Cookie: 'a=1',
        cookie: 'b=2',
        'Set-Cookie': ['a=1'],
        'set-cookie': ['b=2'],
        'X-Gone': undefined,
      }),
    ).toEqual({ accept: 'a, b', cookie: 'a=1; b=2', 'set-cookie': ['a=1', 'b=2'] });
  });

  it('keeps a name a plain object already has as a header like any other', () => {
    expect(lowerCaseNames({ Constructor: 'x' })).toEqual({ constructor: 'x' });
  });
});

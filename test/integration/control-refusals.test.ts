/**
 * The control plane's refusals at its edges: a clock pushed past what a date holds, a misspelt field or
 * `Prefer` control, a misspelt `/__partition/` or `/__sim/` prefix, a body past the limit. Each is a 4xx that
 * says what was meant, and leaves the partition serving.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/hosts/app.js';
import { MAX_TIME, MAX_TIME_ISO } from '../../src/text/duration.js';
import { MAX_BODY_DEPTH } from '../../src/exchange/exchange.js';
import { startServer, type RunningSimulator } from '../../src/hosts/server.js';
import { simulatorHandlers } from '../../src/msw/index.js';
import { SimControlRequestError } from '../../src/errors/sim-errors.js';
import { rawExchange } from '../support/raw-http.js';

type App = Awaited<ReturnType<typeof createApp>>;

const LIMIT = 4096;
let app: App;

// Loading the spec and Prism takes seconds on a busy machine.
const LOADING = 60_000;

beforeAll(async () => {
  app = await createApp({ scenario: 'busy-session', bodyLimit: LIMIT, log: () => {} });
}, LOADING);

const advance = (body: unknown, partition = 'default') =>
  request(app)
    .post('/__sim/clock/advance')
    .set('x-sim-partition', partition)
    .send(body as object);

describe('POST /__sim/clock/advance', () => {
  it('names an unknown field, with the one meant', async () => {
    const res = await advance({ bye: '1m' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      _tag: 'SimControlRequestError',
      message: 'Unknown field "bye" in a clock advance. Did you mean "by"?',
      hint: expect.stringContaining('{"by": "30s"}'),
    });
    expect((await advance({ milliseconds: 5 })).body.message).toBe('Unknown field "milliseconds" in a clock advance.');
  });

  it('refuses by and ms together, and values that are no amount of time', async () => {
    expect((await advance({ by: '1s', ms: 1000 })).body.message).toContain('by or ms, not both');
    for (const body of [{}, { ms: '5000' }, { ms: -1 }, { by: '1 minute' }, { by: true }, { ms: null }]) {
      const res = await advance(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body._tag).toBe('SimControlRequestError');
    }
    // by takes a number of ms as a scenario's durations do.
    const before = (await request(app).get('/__sim/clock').set('x-sim-partition', 'by-number')).body.now as number;
    expect((await advance({ by: 250 }, 'by-number')).body.now).toBe(before + 250);
  });

  it('refuses an advance past the last instant a date holds, naming the largest, and the partition keeps serving', async () => {
    const partition = 'far-future';
    const now = (await request(app).get('/__sim/clock').set('x-sim-partition', partition)).body.now as number;
    const refused = await advance({ ms: 9_000_000_000_000_000 }, partition);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      _tag: 'SimControlRequestError',
      message: `Advancing by 9000000000000000 ms would take the clock past ${MAX_TIME_ISO}, the last instant a date can hold`,
      hint: expect.stringContaining(`is ${MAX_TIME - now} ms (about`),
    });
    // A duration's text so long it reads as Infinity is no amount of time.
    expect((await advance({ by: `${'9'.repeat(400)}h` }, partition)).status).toBe(400);
    const clock = await request(app).get('/__sim/clock').set('x-sim-partition', partition);
    expect(clock.status).toBe(200);
    expect(clock.body.now).toBe(now);
    await request(app).post('/api/session').set('x-sim-partition', partition).send({}).expect(200);
  });

  it('goes up to that last instant exactly, and not a millisecond further', async () => {
    const partition = 'the-end';
    const now = (await request(app).get('/__sim/clock').set('x-sim-partition', partition)).body.now as number;
    const last = await advance({ ms: MAX_TIME - now }, partition);
    expect(last.status).toBe(200);
    expect(last.body).toMatchObject({ now: MAX_TIME, iso: MAX_TIME_ISO });
    const past = await advance({ ms: 1 }, partition);
    expect(past.status).toBe(400);
    expect(past.body.hint).toContain('is 0 ms');
    await request(app).post('/api/session').set('x-sim-partition', partition).send({}).expect(200);
    await request(app).get('/__sim/state').set('x-sim-partition', partition).expect(200);
  });
});

describe("a handle's clock.advance (msw's, in process)", () => {
  it(
    'refuses past the last instant in JS terms, and the clock still reads',
    async () => {
      const sim = await simulatorHandlers({ scenario: 'busy-session', log: () => {} });
      try {
        const now = await sim.clock.now();
        const refused = await sim.clock.advance(9e15).catch((error: unknown) => error);
        expect(refused).toBeInstanceOf(SimControlRequestError);
        expect((refused as Error).message).toContain(`the last instant a date can hold (The largest advance from now`);
        await expect(sim.clock.advance('1 minute')).rejects.toThrow("sim.clock.advance('30s')");
        expect(await sim.clock.now()).toBe(now);
        expect(await sim.clock.advance('1m')).toBe(now + 60_000);
      } finally {
        await sim.close();
      }
    },
    LOADING,
  );
});

describe('Prefer', () => {
  it('refuses a misspelt control with the one meant, as a misspelt example is refused', async () => {
    const res = await request(app).get('/api/plugin').set('prefer', 'cod=409');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      _tag: 'SimPreferenceError',
      message: 'Prefer: cod=409 is not a control the simulator knows. Did you mean "code"?',
    });
  });

  it('ignores the standard preferences it does not read', async () => {
    const res = await request(app).get('/api/plugin').set('prefer', 'return=minimal, respond-async, wait=10');
    expect(res.status).toBe(200);
    expect(res.headers['x-sim-layer']).not.toBe('simulator');
  });
});

describe('a misspelt prefix of the simulator', () => {
  it.each([
    ['/__partiton/alice/api/session', '/__partition/alice/api/session'],
    ['/partition/alice/api/session', '/__partition/alice/api/session'],
    ['/__simm/clock', '/__sim/clock'],
    ['/_sim/clock/advance', '/__sim/clock/advance'],
  ])('%s points at %s instead of operations', async (path, meant) => {
    const res = await request(app).get(path);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ _tag: 'SimRouteNotFoundError', hint: `Did you mean ${meant}?`, closest: [] });
  });

  it('leaves an API path to the closest operations', async () => {
    const res = await request(app).get('/api/sesion');
    expect(res.body.hint).toMatch(/^Closest operations: /);
  });
});

describe('a control body past the limit', () => {
  const big = { yaml: 'x'.repeat(LIMIT * 2) };

  it.each([
    ['PUT', '/__sim/scenario'],
    ['POST', '/__sim/rules'],
    ['POST', '/__sim/clock/advance'],
  ])('%s %s answers 413 naming the limit and the option that raises it', async (method, path) => {
    const res = await request(app)[method === 'PUT' ? 'put' : 'post'](path).send(big);
    expect(res.status).toBe(413);
    expect(res.body).toEqual({
      _tag: 'SimRequestRefusedError',
      message: `Request body is larger than the simulator accepts (${LIMIT} bytes)`,
      hint: expect.stringMatching(/bodyLimit.*--body-limit/),
    });
  });

  it('answers a body nested past the depth the simulator parses as such, not as an empty one', async () => {
    const deep = `{"scenario":${'['.repeat(MAX_BODY_DEPTH)}${']'.repeat(MAX_BODY_DEPTH)}}`;
    const res = await request(app).put('/__sim/scenario').set('content-type', 'application/json').send(deep);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(`The body nests deeper than ${MAX_BODY_DEPTH} levels`);
  });

  describe('on the command line server', () => {
    let sim: RunningSimulator;
    beforeAll(async () => {
      sim = await startServer({ port: 0, scenario: 'busy-session', bodyLimit: LIMIT, log: () => {} });
    }, LOADING);
    afterAll(() => sim.close());

    it('answers 413 on its socket', async () => {
      const body = JSON.stringify(big);
      const answer = await rawExchange(
        sim.port,
        `PUT /__sim/scenario HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
      );
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toMatchObject({
        _tag: 'SimRequestRefusedError',
        message: `Request body is larger than the simulator accepts (${LIMIT} bytes)`,
      });
      // The partition was not switched or emptied by it.
      const scenario = await rawExchange(sim.port, 'GET /__sim/scenarios HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n');
      expect(JSON.parse(scenario.body).current).toBe('busy-session');
    });
  });
});

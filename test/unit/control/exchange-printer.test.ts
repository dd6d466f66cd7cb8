import { describe, expect, it } from 'vitest';
import {
  MAX_PENDING,
  createExchangePrinter,
  exchangeRecord,
  formatExchangeLine,
  shortViolation,
  wantsColour,
  type ExchangeRecord,
} from '../../../src/control/exchange-printer.js';
import { resolveConfig } from '../../../src/config/config.js';
import { SimConfigError } from '../../../src/errors/sim-errors.js';
import { createEventLog, type ExchangeEntry, type Unnumbered } from '../../../src/state/log.js';

const NINE = Date.UTC(2026, 10, 22, 9, 0, 6);

function record(fields: Partial<ExchangeRecord> = {}): ExchangeRecord {
  return {
    seq: 3,
    time: NINE,
    iso: new Date(NINE).toISOString(),
    partition: 'default',
    id: 'req_000002',
    method: 'GET',
    path: '/api/session/ses_x',
    operationId: 'v2.session.get',
    layer: 'scenario',
    status: 200,
    ...fields,
  };
}

function entry(fields: Partial<Unnumbered<ExchangeEntry>> = {}): Unnumbered<ExchangeEntry> {
  return {
    kind: 'exchange',
    id: 'req_000001',
    time: NINE,
    method: 'GET',
    path: '/api/plugin',
    operationId: 'v2.plugin.list',
    layer: 'fallback',
    status: 200,
    ...fields,
  };
}

/** A stand-in for standard output that keeps each write. */
function output(isTTY = false) {
  const writes: string[] = [];
  return { writes, out: { isTTY, write: (text: string) => writes.push(text) > 0 } };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('formatExchangeLine', () => {
  it('says when, which request, what was asked, what came back and who answered', () => {
    expect(formatExchangeLine(record())).toBe(
      '09:00:06.000 req_000002 GET /api/session/ses_x → 200 v2.session.get (scenario)',
    );
  });

  it("adds an error's _tag, the rule that answered and the partition when it is not the default", () => {
    const line = formatExchangeLine(
      record({ partition: 'w1', status: 404, tag: 'SessionNotFoundError', layer: 'rule', rule: 'runtime rule rul_1' }),
    );
    expect(line).toBe(
      '09:00:06.000 [w1] req_000002 GET /api/session/ses_x → 404 SessionNotFoundError v2.session.get (rule: runtime rule rul_1)',
    );
  });

  it('counts the violations and gives the first one in short', () => {
    const line = formatExchangeLine(
      record({
        violations: [
          { side: 'response', in: 'body', field: 'id', message: "must have required property 'id'" },
          { side: 'request', in: 'query', message: 'limit must be integer' },
        ],
      }),
    );
    expect(line).toMatch(/\(scenario\) 2 violations: answer body: must have required property 'id'$/);
  });

  it('names an exchange no operation matched, and a dropped connection', () => {
    expect(formatExchangeLine(record({ operationId: undefined, status: 0, layer: 'rule' }))).toBe(
      '09:00:06.000 req_000002 GET /api/session/ses_x → dropped - (rule)',
    );
  });

  it('marks an answer a rule gave outside the spec, in the line and the record', () => {
    const marked = { path: '/api/gateway/openai', operationId: undefined, layer: 'rule' as const, status: 502 };
    expect(formatExchangeLine(record({ ...marked, rule: 'runtime rule rul_1', outsideSpec: true }))).toBe(
      '09:00:06.000 req_000002 GET /api/gateway/openai → 502 - (rule: runtime rule rul_1) outside the spec',
    );
    const logged = { ...entry({ ...marked, outsideSpec: true }), seq: 7 };
    expect(exchangeRecord(logged, 'default')).toMatchObject({ outsideSpec: true, status: 502 });
    expect(exchangeRecord({ ...logged, outsideSpec: undefined }, 'default')).not.toHaveProperty('outsideSpec');
  });

  it("gives a record its conditional fields in the record's order", () => {
    const full = exchangeRecord(
      { ...entry({ tag: 'NotFoundError', rule: 'r', outsideSpec: true, violations: [] }), seq: 2 },
      'p',
    );
    expect(full.iso).toBe(new Date(NINE).toISOString());
    expect(Object.keys(full).slice(7)).toEqual(['operationId', 'layer', 'status', 'tag', 'rule', 'outsideSpec']);
  });

  it('colours only when asked, and says the same in colour', () => {
    const plain = formatExchangeLine(record({ status: 500, tag: 'UnknownError' }));
    expect(plain).not.toContain('\u001b[');
    const coloured = formatExchangeLine(record({ status: 500, tag: 'UnknownError' }), { colour: true });
    expect(coloured).toContain('\u001b[31m500\u001b[39m');
    // eslint-disable-next-line no-control-regex
    expect(coloured.replace(/\u001b\[\d+m/g, '')).toBe(plain);
  });

  it('puts the headers of both sides under the line when they are given', () => {
    const line = formatExchangeLine(
      record({
        request: { headers: { authorization: '[REDACTED]', accept: '*/*' } },
        response: { headers: {} },
      }),
    );
    expect(line.split('\n').slice(1)).toEqual(['    > authorization: [REDACTED]', '    > accept: */*', '    < (none)']);
  });
});

describe('shortViolation', () => {
  it('keeps a violation to a line: one space for any run of white space, cut with an ellipsis', () => {
    const short = shortViolation({ side: 'request', in: 'body', message: `must be\n  one of ${'x'.repeat(200)}` });
    expect(short).toHaveLength(100);
    expect(short).toMatch(/^request body: must be one of x+…$/);
  });
});

describe('wantsColour', () => {
  it.each([
    [{}, true, true],
    [{}, false, false],
    [{ NO_COLOR: '1' }, true, false],
    [{ NO_COLOR: '' }, true, true],
    [{ TERM: 'dumb' }, true, false],
    [{ NODE_DISABLE_COLORS: '1' }, true, false],
    [{ FORCE_COLOR: '1' }, false, true],
    [{ FORCE_COLOR: '' }, false, true],
    [{ FORCE_COLOR: '0' }, true, false],
    [{ FORCE_COLOR: 'false' }, true, false],
    [{ FORCE_COLOR: '1', NO_COLOR: '1' }, false, true],
  ])('%j on a terminal: %s → %s', (env, isTTY, expected) => {
    expect(wantsColour(env, isTTY)).toBe(expected);
  });
});

describe('createExchangePrinter', () => {
  it("reads the log: a turn's first exchange at once, the rest of the turn in one write after it", async () => {
    const { writes, out } = output();
    const printer = createExchangePrinter('lines', { out, env: {} });
    const log = createEventLog();
    printer.read(log, 'default');
    log.append(entry());
    log.append({ kind: 'control', time: NINE, action: 'advance' });
    // Written before the request's answer would leave: a client sending one request at a time finds it there.
    expect(writes).toEqual(['09:00:06.000 req_000001 GET /api/plugin → 200 v2.plugin.list (fallback)\n']);
    log.append(entry({ id: 'req_000002', status: 404, tag: 'NotFoundError' }));
    log.append(entry({ id: 'req_000003', status: 204 }));
    expect(writes).toHaveLength(1);
    await turn();
    expect(writes).toHaveLength(2);
    expect(writes[1]?.trimEnd().split('\n')).toEqual([
      '09:00:06.000 req_000002 GET /api/plugin → 404 NotFoundError v2.plugin.list (fallback)',
      '09:00:06.000 req_000003 GET /api/plugin → 204 v2.plugin.list (fallback)',
    ]);
    // The next turn starts afresh.
    log.append(entry({ id: 'req_000004' }));
    expect(writes).toHaveLength(3);
  });

  it('colours on a terminal unless NO_COLOR says not', async () => {
    for (const [env, coloured] of [
      [{}, true],
      [{ NO_COLOR: '1' }, false],
    ] as const) {
      const { writes, out } = output(true);
      const log = createEventLog();
      createExchangePrinter('lines', { out, env }).read(log, 'default');
      log.append(entry());
      await turn();
      expect(writes.join('').includes('\u001b['), JSON.stringify(env)).toBe(coloured);
    }
  });

  it('writes one JSON object a line, with the partition, for machines', async () => {
    const { writes, out } = output(true);
    const log = createEventLog();
    createExchangePrinter('json', { out, env: { FORCE_COLOR: '1' } }).read(log, 'w2');
    log.append(entry({ violations: [{ side: 'response', in: 'status', message: 'status 502 is not declared' }] }));
    await turn();
    const lines = writes.join('').trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string)).toEqual({
      seq: 1,
      time: NINE,
      iso: '2026-11-22T09:00:06.000Z',
      partition: 'w2',
      id: 'req_000001',
      method: 'GET',
      path: '/api/plugin',
      operationId: 'v2.plugin.list',
      layer: 'fallback',
      status: 200,
      violations: [{ side: 'response', in: 'status', message: 'status 502 is not declared' }],
    });
  });

  it('hands a function each record, and a failing function is logged, not thrown', async () => {
    const seen: ExchangeRecord[] = [];
    const logged: string[] = [];
    const log = createEventLog();
    let calls = 0;
    createExchangePrinter(
      (r) => {
        seen.push(r);
        if (++calls === 1) throw new Error('reader broke');
      },
      { log: (line) => logged.push(line) },
    ).read(log, 'default');
    log.append(entry());
    log.append(entry({ id: 'req_000002' }));
    // Never inside the request: the function is called after the turn.
    expect(seen).toEqual([]);
    await turn();
    expect(seen.map((r) => r.id)).toEqual(['req_000001', 'req_000002']);
    expect(logged).toEqual([expect.stringContaining('reader broke')]);
  });

  it('masks the secret values clients sent wherever they turn up', async () => {
    const { writes, out } = output();
    const log = createEventLog();
    const scrub = (text: string) => text.replaceAll('tok-123456', '[REDACTED]');
    createExchangePrinter('lines', { out, scrub, env: {} }).read(log, 'default');
    log.append(entry({ path: '/api/pty/tok-123456' }));
    await turn();
    expect(writes.join('')).toContain('/api/pty/[REDACTED]');
    expect(writes.join('')).not.toContain('tok-123456');
  });

  it('reads headers only when asked, from the masked details', async () => {
    const { writes, out } = output();
    const log = createEventLog();
    createExchangePrinter({ format: 'json', headers: true }, { out }).read(log, 'default');
    const sides = () => ({
      request: { method: 'GET', path: '/api/plugin', query: {}, headers: { authorization: '[REDACTED]' } },
      response: { status: 200, kind: 'json' as const, headers: { 'content-type': 'application/json' } },
    });
    log.append(entry({ details: { weight: 0, sides } }));
    await turn();
    const printed = JSON.parse(writes.join('')) as ExchangeRecord;
    expect(printed.request).toEqual({ headers: { authorization: '[REDACTED]' } });
    expect(printed.response).toEqual({ headers: { 'content-type': 'application/json' } });
  });

  it('stays bounded when the output cannot keep up: the lines past the bound are counted', async () => {
    const { writes, out } = output();
    const log = createEventLog(100, { details: 1 });
    createExchangePrinter('lines', { out, env: {} }).read(log, 'default');
    for (let i = 0; i < MAX_PENDING + 5; i++) log.append(entry());
    await turn();
    const lines = writes.join('').trimEnd().split('\n');
    // The first was written at once; MAX_PENDING waited; the rest were counted.
    expect(lines).toHaveLength(1 + MAX_PENDING + 1);
    expect(lines.at(-1)).toBe('(4 exchanges not printed: the output could not keep up)');
  });

  it('flushes at once when told (the simulator closing)', () => {
    const { writes, out } = output();
    const log = createEventLog();
    const printer = createExchangePrinter('lines', { out, env: {} });
    printer.read(log, 'default');
    log.append(entry());
    log.append(entry({ id: 'req_000002' }));
    expect(writes).toHaveLength(1);
    printer.flush();
    expect(writes).toHaveLength(2);
    expect(writes[1]).toContain('req_000002');
  });
});

describe('exchangeRecord', () => {
  it('leaves out what the exchange does not have', () => {
    const log = createEventLog();
    const kept = log.append(entry({ operationId: undefined }));
    expect(Object.keys(exchangeRecord(kept, 'default'))).toEqual([
      'seq',
      'time',
      'iso',
      'partition',
      'id',
      'method',
      'path',
      'layer',
      'status',
    ]);
  });
});

describe('logExchanges in SimOptions', () => {
  it('takes a format, a function or { format, headers } and refuses anything else, naming it', () => {
    expect(resolveConfig({ logExchanges: 'json' }).logExchanges).toBe('json');
    expect(resolveConfig({ logExchanges: { format: 'lines', headers: true } }).logExchanges).toEqual({
      format: 'lines',
      headers: true,
    });
    expect(() => resolveConfig({ logExchanges: 'line' as 'lines' })).toThrow(SimConfigError);
    expect(() => resolveConfig({ logExchanges: { format: 'yaml' } as never })).toThrow(
      'logExchanges must be "lines", "json", a function, or { format, headers }, got "yaml"',
    );
  });
});

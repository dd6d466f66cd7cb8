/**
 * Every answer of every operation, checked against the spec with an independent ajv validator: a valid
 * request, each declared status forced with `Prefer: code=…`, and a matrix of bad input. Only declared
 * statuses and `_tag`s may come back, and never a 5xx for a client's mistake.
 */
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp, type SimApp } from '../../src/hosts/app.js';
import {
  declaredStatuses,
  declaredTags,
  operation,
  operations,
  parameters,
  requestBody,
  specProblems,
} from '../support/spec-validator.js';
import { NOT_JSON, STREAMING, url, validRequests, type SampleRequest } from '../support/requests.js';

let app: SimApp;
beforeAll(async () => {
  app = await createApp({ log: () => {} });
});

function send(
  sample: SampleRequest,
  options: { query?: string; body?: unknown; rawBody?: string; contentType?: string; prefer?: string } = {},
) {
  let req = request(app)[sample.method.toLowerCase() as 'get'](url(sample, options.query));
  if (options.prefer) req = req.set('Prefer', options.prefer);
  if (options.rawBody !== undefined)
    return req.set('Content-Type', options.contentType ?? 'application/json').send(options.rawBody);
  const body = 'body' in options ? options.body : sample.body;
  return body === undefined ? req : req.set('Content-Type', 'application/json').send(JSON.stringify(body));
}

function expectSpecValid(operationId: string, res: request.Response): void {
  const body = res.status === 204 ? undefined : res.body;
  expect(
    specProblems(operationId, res.status, body, res.headers['content-type']),
    `${operationId} ${res.status} ${res.text}`,
  ).toEqual([]);
  expect(res.headers['x-sim-violations']).toBeUndefined();
}

function expectDeclaredError(operationId: string, res: request.Response): void {
  expect(res.status, res.text).toBeGreaterThanOrEqual(400);
  expect(res.status, res.text).toBeLessThan(500);
  expectSpecValid(operationId, res);
  const tag = res.body._tag ?? res.body.name;
  expect(declaredTags(operationId, res.status)).toContain(tag);
}

// The event stream never ends, so it is checked over a real socket (test/integration/event-stream.test.ts).
const EVENT_STREAM = 'v2.event.subscribe';
const answering = operations.filter((o) => !NOT_JSON.has(o.operationId));

it("covers every operation of the spec: the interface document's 23, its event stream, and the real server's", () => {
  const source = (o: (typeof operations)[number]) => String(o.raw['x-source']).split(/[ ;]/)[0];
  expect(operations.filter((o) => source(o) === 'interface-document')).toHaveLength(24);
  expect(operations.filter((o) => source(o) === 'real-server')).toHaveLength(67);
  expect(answering).toHaveLength(87);
  expect(operations.map((o) => o.operationId)).toContain(EVENT_STREAM);
  expect(Object.keys(validRequests).sort()).toEqual(
    operations
      .map((o) => o.operationId)
      .filter((id) => !STREAMING.has(id))
      .sort(),
  );
});

const BAD_ID = 'bad-id';

/** Path parameters whose schema carries a pattern, so an id of the wrong shape can be told apart from an unknown one. */
function patternedPathParams(operationId: string): { name: string; pattern: string }[] {
  return parameters(operationId)
    .filter((p) => p.in === 'path' && typeof p.schema?.pattern === 'string')
    .map((p) => ({ name: p.name as string, pattern: p.schema.pattern as string }));
}
const patternedOperations = operations.map((o) => o.operationId).filter((id) => patternedPathParams(id).length > 0);

// The probe once reached only the one operation that inlines its pattern; these guard against it shrinking again.
it('probes a wrong-pattern path id on every operation with a patterned path parameter', () => {
  // Counted by hand in the spec: the 26 operations with a {sessionID}, 2 under /api/shell/{id}, 5 under
  // /api/pty/{ptyID} and 1 under /experimental/workspace/{id}. The PTY's WebSocket is probed elsewhere.
  expect(patternedOperations).toHaveLength(34);
  // Cross-check from the path templates alone, without the parameter definitions the probe reads.
  const byTemplate = operations
    .filter((o) => /\{sessionID\}|^\/api\/shell\/\{id\}|\{ptyID\}|^\/experimental\/workspace\/\{id\}/.test(o.path))
    .map((o) => o.operationId);
  expect([...patternedOperations].sort()).toEqual(byTemplate.sort());
  expect(patternedPathParams('v2.session.form.reply').map((p) => p.name)).toEqual(['sessionID', 'formID']);
  expect(patternedPathParams('v2.session.question.reply').map((p) => p.name)).toEqual(['sessionID', 'requestID']);
  for (const id of patternedOperations)
    for (const { pattern } of patternedPathParams(id)) expect(new RegExp(pattern, 'u').test(BAD_ID)).toBe(false);
});

/**
 * Defines a cell only where it applies (an operation without a body has no malformed-JSON cell), so the
 * run lists no skipped tests that could never have run.
 */
function applies(condition: boolean): typeof it | ((name: string, fn: () => Promise<void>) => void) {
  return condition ? it : () => {};
}

describe.each(answering.map((o) => o.operationId))('%s', (operationId) => {
  const sample = validRequests[operationId] as SampleRequest;
  const op = operation(operationId);
  const body = requestBody(operationId);
  const hasBody = body !== undefined;
  const requiredBody = body?.required === true;

  it('answers a valid request with its declared success', async () => {
    const res = await send(sample);
    expect(res.status).toBeLessThan(300);
    expectSpecValid(operationId, res);
  });

  it.each(declaredStatuses(operationId))('answers Prefer: code=%i with a valid body of that status', async (status) => {
    const res = await send(sample, { prefer: `code=${status}` });
    expect(res.status).toBe(status);
    expectSpecValid(operationId, res);
    if (status >= 400) expect(declaredTags(operationId, status)).toContain(res.body._tag ?? res.body.name);
  });

  it('answers Prefer: dynamic=true with a generated, valid body', async () => {
    const res = await send(sample, { prefer: 'dynamic=true' });
    expect(res.status).toBeLessThan(300);
    expectSpecValid(operationId, res);
  });

  applies(hasBody)('answers malformed JSON with a declared error', async () => {
    expectDeclaredError(operationId, await send(sample, { rawBody: '{"oops": ' }));
  });

  applies(hasBody)('answers a non-JSON content type with a declared error', async () => {
    expectDeclaredError(
      operationId,
      await send(sample, { rawBody: 'a=b', contentType: 'application/x-www-form-urlencoded' }),
    );
  });

  applies(hasBody)('answers a body that is not an object with a declared error', async () => {
    expectDeclaredError(operationId, await send(sample, { body: [1, 2] }));
  });

  applies(requiredBody)('answers a missing body with a declared error', async () => {
    expectDeclaredError(operationId, await send(sample, { body: undefined }));
  });

  const requiredFields: string[] = body?.schema?.required ?? [];
  applies(requiredFields.length > 0)(
    'answers a body missing its required fields with a declared error naming one',
    async () => {
      const res = await send(sample, { body: {} });
      expectDeclaredError(operationId, res);
      expect(JSON.stringify(res.body)).toContain(requiredFields[0]);
    },
  );

  const patterned = patternedPathParams(operationId);
  applies(patterned.length > 0)('answers a path id of the wrong pattern with a declared error', async () => {
    for (const param of patterned) {
      const index = op.path.split('/').indexOf(`{${param.name}}`);
      expect(index, param.name).toBeGreaterThan(0);
      const segments = sample.path.split('/');
      segments[index] = BAD_ID;
      const res = await send({ ...sample, path: segments.join('/') });
      expectDeclaredError(operationId, res);
      expect(JSON.stringify(res.body), `${param.name}: ${res.text}`).toContain(BAD_ID);
      // The spec's decision: the bad-input error where one is declared for it, else "not found", which is the
      // truth (no resource can live at that id), never an error about some other part of the request.
      if (declaredTags(operationId, 400).includes('InvalidRequestError')) {
        expect(res.body, param.name).toMatchObject({ _tag: 'InvalidRequestError', kind: 'Params', field: param.name });
      } else {
        expect(res.status, `${param.name}: ${res.text}`).toBe(404);
      }
    }
  });

  const takesLocation = parameters(operationId).some((p) => p.in === 'query' && p.name === 'location');
  applies(takesLocation)('answers an unknown location key and a flat location with declared errors', async () => {
    expectDeclaredError(operationId, await send(sample, { query: 'location[colour]=blue' }));
    expectDeclaredError(operationId, await send(sample, { query: 'location=/tmp' }));
  });
});

describe('v2.session.messages query rules', () => {
  const sample = validRequests['v2.session.messages'] as SampleRequest;
  const cursor = Buffer.from(
    JSON.stringify({ id: 'msg_203a52106001tZWYWeFGLbY095', order: 'desc', direction: 'next' }),
  ).toString('base64url');

  it.each([
    ['cursor combined with order', `cursor=${cursor}&order=asc`, 'Cursor cannot be combined with order'],
    ['garbage cursor', 'cursor=garbage!!', 'Invalid cursor'],
    ['undecodable cursor', 'cursor=Zm9vYmFy', 'Invalid cursor'],
    ['limit over 200', 'limit=1000', 'limit'],
    ['limit zero', 'limit=0', 'limit'],
    ['limit not a number', 'limit=abc', 'limit'],
    ['order unknown', 'order=sideways', 'order'],
  ])('answers %s with InvalidCursorError', async (_name, query, text) => {
    const res = await request(app).get(`${sample.path}?${query}`);
    expectDeclaredError('v2.session.messages', res);
    expect(res.body._tag).toBe('InvalidCursorError');
    expect(res.body.message).toContain(text);
  });

  it('accepts a well-formed cursor', async () => {
    const res = await request(app).get(`${sample.path}?cursor=${cursor}`);
    expect(res.status).toBe(200);
    expectSpecValid('v2.session.messages', res);
  });
});

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Answer } from '../../../src/exchange/exchange.js';
import { incomingExchange, requestTarget } from '../../../src/http/request.js';
import { forward, releaseUpstream, type Upstream } from '../../../src/layers/upstream.js';
import { checkAnswer, checkedAnswer } from '../../../src/openapi/answer-check.js';
import { loadSpec, type SpecIndex } from '../../../src/openapi/openapi.js';

/** What the upstream answers for each path: a content type and the exact bytes. */
const ANSWERS: Record<string, [string, string]> = {
  '/shell-a': ['application/json', '{"id":"sh_1","status":"running"}'],
  '/shell-b': ['application/json', '{"id":"sh_1","status":"exited"}'],
  // The length of /shell-a's bytes, other bytes.
  '/shell-c': ['application/json', '{"id":"sh_2","status":"running"}'],
  '/scalar': ['application/json', 'true'],
  '/malformed': ['application/json', '{"id":'],
  '/large': ['application/json', JSON.stringify({ items: Array.from({ length: 400 }, (_, i) => `item-${i}`) })],
  '/text': ['text/plain', 'plain words'],
};

let server: Server;
let upstream: Upstream;
let spec: SpecIndex;

beforeAll(async () => {
  spec = await loadSpec();
  server = createServer((req, res) => {
    const [type, text] = ANSWERS[req.url ?? ''] ?? ['application/json', '{}'];
    res.writeHead(200, { 'content-type': type });
    res.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  upstream = { url: new URL(`http://127.0.0.1:${port}`), timeoutMs: 2000 };
});

afterAll(async () => {
  releaseUpstream(upstream);
  await new Promise((resolve) => server.close(resolve));
});

function get(path: string): Promise<Answer> {
  const incoming = incomingExchange('GET', requestTarget(path), { host: 'sim' }, Buffer.alloc(0));
  return forward({ ...incoming, id: 'req_1', now: 0 }, upstream);
}

function rawOf(answer: Answer): Extract<Answer, { kind: 'raw' }> {
  expect(answer.kind).toBe('raw');
  return answer as Extract<Answer, { kind: 'raw' }>;
}

describe('forward', () => {
  it('serves the same bytes again as the same parsed body, marked as served', async () => {
    const first = rawOf(await get('/shell-a'));
    const second = rawOf(await get('/shell-a'));
    expect(first.body).toEqual({ id: 'sh_1', status: 'running' });
    expect(second.body).toBe(first.body);
    expect(first.served).toBe(true);
    expect(second.served).toBe(true);
    // The bytes sent on are always the upstream's own, never made again from the body.
    expect(second.raw.toString('utf8')).toBe(ANSWERS['/shell-a']?.[1]);
  });

  it('parses other bytes afresh', async () => {
    const a = rawOf(await get('/shell-a'));
    const b = rawOf(await get('/shell-b'));
    expect(b.body).toEqual({ id: 'sh_1', status: 'exited' });
    expect(b.body).not.toBe(a.body);
  });

  it('tells bodies of one length apart by their bytes, and keeps each', async () => {
    const a = rawOf(await get('/shell-a'));
    const c = rawOf(await get('/shell-c'));
    expect(c.raw.length).toBe(a.raw.length);
    expect(c.body).toEqual({ id: 'sh_2', status: 'running' });
    expect(c.body).not.toBe(a.body);
    expect(rawOf(await get('/shell-a')).body).toBe(a.body);
    expect(rawOf(await get('/shell-c')).body).toBe(c.body);
  });

  it('parses a large body each time, and a scalar, without marking either as served', async () => {
    const [large1, large2] = [rawOf(await get('/large')), rawOf(await get('/large'))];
    expect(large1.body).toEqual(large2.body);
    expect(large1.body).not.toBe(large2.body);
    expect(large1.served).toBeUndefined();
    const scalar = rawOf(await get('/scalar'));
    expect(scalar.body).toBe(true);
    expect(scalar.served).toBeUndefined();
  });

  it('leaves a body that is not JSON unparsed', async () => {
    const text = rawOf(await get('/text'));
    expect(text.body).toBeUndefined();
    expect(text.raw.toString('utf8')).toBe('plain words');
  });

  it('fails malformed JSON every time, never remembering it', async () => {
    for (let i = 0; i < 2; i++)
      await expect(get('/malformed')).rejects.toMatchObject({
        _tag: 'SimUpstreamError',
        message: expect.stringContaining('malformed JSON'),
      });
  });

  it('checks a served body as a fresh check would, for each operation and status', async () => {
    const answer = rawOf(await get('/shell-a'));
    const shell = spec.byId.get('v2.shell.get');
    const session = spec.byId.get('v2.session.get');
    if (!shell || !session) throw new Error('the spec lacks v2.shell.get or v2.session.get');
    for (const operation of [shell, session, shell]) {
      const violations = checkedAnswer(operation, answer);
      expect(violations).toEqual(checkAnswer(operation, 200, answer.body));
      expect(violations.length).toBeGreaterThan(0);
    }
    const undeclared = { ...answer, status: 599 };
    expect(checkedAnswer(shell, undeclared)).toEqual([
      { side: 'response', in: 'status', message: 'status 599 is not declared by v2.shell.get' },
    ]);
  });
});

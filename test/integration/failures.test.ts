import { createServer } from 'node:http';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createPipeline } from '../../src/hosts/app.js';
import { resolveConfig } from '../../src/config/config.js';
import { partitionReaders } from '../../src/control/readers.js';
import { createPartitions } from '../../src/control/partitions.js';
import { KINDS } from '../../src/kinds/registry.js';
import { loadSpec } from '../../src/openapi/openapi.js';
import { SES } from '../support/requests.js';

async function pipelineWithBrokenResponder() {
  const logged: string[] = [];
  const spec = await loadSpec();
  const handler = createPipeline({
    config: resolveConfig({ log: (line) => logged.push(line) }),
    spec,
    partitions: createPartitions({
      ...partitionReaders({ spec, kinds: KINDS, seed: 'test' }),
      kinds: KINDS,
      seed: 'test',
      realTime: false,
      initial: undefined,
      project: { directory: '/home/dev/acme-web', id: 'global' },
    }),
    layers: [
      {
        name: 'fallback',
        answersAs: 'fallback',
        respond: () => Promise.reject(new Error('kaboom in a responder')),
      },
    ],
  });
  return { server: createServer((req, res) => void handler(req, res)), logged };
}

describe('unexpected failures', () => {
  it('answer UnknownError with a ref where the operation declares it, and log the stack', async () => {
    const { server, logged } = await pipelineWithBrokenResponder();
    const res = await request(server).get(`/api/session/${SES}/message`);
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      _tag: 'UnknownError',
      message: expect.any(String),
      ref: expect.stringMatching(/^err_[0-9a-f]{8}$/),
    });
    expect(res.text).not.toContain('kaboom');
    expect(logged.join('\n')).toContain(res.body.ref);
    expect(logged.join('\n')).toContain('kaboom in a responder');
  });

  it('answer SimInternalError where the operation declares no UnknownError', async () => {
    const { server } = await pipelineWithBrokenResponder();
    const res = await request(server).get('/api/plugin');
    expect(res.status).toBe(500);
    expect(res.body._tag).toBe('SimInternalError');
    expect(res.text).not.toMatch(/kaboom|at .*\.ts/);
  });

  it('runs on plain node:http without Express', async () => {
    const { server } = await pipelineWithBrokenResponder();
    const res = await request(server).get('/api/nope');
    expect(res.body._tag).toBe('SimRouteNotFoundError');
  });
});

describe('refs of unexpected failures', () => {
  it('name one failure each: the same failing request in two partitions, or again after a reset, gets another ref', async () => {
    const { server, logged } = await pipelineWithBrokenResponder();
    const failing = (partition: string) =>
      request(server).get(`/api/session/${SES}/message`).set('x-sim-partition', partition);
    // Each partition numbers its requests from req_000001, so these are the same request id three times.
    const alice = await failing('alice');
    const bob = await failing('bob');
    await request(server).post('/__sim/reset').set('x-sim-partition', 'alice').expect(200);
    const aliceAgain = await failing('alice');
    expect(alice.headers['x-sim-request-id']).toBe(bob.headers['x-sim-request-id']);
    expect(alice.headers['x-sim-request-id']).toBe(aliceAgain.headers['x-sim-request-id']);
    const refs = [alice, bob, aliceAgain].map((res) => res.body.ref as string);
    for (const ref of refs) expect(ref).toMatch(/^err_[0-9a-f]{8}$/);
    expect(new Set(refs).size).toBe(3);
    // A ref finds its own log line, and only that one.
    for (const ref of refs) expect(logged.filter((line) => line.includes(ref))).toHaveLength(1);
  });
});

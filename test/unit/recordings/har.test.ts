import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadSpec, type SpecIndex } from '../../../src/openapi/openapi.js';
import { headerDocument, interactionDocument, type Interaction } from '../../../src/recordings/format.js';
import { fromHar, toHar, type Har } from '../../../src/recordings/har.js';
import { nockRecording } from '../../../src/recordings/nock-interceptors.js';
import { DEFAULT_REDACTION } from '../../../src/recordings/redact.js';
import { useNock } from '../../support/nock.js';

useNock();

let spec: SpecIndex;
beforeAll(async () => {
  spec = await loadSpec();
  nock.disableNetConnect(); // a request nock does not intercept fails instead of leaving the machine
});
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

const SECRET = 'sk-from-devtools-777';
const devtoolsHar: Har = {
  log: {
    version: '1.2',
    creator: { name: 'WebInspector', version: '537.36' },
    entries: [
      {
        startedDateTime: '2026-11-22T10:00:00.000Z',
        time: 12.6,
        request: {
          method: 'POST',
          url: 'http://127.0.0.1:4096/api/integration/anthropic/connect/key?auth_token=dG9rZW4',
          headers: [
            { name: ':authority', value: '127.0.0.1:4096' },
            { name: 'Cookie', value: `sid=${SECRET}` },
            { name: 'Content-Type', value: 'application/json' },
          ],
          postData: { mimeType: 'application/json', text: JSON.stringify({ key: SECRET, label: 'Work' }) },
        },
        response: { status: 204, headers: [], content: { mimeType: '', text: '' } },
      },
      {
        startedDateTime: '2026-11-22T10:00:01.000Z',
        time: 3,
        request: { method: 'GET', url: 'http://127.0.0.1:4096/api/session/ses_1/message?limit=1', headers: [] },
        response: {
          status: 200,
          headers: [
            { name: 'Content-Type', value: 'application/json' },
            { name: 'Set-Cookie', value: `sid=${SECRET}` },
          ],
          content: {
            mimeType: 'application/json',
            encoding: 'base64',
            text: Buffer.from('{"data":[],"cursor":{}}').toString('base64'),
          },
        },
      },
    ],
  },
};

describe('HAR', () => {
  it('imports a devtools HAR as a recording: routed through the spec, secrets redacted', () => {
    const { header, interactions } = fromHar(devtoolsHar, spec, DEFAULT_REDACTION);
    expect(header.upstream).toBe('http://127.0.0.1:4096');
    expect(JSON.stringify(interactions)).not.toContain(SECRET);
    expect(interactions[0]).toMatchObject({
      operationId: 'v2.integration.connect.key',
      pathParams: { integrationID: 'anthropic' },
      request: {
        method: 'POST',
        query: { auth_token: '[REDACTED]' },
        headers: { cookie: '[REDACTED]', 'content-type': 'application/json' },
        body: { key: '[REDACTED]', label: 'Work' },
      },
      response: { status: 204 },
    });
    expect(interactions[1]).toMatchObject({
      operationId: 'v2.session.messages',
      response: { body: { data: [], cursor: {} }, headers: { 'set-cookie': '[REDACTED]' } },
    });
  });

  it('exports a recording that imports back to the same interactions', () => {
    const { header, interactions } = fromHar(devtoolsHar, spec, DEFAULT_REDACTION);
    const again = fromHar(toHar({ header, interactions, tornTail: false }, '0.1.0'), spec, DEFAULT_REDACTION);
    expect(
      again.interactions.map(({ request, response, operationId }) => ({ request, response, operationId })),
    ).toEqual(interactions.map(({ request, response, operationId }) => ({ request, response, operationId })));
  });
});

describe('nockRecording', () => {
  it('replays a recording in-process, identical requests in recorded order', async () => {
    const poll = (seq: number, status: string): Interaction => ({
      seq,
      operationId: 'v2.integration.attempt.status',
      request: { method: 'GET', path: '/api/integration/attempt/con_1', query: {}, headers: {} },
      response: { status: 200, headers: { 'content-type': 'application/json' }, body: { data: { status } } },
      timing: { started: '2026-11-22T10:00:00.000Z', durationMs: 1 },
    });
    const file = join(mkdtempSync(join(tmpdir(), 'sim-nock-')), 'polls.yaml');
    writeFileSync(
      file,
      [
        headerDocument({
          format: 'session-agent-sim/recording@1',
          specHash: spec.hash,
          upstream: 'http://upstream.invalid',
        }),
        interactionDocument(poll(1, 'pending')),
        interactionDocument(poll(2, 'complete')),
      ].join(''),
    );
    const scope = nockRecording(file);
    const statuses = [];
    for (let i = 0; i < 2; i++)
      statuses.push(
        (
          (await (await fetch('http://upstream.invalid/api/integration/attempt/con_1')).json()) as {
            data: { status: string };
          }
        ).data.status,
      );
    expect(statuses).toEqual(['pending', 'complete']);
    expect(scope.isDone()).toBe(true);
  });
});

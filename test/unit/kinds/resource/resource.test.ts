/** MCP resources: none by default, a scenario's keyed by server and URI as the real server keys them. */
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../../../src/hosts/app.js';
import { inferResources } from '../../../../src/kinds/resource/infer.js';
import { specProblems } from '../../../support/spec-validator.js';
import { recorded } from '../model/recorded.js';

const DOCS = { name: 'Design tokens', uri: 'file:///docs/tokens.md', mimeType: 'text/markdown', client: 'docs' };
const ISSUE = { name: 'Issue 42', uri: 'issue://42', description: 'Login fails on CI', client: 'tracker:eu' };

describe('the MCP resources', () => {
  it('are none by default', async () => {
    const app = await createApp({ scenario: { name: 'resources' }, log: () => {} });
    expect((await request(app).get('/experimental/resource').expect(200)).body).toEqual({});
  });

  it("are the scenario's, keyed <server>:<uri> with the server's separator escaped", async () => {
    const app = await createApp({ scenario: { name: 'resources', resources: [DOCS, ISSUE] }, log: () => {} });
    const res = await request(app).get('/experimental/resource').expect(200);
    expect(
      specProblems('experimental.resource.list', res.status, res.body, res.headers['content-type'] as string),
    ).toEqual([]);
    expect(res.body).toEqual({ 'docs:file:///docs/tokens.md': DOCS, 'tracker%3Aeu:issue://42': ISSUE });
    await expect(createApp({ scenario: { name: 'bad', resources: [DOCS, DOCS] }, log: () => {} })).rejects.toThrow(
      /resource file:\/\/\/docs\/tokens.md of docs is declared twice/,
    );
  });

  it('are inferred from the first listing', () => {
    const timeline = recorded(['experimental.resource.list', { 'docs:file:///docs/tokens.md': DOCS }]);
    expect(inferResources(timeline).resources?.map((p) => p.value)).toEqual([DOCS]);
    expect(inferResources(recorded(['experimental.resource.list', {}]))).toEqual({});
  });
});

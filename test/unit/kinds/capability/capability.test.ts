/** The experimental capabilities: off by default, as the scenario turns them on; and scenario-from. */
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../../../src/hosts/app.js';
import { inferCapabilities } from '../../../../src/kinds/capability/infer.js';
import { specProblems } from '../../../support/spec-validator.js';
import { recorded } from '../model/recorded.js';

describe('the experimental capabilities', () => {
  it('are off unless the scenario turns them on', async () => {
    for (const [capabilities, expected] of [
      [undefined, { backgroundSubagents: false }],
      [{ backgroundSubagents: true }, { backgroundSubagents: true }],
    ] as const) {
      const app = await createApp({
        scenario: { name: 'capabilities', ...(capabilities ? { capabilities } : {}) },
        log: () => {},
      });
      const res = await request(app).get('/experimental/capabilities').expect(200);
      expect(
        specProblems('experimental.capabilities.get', res.status, res.body, res.headers['content-type'] as string),
      ).toEqual([]);
      expect(res.body).toEqual(expected);
    }
  });

  it('are inferred only when one is on', () => {
    const on = recorded(['experimental.capabilities.get', { backgroundSubagents: true }]);
    expect(inferCapabilities(on).capabilities?.[0]?.value).toEqual({ backgroundSubagents: true });
    expect(inferCapabilities(recorded(['experimental.capabilities.get', { backgroundSubagents: false }]))).toEqual({});
  });
});

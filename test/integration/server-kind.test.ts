/**
 * The first calls a frontend makes, through the official client: the server is healthy, and its location is
 * the one every location envelope of the world carries.
 */
import { createOpencodeClient } from '@opencode-ai/sdk/v2/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/index.js';

let sim: Awaited<ReturnType<typeof startSimulator>>;
beforeAll(async () => {
  sim = await startSimulator({ scenario: 'default', log: () => {} });
});
afterAll(() => sim.close());

describe('health and location, answered by the world', () => {
  it('says the server is healthy', async () => {
    const client = createOpencodeClient({ baseUrl: sim.url });
    const health = await client.v2.health.get();
    expect(health.response.status).toBe(200);
    expect(health.response.headers.get('x-sim-layer')).toBe('scenario');
    expect(health.data).toEqual({ healthy: true });
  });

  it('gives the location every envelope carries, and the one a request names', async () => {
    const client = createOpencodeClient({ baseUrl: sim.url });
    const integrations = await client.v2.integration.list();
    const location = await client.v2.location.get();
    expect(location.response.headers.get('x-sim-layer')).toBe('scenario');
    expect(location.data).toEqual(integrations.data?.location);
    const sub = await client.v2.location.get({ location: { directory: 'src', workspace: 'wrk_1' } });
    expect(sub.data).toEqual({ directory: 'src', workspaceID: 'wrk_1', project: integrations.data?.location.project });
  });
});

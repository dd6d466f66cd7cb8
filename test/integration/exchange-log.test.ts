/**
 * `logExchanges` from code: a simulator started by a test prints nothing unless asked, and hands a function
 * each exchange of every partition, secrets masked.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startSimulator, type SimulatorHandle } from '../../src/index.js';
import type { ExchangeRecord } from '../../src/index.js';

let sim: SimulatorHandle | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await sim?.close();
  sim = undefined;
});

describe('startSimulator and logExchanges', () => {
  it('prints nothing unless asked', async () => {
    const written: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    sim = await startSimulator();
    expect((await fetch(`${sim.url}/api/plugin`)).status).toBe(200);
    await sim.close();
    sim = undefined;
    expect(written.filter((text) => text.includes('/api/plugin'))).toEqual([]);
  });

  it('hands a function every exchange of every partition, with the secrets clients sent masked', async () => {
    const seen: ExchangeRecord[] = [];
    sim = await startSimulator({ scenario: 'default', logExchanges: (exchange) => seen.push(exchange) });
    const secret = 'tok-0123456789abcdef';
    await fetch(`${sim.url}/api/session`, { headers: { authorization: `Bearer ${secret}` } });
    await fetch(`${sim.url}/api/session/${secret}`, { headers: { 'x-sim-partition': 'w1' } });
    await sim.close();
    sim = undefined;
    expect(seen).toEqual([
      expect.objectContaining({ partition: 'default', path: '/api/session', status: 200, layer: 'scenario' }),
      expect.objectContaining({ partition: 'w1', path: '/api/session/[REDACTED]', operationId: 'v2.session.get' }),
    ]);
    expect(JSON.stringify(seen)).not.toContain(secret);
  });
});

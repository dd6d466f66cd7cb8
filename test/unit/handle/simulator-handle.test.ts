import { describe, expect, it } from 'vitest';
import { connectSimulator } from '../../../src/handle/simulator-handle.js';
import { SimControlRequestError } from '../../../src/errors/sim-errors.js';

/** A handle whose requests are kept and answered with the clock's now, or with `refusal` when given. */
function recordingHandle(refusal?: { status: number; body: Record<string, unknown> }) {
  const sent: Array<{ method: string; url: string; body: unknown }> = [];
  const sim = connectSimulator('http://127.0.0.1:4010', {
    fetch: async (request) => {
      const text = await request.text();
      sent.push({ method: request.method, url: request.url, body: text ? JSON.parse(text) : undefined });
      return refusal
        ? Response.json(refusal.body, { status: refusal.status })
        : Response.json({ partition: 'default', now: 1000, iso: new Date(1000).toISOString(), realTime: false });
    },
  });
  return { sim, sent };
}

describe('clock.advance', () => {
  it.each([
    ['30s', 30_000],
    ['1m30s', 90_000],
    [5000, 5000],
    [0, 0],
  ])('sends %j as ms', async (by, ms) => {
    const { sim, sent } = recordingHandle();
    expect(await sim.clock.advance(by)).toBe(1000);
    expect(sent).toEqual([{ method: 'POST', url: 'http://127.0.0.1:4010/__sim/clock/advance', body: { ms } }]);
  });

  it.each(['1 minute', '', '-1s', -1, Number.NaN, Infinity, `${'9'.repeat(400)}h`])(
    'refuses %j in its own terms, without asking the simulator',
    async (by) => {
      const { sim, sent } = recordingHandle();
      const refused = await sim.clock.advance(by).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(SimControlRequestError);
      const error = refused as SimControlRequestError;
      expect(error.message).toMatch(/^clock\.advance\(.*\) is not an amount of time to advance by/);
      expect(error.message).toContain("sim.clock.advance('30s')");
      expect(error.message).toContain('sim.clock.advance(5000)');
      // The HTTP body is not what a caller of the handle writes.
      expect(error.message).not.toContain('{"by"');
      expect(sent).toEqual([]);
    },
  );

  it('names the value given', async () => {
    const { sim } = recordingHandle();
    await expect(sim.clock.advance('1 minute')).rejects.toThrow('clock.advance("1 minute") is not');
    await expect(sim.clock.advance(-5)).rejects.toThrow('clock.advance(-5) is not');
  });

  it('passes on what only the simulator can say: how far the clock may still go', async () => {
    const body = {
      _tag: 'SimControlRequestError',
      message: 'Advancing by 9 ms would take the clock past …',
      hint: 'x',
    };
    const { sim } = recordingHandle({ status: 400, body });
    await expect(sim.clock.advance(9)).rejects.toBeInstanceOf(SimControlRequestError);
  });
});

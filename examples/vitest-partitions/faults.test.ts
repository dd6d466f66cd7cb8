import { afterEach, expect, it } from 'vitest';
import { sim } from './sim.js';

afterEach(() => sim.rules.clear());

it('answers a declared error the test asked for, once', async () => {
  await sim.rules.add({
    when: { operation: 'v2.model.default' },
    then: {
      error: {
        _tag: 'ServiceUnavailableError',
        message: 'Model catalog initialization timed out',
        service: 'model.catalog',
      },
    },
    times: 1,
  });
  expect((await fetch(`${sim.url}/api/model/default`)).status).toBe(503);
  expect((await fetch(`${sim.url}/api/model/default`)).status).toBe(200);
});

it('counts what this worker asked for in its partition coverage', async () => {
  const coverage = await sim.coverage();
  const model = coverage.operations.find((o) => o.operationId === 'v2.model.default');
  expect(model?.errors.find((e) => e.tag === 'ServiceUnavailableError')?.answered).toBeGreaterThanOrEqual(1);
  expect(coverage.untouched.operations).not.toContain('v2.model.default');
});

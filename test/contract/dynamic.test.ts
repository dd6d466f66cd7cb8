/**
 * Generated bodies (--dynamic) are checked across several seeds: json-schema-faker draws differ per seed,
 * and each draw must still be a valid answer of its operation.
 */
import request from 'supertest';
import { expect, it } from 'vitest';
import { createApp } from '../../src/hosts/app.js';
import { NOT_JSON, validRequests, url } from '../support/requests.js';
import { specProblems } from '../support/spec-validator.js';

it('generates spec-valid bodies for every operation, seed after seed', async () => {
  const failures: string[] = [];
  for (let i = 0; i < 8; i++) {
    const app = await createApp({ dynamic: true, seed: `s${i}`, log: (l) => failures.push(l.split('\n')[0] ?? '') });
    for (const [id, sample] of Object.entries(validRequests)) {
      if (NOT_JSON.has(id)) continue;
      let req = request(app)[sample.method.toLowerCase() as 'get'](url(sample));
      if (sample.body !== undefined)
        req = req.set('content-type', 'application/json').send(JSON.stringify(sample.body));
      const res = await req;
      const problems = specProblems(
        id,
        res.status,
        res.status === 204 ? undefined : res.body,
        res.headers['content-type'],
      );
      if (res.status >= 300 || problems.length)
        failures.push(`${id} seed s${i}: ${res.status} ${problems.slice(0, 3).join('; ')}`);
    }
  }
  expect(failures).toEqual([]);
}, 120_000);

/**
 * `Prefer: dynamic=true` on every operation of the spec: a body generated from the schema (never one of the
 * spec's examples), valid against the operation's response schema, and the same bytes from two fresh
 * simulators with the same seed.
 */
import request from 'supertest';
import { expect, it } from 'vitest';
import { createApp } from '../../src/hosts/app.js';
import { NOT_JSON, validRequests, url, type SampleRequest } from '../support/requests.js';
import { specProblems } from '../support/spec-validator.js';

type App = Awaited<ReturnType<typeof createApp>>;

function ask(app: App, sample: SampleRequest, prefer?: string) {
  let req = request(app)[sample.method.toLowerCase() as 'get'](url(sample));
  if (prefer) req = req.set('prefer', prefer);
  if (sample.body !== undefined) req = req.set('content-type', 'application/json').send(JSON.stringify(sample.body));
  return req;
}

/**
 * A body with nothing but booleans, nulls and empty containers: a schema of that shape allows a handful of
 * values at most (`{healthy: true}`, a map of active sessions that is empty), so a draw may well be the example.
 */
function littleToDraw(value: unknown): boolean {
  if (value === null || typeof value === 'boolean') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.values(value).every(littleToDraw);
  return false;
}

const SAMPLES = Object.entries(validRequests).filter(([id]) => !NOT_JSON.has(id));

it('answers every operation with fresh, valid, seeded data', async () => {
  const [first, second] = await Promise.all([1, 2].map(() => createApp({ seed: 'fresh', log: () => {} })));
  const problems: string[] = [];
  let compared = 0;
  const same: string[] = [];
  for (const [id, sample] of SAMPLES) {
    const generated = await ask(first as App, sample, 'dynamic=true');
    const again = await ask(second as App, sample, 'dynamic=true');
    // The static answer: the spec's example, where the operation has one.
    const example = await ask(first as App, sample);
    const body = generated.status === 204 ? undefined : generated.body;
    const invalid = specProblems(id, generated.status, body, generated.headers['content-type']);
    if (generated.status >= 300 || invalid.length) problems.push(`${id}: ${generated.status} ${invalid.join('; ')}`);
    if (generated.text !== again.text) problems.push(`${id}: not the same bytes with the same seed`);
    if (example.status === generated.status && body !== undefined) {
      compared++;
      if (generated.text === example.text && !littleToDraw(body)) same.push(id);
    }
  }
  expect(problems).toEqual([]);
  expect(same).toEqual([]);
  // Most operations have a body to differ from: the comparison above was not vacuous.
  expect(compared).toBeGreaterThan(SAMPLES.length / 2);
}, 120_000);

// The simulator's own answers, fetched once and handed to the bare servers and WireMock, so every target of
// a workload sends the same status, content-type and body.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { answerOf } from './load.mjs';

/**
 * Asks each workload's source simulator for its requests and groups the answers by fixture set. Two
 * workloads may not give one set different bytes for the same request: a bare server could send only one.
 */
export async function captureFixtures(ctx, workloads) {
  const sets = {};
  for (const workload of workloads) {
    if (!workload.fixtureSet || !workload.source || ctx.ports[workload.source] === undefined) continue;
    const set = (sets[workload.fixtureSet] ??= []);
    for (const request of workload.requests) {
      const answer = await answerOf(ctx.ports[workload.source], request);
      if (answer.status < 200 || answer.status > 299)
        throw new Error(
          `${workload.source} answered ${request.method} ${request.path} with ${answer.status || answer.error}; the fixture would not be a success`,
        );
      const fixture = {
        method: request.method,
        url: request.path,
        status: answer.status,
        contentType: answer.contentType,
        body: answer.body.toString('base64'),
      };
      const same = set.find((f) => f.method === fixture.method && f.url === fixture.url);
      if (same && same.body !== fixture.body)
        throw new Error(`fixture set ${workload.fixtureSet} has two answers for ${request.method} ${request.path}`);
      if (!same) set.push(fixture);
    }
  }
  ctx.fixtures = sets;
  ctx.fixturesFile = join(ctx.tmp, 'fixtures.json');
  writeFileSync(ctx.fixturesFile, JSON.stringify(sets, null, 2));
  return sets;
}

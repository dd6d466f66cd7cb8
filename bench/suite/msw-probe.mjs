// Run by the msw measure in a fresh process: how long simulatorHandlers() takes to start (the first in the
// process, then the ones after it), and what an answer costs through msw against the pipeline on its own.
// Prints one JSON object. Usage: node bench/suite/msw-probe.mjs [--quick]
// The answers are of GET /api/session/{id} from the default scenario's world, read whole, one at a time.
import { getResponse } from 'msw';
import { setupServer } from 'msw/node';
import { simulatorHandlers } from '../../dist/msw/index.js';
import { createSimulator } from '../../dist/hosts/app.js';
import { createDecide } from '../../dist/pipeline/pipeline.js';
import { readRequest } from '../../dist/http/fetch-io.js';

const quick = process.argv.includes('--quick');
const ANSWERS = quick ? 2000 : 10000;
const STARTS = quick ? 10 : 30;
const PATH = '/api/session/ses_dfc5ae513ffePKUBK7HkVp5zCB';
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

let at = performance.now();
const first = await simulatorHandlers({ scenario: 'default' });
const firstStart = performance.now() - at;
const starts = [];
for (let i = 0; i < STARTS; i++) {
  at = performance.now();
  const sim = await simulatorHandlers({ scenario: 'default' });
  starts.push(performance.now() - at);
  await sim.close();
}

const url = `${first.url}${PATH}`;
/** µs per answer of `answer()`, the body read, after a warm-up; the best of three runs. */
async function perAnswer(answer) {
  const runs = [];
  for (let run = 0; run < 4; run++) {
    const began = performance.now();
    for (let i = 0; i < ANSWERS; i++) {
      const response = await answer();
      if (response.status !== 200) throw new Error(`answered ${response.status}`);
      await response.arrayBuffer();
    }
    if (run > 0) runs.push(((performance.now() - began) * 1000) / ANSWERS);
  }
  return Math.min(...runs);
}

// The pipeline alone: the request read and decided, the answer's text made (what a socket would be sent).
const { sim: core } = await createSimulator({ scenario: 'default', log: () => {} });
const decide = createDecide(core);
const decided = await perAnswer(async () => {
  const { answer } = await decide(await readRequest(new Request(url), core.config.bodyLimit));
  return { status: answer.status, arrayBuffer: async () => JSON.stringify(answer.body) };
});
core.partitions.dispose();
// The same, as a Fetch Response: what msw's handler is given back.
const pipeline = await perAnswer(() => first.fetch(new Request(url)));
const handler = await perAnswer(() => getResponse(first.handlers, new Request(url)));
const server = setupServer(...first.handlers);
server.listen({ onUnhandledRequest: 'error' });
const intercepted = await perAnswer(() => fetch(url));
server.close();
await first.close();

console.log(
  JSON.stringify({
    firstStartMs: firstStart,
    laterStartMs: median(starts),
    laterStartMaxMs: Math.max(...starts),
    decideUs: decided,
    pipelineUs: pipeline,
    handlerUs: handler,
    interceptedUs: intercepted,
  }),
);

/**
 * `createApp(options)`: the simulator as an Express app (mount it, or hand it to supertest); `createSimulator`
 * the same without Express (the CLI's server). Both host the pipeline (`pipeline.ts`) on Node's HTTP types,
 * reading a request from Node's and writing the answer to Node's response. The CLI's server reads most
 * requests itself and hands them to `decide` (src/http/lean-http.ts); what it leaves to Node comes here.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';
import { createFallback } from '../layers/fallback.js';
import { createModePassThrough } from '../layers/modes.js';
import { passThroughLayer } from '../layers/pass-through.js';
import { fallbackLayer } from '../layers/fallback-layer.js';
import { KINDS } from '../kinds/registry.js';
import { resolveConfig, type SimConfig, type SimOptions } from '../config/config.js';
import { checkSimOptions } from '../config/options.js';
import { SimConfigError, SimInternalError } from '../errors/errors.js';
import { readExchange, writeAnswer } from '../http/io.js';
import { writeSoon } from '../http/outbox.js';
import type { Answer } from '../exchange/exchange.js';
import { mergeRedaction } from '../recordings/redact.js';
import { createSecretValues } from '../recordings/secret-values.js';
import { createScenarioLibrary } from '../scenarios/scenario-library.js';
import { DEFAULT_SPEC_PATH, loadSpecOnce, specFromDocument, type SpecIndex } from '../openapi/openapi.js';
import { createDecide, type Decide, type PipelineDeps } from '../pipeline/pipeline.js';
import { assembleCore } from '../pipeline/core.js';

export type { PipelineDeps } from '../pipeline/pipeline.js';

/** The simulator without a host: its parts, and the pipeline that answers on plain Node types. */
export interface Simulator {
  sim: PipelineDeps;
  /**
   * The pipeline on plain Node types, for a server of its own: Express's router answers some request-targets
   * itself (in HTML) before any middleware runs, such as an absolute-form `http://x@`.
   */
  pipeline: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  /** The pipeline without a host: a request as read in, its answer out (what `pipeline` writes). */
  decide: Decide;
}

export interface SimApp extends Express, Simulator {}

/** The simulator as an Express app: to mount in a host app, or to hand to supertest. */
export async function createApp(options: SimOptions = {}): Promise<SimApp> {
  checkSimOptions(options, 'createApp');
  const simulator = await createSimulator(options);
  // Loaded here rather than with the module: the CLI's server never needs Express, and it costs start-up.
  const { default: express } = await import('express');
  const app = express() as SimApp;
  app.disable('x-powered-by');
  app.disable('etag');
  // Mounted in a host app, listening, or run by supertest, Express hands every request to `handle`: here it
  // goes straight to the pipeline, which answers everything itself. Express's own handling of an app (its
  // request and response prototypes swapped in per request, a router of one layer) cost a fifth of an answer.
  // A failure the pipeline did not answer is still answered in JSON, never Express's HTML error page.
  const { pipeline, sim } = simulator;
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    pipeline(req, res).catch((error: unknown) => answerUncaught(error, res, sim.config.log));
  };
  (app as unknown as { handle: typeof handle }).handle = handle;
  app.sim = simulator.sim;
  app.pipeline = simulator.pipeline;
  app.decide = simulator.decide;
  return app;
}

/** The WebSockets the kinds serve, as the served spec routes them (those it lacks are not served). */
function sockets(spec: SpecIndex): string[] {
  return [...KINDS.ticketed].flatMap((id) => {
    const operation = spec.byId.get(id);
    return operation ? [`${operation.method.toUpperCase()} ${operation.path}`] : [];
  });
}

export async function createSimulator(options: SimOptions = {}): Promise<Simulator> {
  checkSimOptions(options, 'createSimulator');
  const config = resolveConfig(options);
  const home = await loadSpecOnce(DEFAULT_SPEC_PATH);
  const spec = await servedSpec(config);
  const secrets = createSecretValues(mergeRedaction(config.redact));
  const passThrough = createModePassThrough(config, spec, secrets);
  // Scenarios describe the world, which is written for the simulator's own spec, whatever document is served.
  const library = passThrough ? undefined : createScenarioLibrary(home);
  // The mode picks the source, and only that: the last layer, which always answers. Prism is loaded only where
  // it is the source, the mock (a real server or its recording answers otherwise).
  const source = passThrough
    ? passThroughLayer(passThrough)
    : fallbackLayer(await createFallback(spec, { dynamic: config.dynamic, seed: config.seed }), sockets(spec));
  const sim = assembleCore({ config, home, spec, secrets, passThrough, library, source });
  sim.openStreams = new Set();
  const decide = createDecide(sim);
  return { sim, decide, pipeline: createPipeline(sim, decide) };
}

/**
 * The pipeline on Node's HTTP types: 1 read the request (the whole body), decide, 8 write the answer. A client
 * gone mid-body gets nothing: nobody is left to answer.
 */
export function createPipeline(
  deps: PipelineDeps,
  decide: Decide = createDecide(deps),
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async function handle(req, res) {
    let incoming;
    try {
      const read = readExchange(req, deps.config.bodyLimit);
      incoming = read instanceof Promise ? await read : read;
    } catch {
      return;
    }
    const { answer, headers } = await decide(incoming);
    if (res.headersSent) return;
    const streams = deps.openStreams;
    if (answer.kind === 'stream' && streams) {
      streams.add(res);
      res.once('close', () => streams.delete(res));
      writeAnswer(res, answer, headers);
      return;
    }
    // With the other answers of this turn of the event loop (outbox.ts); a failure to write is still this
    // request's, for its caller to answer.
    await new Promise<void>((resolve, reject) =>
      writeSoon(() => {
        try {
          if (!res.headersSent) writeAnswer(res, answer, headers);
          resolve();
        } catch (error) {
          reject(error);
        }
      }),
    );
  };
}

/** The document to serve; one that cannot be read or indexed stops start-up with a sentence naming it. */
async function servedSpec(config: SimConfig): Promise<SpecIndex> {
  const given = typeof config.spec === 'object' ? 'the spec object' : `spec ${config.specPath}`;
  try {
    return typeof config.spec === 'object' ? specFromDocument(config.spec) : await loadSpecOnce(config.specPath);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new SimConfigError(`${given} cannot be served: ${reason}`);
  }
}

/** The last resort for a failure the pipeline did not answer: logged, and answered in JSON if it still can be. */
export function answerUncaught(error: unknown, res: ServerResponse, log: (line: string) => void): void {
  const answer = uncaughtAnswer(error, log);
  if (res.headersSent) res.destroy();
  else writeAnswer(res, answer, {});
}

/** A failure the pipeline did not answer, logged, and the answer it gets. */
export function uncaughtAnswer(error: unknown, log: (line: string) => void): Answer {
  log(`[uncaught] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return new SimInternalError('uncaught', 'The simulator failed to answer; its log has the details').toAnswer();
}

/**
 * `createApp(options)`: the simulator as an Express app (mount it, or hand it to supertest).
 * `createPipeline(deps)`: one request, top to bottom, on plain Node types:
 *   1 ingest → 2 control plane → 3 route → 4 validate request → 5 choose who answers
 *   → 6 check the answer → 7 journal → 8 send; every failure on the way meets one error writer.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type Express } from 'express';
import { checkAnswer } from './spec/answer-check.js';
import { createClock, type Clock } from './state/clock.js';
import { resolveConfig, type SimConfig, type SimOptions } from './config.js';
import { createControl, isControlPath } from './control/routes.js';
import { SimInternalError, SimMethodNotAllowedError, SimRouteNotFoundError, TaggedError, UnknownError } from './errors.js';
import { createFallback } from './answerers/fallback.js';
import { corsHeaders, preflightHeaders, readExchange, writeAnswer, type Answer, type Exchange } from './http/io.js';
import { toDeclaredError } from './spec/input-errors.js';
import { createJournal, type Journal } from './control/journal.js';
import { projectContext } from './spec/location.js';
import { loadSpec, type OperationDefinition, type SpecIndex } from './spec/openapi.js';
import { readPreferences } from './answerers/preferences.js';
import { validateRequest } from './spec/request-validation.js';
import { createModePassThrough } from './answerers/modes.js';
import { passThroughResponder, type PassThrough } from './answerers/pass-through.js';
import { fallbackResponder, type AcceptedRequest, type Responder } from './answerers/responder.js';
import { findOperation } from './spec/router.js';
import { createScenarioHost, type ScenarioHost } from './scenarios/scenario-host.js';
import { ruleResponder, scenarioResponder } from './answerers/scenario-responder.js';

export interface PipelineDeps {
  config: SimConfig;
  /** Set in the proxy, record and replay modes: what answers requests, including those outside the spec. */
  passThrough?: PassThrough;
  spec: SpecIndex;
  clock: Clock;
  journal: Journal;
  responders: Responder[];
  scenarios?: ScenarioHost;
}

export interface SimApp extends Express {
  sim: PipelineDeps;
}

export async function createApp(options: SimOptions = {}): Promise<SimApp> {
  const config = resolveConfig(options);
  const spec = await loadSpec(config.specPath);
  const clock = createClock({ realTime: config.realTime });
  const project = projectContext(config.projectDir, config.projectId);
  const passThrough = createModePassThrough(config, spec);
  const scenarios = config.scenario === undefined || passThrough ? undefined : createScenarioHost(spec, clock, config.scenario);
  const responders: Responder[] = [];
  if (passThrough) {
    responders.push(passThroughResponder(passThrough));
  } else {
    // Prism is loaded only where it answers: the mock (a real server or its recording answers otherwise).
    const fallback = await createFallback(spec, { dynamic: config.dynamic, seed: config.seed });
    if (scenarios) responders.push(ruleResponder(scenarios, clock, project), scenarioResponder(scenarios, clock, project));
    responders.push(fallbackResponder(fallback, project));
  }
  const deps: PipelineDeps = { config, passThrough, spec, clock, journal: createJournal(), responders, scenarios };
  const app = express() as SimApp;
  app.disable('x-powered-by');
  app.disable('etag');
  app.use(createPipeline(deps));
  app.sim = deps;
  return app;
}

export function createPipeline(deps: PipelineDeps): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const control = createControl(deps);
  let counter = 0;

  return async function handle(req, res) {
    let exchange: Exchange;
    try {
      // 1. Ingest: the whole body, an id and the virtual time.
      exchange = await readExchange(req, `req_${String(++counter).padStart(6, '0')}`, deps.clock.now(), deps.config.bodyLimit);
    } catch {
      return; // the client went away mid-body: nobody is left to answer
    }
    let operation: OperationDefinition | undefined;
    let answer: Answer;
    let layer: string;
    let violations: string[] = [];
    try {
      if (exchange.method === 'OPTIONS') {
        answer = { status: 204, headers: preflightHeaders(req) };
        layer = 'cors';
      } else if (isControlPath(exchange.pathname)) {
        // 2. Control plane.
        answer = control(exchange);
        layer = 'control';
      } else {
        // 3. Route. A proxy passes on what the spec does not know, and says so.
        const routed = route(deps.spec, exchange, deps.passThrough !== undefined);
        if (!routed) {
          const passed = await (deps.passThrough as PassThrough)(exchange, {});
          ({ layer } = passed);
          answer = passed;
          violations = ['request: no operation of the spec matches'];
        } else {
          operation = routed.operation;
          // 4. Validate the request (a proxy reports what is wrong and forwards it all the same).
          const { request, problems } = accept(routed.operation, routed.params, exchange, deps.passThrough !== undefined);
          violations = problems;
          // 5. Choose who answers.
          ({ answer, layer } = await chooseAnswer(deps.responders, request));
          // 6. Check the answer against the spec (a stream is checked by nobody: it is still being written).
          if (!answer.stream) violations = [...violations, ...checkAnswer(operation, answer.status, answer.body)];
        }
      }
    } catch (error) {
      ({ answer, layer } = errorAnswer(error, operation, exchange, deps));
      if (operation && error instanceof TaggedError && !error.fromSimulator) violations = checkAnswer(operation, answer.status, answer.body);
    }
    // 7. Journal.
    if (layer !== 'control' && layer !== 'cors') {
      deps.journal.record({
        id: exchange.id,
        time: exchange.now,
        method: exchange.method,
        path: exchange.pathname,
        operationId: operation?.operationId,
        layer,
        status: answer.status,
        violations: violations.length ? violations : undefined,
      });
    }
    // 8. Send.
    const headers: Record<string, string> = { ...corsHeaders(req), 'x-sim-layer': layer, 'x-sim-request-id': exchange.id };
    if (operation) headers['x-sim-operation'] = operation.operationId;
    if (violations.length) headers['x-sim-violations'] = String(violations.length);
    if (!res.headersSent) writeAnswer(res, answer, headers);
  };
}

function route(spec: SpecIndex, exchange: Exchange, passThrough: boolean): { operation: OperationDefinition; params: Record<string, string> } | undefined {
  const found = findOperation(spec, exchange.method === 'HEAD' ? 'GET' : exchange.method, exchange.pathname);
  if (found.kind === 'found') return found;
  if (passThrough) return undefined;
  if (found.kind === 'method-not-allowed') throw new SimMethodNotAllowedError(exchange.method, exchange.pathname, found.allowed);
  throw new SimRouteNotFoundError(exchange.method, exchange.pathname, found.closest);
}

function accept(operation: OperationDefinition, pathParams: Record<string, string>, exchange: Exchange, passThrough: boolean): { request: AcceptedRequest; problems: string[] } {
  const contentType = exchange.headers['content-type'];
  const { query, body, violations } = validateRequest(operation, { pathParams, searchParams: exchange.searchParams, contentType, rawBody: exchange.rawBody });
  if (exchange.bodyTooLarge) violations.unshift({ in: 'body', message: 'Request body is larger than the simulator accepts' });
  if (violations.length && !passThrough) throw toDeclaredError(operation, violations, pathParams);
  // Prefer controls steer the mock; to a real server they are just a header to pass on.
  const preferences = passThrough ? {} : readPreferences(headerText(exchange.headers.prefer), operation);
  return { request: { exchange, operation, pathParams, query, body, preferences }, problems: violations.map((v) => `request: ${v.message}`) };
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

async function chooseAnswer(responders: Responder[], request: AcceptedRequest): Promise<{ answer: Answer; layer: string }> {
  // A Prefer control asks for the spec-driven answer explicitly: stateful layers step aside for it.
  const explicit = Object.keys(request.preferences).length > 0;
  for (const responder of responders) {
    if (explicit && !responder.honorsPreferences) continue;
    try {
      const answer = await responder.respond(request);
      if (answer) return { answer, layer: answer.layer ?? responder.name };
    } catch (error) {
      // A declared error a layer decided on is that layer's answer.
      if (error instanceof TaggedError && !error.fromSimulator) return { answer: error.toAnswer(), layer: responder.name };
      throw error;
    }
  }
  throw new Error(`No responder answered ${request.operation.operationId}`);
}

/** The only writer of error bodies. Unexpected failures are logged with their stack, never sent with it. */
function errorAnswer(error: unknown, operation: OperationDefinition | undefined, exchange: Exchange, deps: PipelineDeps): { answer: Answer; layer: string } {
  let tagged: TaggedError;
  if (error instanceof TaggedError) {
    tagged = error;
  } else {
    const ref = `err_${createHash('sha256').update(`${deps.config.seed}:${exchange.id}`).digest('hex').slice(0, 8)}`;
    deps.config.log(`[${ref}] ${exchange.method} ${exchange.pathname}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    tagged = operation?.declaredTags.has('UnknownError') ? new UnknownError(ref) : new SimInternalError(ref, 'The simulator failed to answer; its log has the details under this ref');
  }
  return { answer: tagged.toAnswer(), layer: tagged.fromSimulator ? 'simulator' : 'validation' };
}

/**
 * `createApp(options)`: the simulator as an Express app (mount it, or hand it to supertest); `createSimulator`
 * the same without Express (the CLI's server).
 * `createPipeline(deps)`: one request, top to bottom, on plain Node types:
 *   1 ingest (and pick the partition) → 2 control plane → (auth, when on) → 3 route → 4 validate request
 *   → 5 choose who answers → 6 check the answer → 7 journal (into the partition's log) → 8 send; every failure
 *   on the way meets one error writer.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';
import { createFallback } from './layers/fallback.js';
import { createModePassThrough } from './layers/modes.js';
import { passThroughLayer, type PassThrough } from './layers/pass-through.js';
import { readPreferences } from './layers/preferences.js';
import { fallbackLayer } from './layers/fallback-layer.js';
import type { AcceptedRequest, Layer, LayerName, NearMiss, RuleSubject } from './exchange/layer.js';
import { eventStreamLayer } from './layers/event-stream.js';
import { STREAM_OPERATIONS, sessionStreamsLayer } from './layers/session-streams.js';
import { offSpecRules, runtimeRuleLayer, scenarioRuleLayer } from './layers/rules.js';
import { withStreamFault } from './layers/stream-faults.js';
import { worldLayer } from './layers/world.js';
import { resolveConfig, type SimConfig, type SimOptions } from './config.js';
import { checkSimOptions } from './options.js';
import { keepExchange } from './control/exchange-details.js';
import { partitionReaders } from './control/readers.js';
import { createExchangePrinter, type ExchangePrinter } from './control/exchange-printer.js';
import { createPartitions, type Partition, type Partitions } from './state/partitions.js';
import { createControl, isControlPath } from './control/routes.js';
import {
  SimConfigError,
  SimInternalError,
  SimMethodNotAllowedError,
  SimRouteNotFoundError,
  TaggedError,
  UnknownError,
} from './errors.js';
import { guardControl } from './http/control-guard.js';
import { isAuthorized, offersTicket, refuse } from './http/auth.js';
import { corsHeaders, preflightHeaders, readExchange, writeAnswer, type IncomingExchange } from './http/io.js';
import { MAX_BODY_DEPTH, answerBody, headerText, jsonText, type Answer, type Exchange } from './exchange/exchange.js';
import { selectPartition, unaddressed } from './http/partition-address.js';
import { mergeRedaction } from './recordings/redact.js';
import { createSecretValues, type SecretValues } from './recordings/secret-values.js';
import { KINDS } from './kinds/registry.js';
import { createScenarioLibrary, type ScenarioLibrary } from './scenarios/scenario-library.js';
import { rebaseScenario } from './scenarios/load-scenario.js';
import { checkAnswer, checkedAnswer } from './openapi/answer-check.js';
import { toDeclaredError } from './openapi/input-errors.js';
import { projectContext } from './openapi/location.js';
import type { ExchangeEntry, Unnumbered } from './state/log.js';
import {
  DEFAULT_SPEC_PATH,
  loadSpecOnce,
  specFromDocument,
  type OperationDefinition,
  type SpecIndex,
} from './openapi/openapi.js';
import { specVersion, type SpecVersion } from './openapi/spec-version.js';
import { validateRequest } from './openapi/request-validation.js';
import { findOperation, type RouteResult } from './openapi/router.js';
import type { Violation } from './openapi/violation.js';

export interface PipelineDeps {
  config: SimConfig;
  /** Set in the proxy, record and replay modes: what answers requests, including those outside the spec. */
  passThrough?: PassThrough;
  spec: SpecIndex;
  partitions: Partitions;
  layers: Layer[];
  /** Where scenarios come from (mock mode only). */
  library?: ScenarioLibrary;
  /** Answers being streamed now (event streams, forwarded or not): a shutdown ends them rather than cutting them. */
  openStreams?: Set<ServerResponse>;
  /** The secret values clients sent, masked wherever they turn up again in what people are shown. */
  secrets?: SecretValues;
  /** Set when the served document is not the simulator's own spec: how it differs, and what the world still answers. */
  specVersion?: SpecVersion;
  /** Prints each exchange (`logExchanges`): flushed when the simulator closes. */
  printer?: ExchangePrinter;
}

/** The simulator without a host: its parts, and the pipeline that answers on plain Node types. */
export interface Simulator {
  sim: PipelineDeps;
  /**
   * The pipeline on plain Node types, for a server of its own: Express's router answers some request-targets
   * itself (in HTML) before any middleware runs, such as an absolute-form `http://x@`.
   */
  pipeline: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
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
  return app;
}

export async function createSimulator(options: SimOptions = {}): Promise<Simulator> {
  checkSimOptions(options, 'createSimulator');
  const config = resolveConfig(options);
  const home = await loadSpecOnce(DEFAULT_SPEC_PATH);
  const spec = await servedSpec(config);
  // Another version of the interface: the world keeps the operations whose shapes still fit (spec-version.ts).
  const worldOperations = new Set([...Object.keys(KINDS.handlers), ...STREAM_OPERATIONS]);
  const version =
    spec.hash === home.hash
      ? undefined
      : specVersion(home, spec, worldOperations, typeof config.spec === 'object' ? 'object' : config.specPath);
  const simulated = version && new Set(version.simulated);
  // Served by every partition whose scenario declares no project of its own.
  const project = projectContext(config.projectDir, config.projectId);
  const secrets = createSecretValues(mergeRedaction(config.redact));
  const passThrough = createModePassThrough(config, spec, secrets);
  // Scenarios describe the world, which is written for the simulator's own spec, whatever document is served.
  const library = passThrough ? undefined : createScenarioLibrary(home);
  const initial = config.scenario === undefined || !library ? undefined : library.load(config.scenario);
  const printer =
    config.logExchanges === undefined
      ? undefined
      : createExchangePrinter(config.logExchanges, { scrub: secrets.scrub, log: config.log });
  const partitions = createPartitions({
    kinds: KINDS,
    seed: config.seed,
    realTime: config.realTime,
    rebase: (definition, at) => rebaseScenario(definition, at, spec),
    initial,
    max: config.maxPartitions,
    project,
    ...partitionReaders({
      spec,
      kinds: KINDS,
      seed: config.seed,
      maxSubscribers: config.maxSubscribers,
      printer,
      simEvents: config.simEvents,
    }),
  });
  // The mode picks the source, and only that: the last layer, which always answers. Prism is loaded only where
  // it is the source, the mock (a real server or its recording answers otherwise).
  const source = passThrough
    ? passThroughLayer(passThrough)
    : fallbackLayer(await createFallback(spec, { dynamic: config.dynamic, seed: config.seed }));
  const layers: Layer[] = [
    runtimeRuleLayer(),
    scenarioRuleLayer(),
    // The simulated world's own event stream belongs to the mock: in front of a real server (or its recording)
    // the upstream's stream passes through. Left out by mode rather than declining per request when there is
    // no world, because a mock without a scenario (`--scenario none`) has no world yet still serves its stream.
    ...(passThrough ? [] : [eventStreamLayer, sessionStreamsLayer]),
    // Declines wherever the partition has no world, which is always so in the pass-through modes.
    worldLayer(KINDS),
  ].map((layer) => (simulated && layer.name === 'scenario' ? onlyFor(layer, simulated) : layer));
  layers.push(source);
  const sim: PipelineDeps = {
    config,
    passThrough,
    spec,
    partitions,
    layers,
    library,
    openStreams: new Set(),
    secrets,
    specVersion: version,
    printer,
  };
  return { sim, pipeline: createPipeline(sim) };
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

/** A layer of the world that declines the operations whose served shape it was not written for. */
function onlyFor(layer: Layer, operations: ReadonlySet<string>): Layer {
  return {
    ...layer,
    respond: (request) => (operations.has(request.operation.operationId) ? layer.respond(request) : undefined),
  };
}

/** The last resort for a failure the pipeline did not answer: logged, and answered in JSON if it still can be. */
export function answerUncaught(error: unknown, res: ServerResponse, log: (line: string) => void): void {
  log(`[uncaught] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  if (res.headersSent) res.destroy();
  else
    writeAnswer(
      res,
      new SimInternalError('uncaught', 'The simulator failed to answer; its log has the details').toAnswer(),
      {},
    );
}

export function createPipeline(deps: PipelineDeps): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const control = createControl(deps);
  const redaction = mergeRedaction(deps.config.redact);
  const offSpec = offSpecRules();

  return async function handle(req, res) {
    let incoming: IncomingExchange;
    let exchange: Exchange | undefined;
    let partition: Partition | undefined;
    let operation: OperationDefinition | undefined;
    let answer: Answer;
    let layer: LayerName;
    let violations: Violation[] = [];
    // Kept past the answer: the rule layers leave on it the near miss the journal shows, even when a layer after
    // them failed (a replay miss is the exchange a near miss best explains).
    let accepted: RuleSubject | undefined;
    try {
      // 1. Ingest: the whole body, then the partition it is addressed to, which stamps an id and its virtual time.
      const read = readExchange(req, deps.config.bodyLimit);
      incoming = read instanceof Promise ? await read : read;
    } catch {
      return; // the client went away mid-body: nobody is left to answer
    }
    try {
      ({ partition, exchange } = selectPartition(incoming, deps.partitions));
      deps.secrets?.note(exchange);
      if (exchange.method === 'OPTIONS') {
        answer = { kind: 'empty', status: 204, headers: preflightHeaders(req) };
        layer = 'cors';
      } else if (isControlPath(exchange.pathname)) {
        // 2. Control plane: for this machine's programs, or whoever holds the admin token.
        const granted = guardControl(exchange, deps.config.adminToken);
        answer = control(exchange, partition);
        if (answer.kind === 'json' && deps.secrets) answer = { ...answer, body: deps.secrets.scrubValue(answer.body) };
        if (answer.kind !== 'drop') answer.headers = { ...answer.headers, ...granted };
        layer = 'control';
      } else if (deps.config.auth && !isAuthorized(exchange, deps.config.auth) && !offersTicket(exchange)) {
        // Auth (when on): after the control plane, which stays open (loopback by default, and how a test drives
        // the simulator), and before routing, so unknown paths are 401 too, as on the real server.
        ({ answer, operation } = refuse(deps.spec, exchange));
        layer = 'auth';
      } else {
        // 3. Route. Off the spec, a rule by method and path answers; else a proxy passes the request on (and
        // says so) and the mock refuses it.
        const routed = route(deps.spec, exchange);
        if (routed.kind !== 'found') {
          const subject = offSpecSubject(exchange, partition);
          accepted = subject;
          ({ answer, layer, violations } = await answerOffSpec(deps, offSpec, routed, subject));
        } else {
          operation = routed.operation;
          // 4. Validate the request (a proxy reports what is wrong and forwards it all the same).
          const { request, problems } = accept(
            routed.operation,
            routed.params,
            exchange,
            partition,
            deps.passThrough !== undefined,
          );
          accepted = request;
          violations = problems;
          // 5. Choose who answers; a rule's stream faults shape the stream whoever answered sends.
          ({ answer, layer } = await chooseAnswer(deps.layers, request));
          if (request.streamFault) answer = withStreamFault(answer, request);
          // 6. Check the answer against the spec (a stream is still being written, a dropped connection and a
          // WebSocket have no body to check, and a rule that leaves the spec on purpose is not held to it).
          if (answer.kind !== 'stream' && answer.kind !== 'drop' && answer.kind !== 'upgrade' && !answer.outsideSpec)
            violations = [...violations, ...checkedAnswer(operation, answer)];
        }
      }
    } catch (error) {
      exchange ??= unaddressed(incoming);
      ({ answer, layer } = errorAnswer(error, operation, exchange, deps));
      if (operation && error instanceof TaggedError && !error.fromSimulator)
        violations = checkAnswer(operation, answer.status, answerBody(answer));
    }
    // 7. Keep account: the exchange joins the partition's log (after the events it caused), whole as the client
    // gets it (its secrets masked whenever it is shown); the journal, coverage, the exchange details and the
    // inspector read it there.
    // Bookkeeping that fails is logged: it never costs the client its answer.
    const headers = corsHeaders(req);
    headers['x-sim-layer'] = layer;
    headers['x-sim-request-id'] = exchange.id;
    if (partition && partition !== deps.partitions.default) headers['x-sim-partition'] = partition.name;
    if (operation) headers['x-sim-operation'] = operation.operationId;
    if (answer.rule !== undefined) headers['x-sim-rule'] = answer.rule;
    if (violations.length) headers['x-sim-violations'] = String(violations.length);
    if (partition && layer !== 'control' && layer !== 'cors') {
      try {
        if (answer.kind === 'json' && answer.body !== undefined && answer.status !== 204) jsonText(answer);
        const missed = answer.rule === undefined ? accepted?.nearMiss : undefined;
        const nearMiss = missed && { rule: missed.rule, failed: missed.failed };
        const entry = exchangeEntry(exchange, operation, answer, layer, violations, nearMiss);
        entry.details = keepExchange(exchange, answer, headers, redaction);
        partition.log.append(entry);
      } catch (error) {
        deps.config.log(
          `[bookkeeping] ${exchange.method} ${exchange.pathname}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
        );
      }
    }
    // 8. Send.
    if (res.headersSent) return;
    const streams = deps.openStreams;
    if (answer.kind === 'stream' && streams) {
      streams.add(res);
      res.once('close', () => streams.delete(res));
    }
    writeAnswer(res, answer, headers);
  };
}

/**
 * A request the proxy modes pass on though no operation of the spec matches it: noted, never refused. One
 * object for every such entry, frozen so that no reader changes it for the others.
 */
const NO_ROUTE: Violation = Object.freeze({
  side: 'request',
  in: 'route',
  message: 'no operation of the spec matches',
});

/** The log's line for an answered exchange: who answered, how, and what was wrong with it. */
function exchangeEntry(
  exchange: Exchange,
  operation: OperationDefinition | undefined,
  answer: Answer,
  layer: LayerName,
  violations: Violation[],
  nearMiss: NearMiss | undefined,
): Unnumbered<ExchangeEntry> {
  const entry: Unnumbered<ExchangeEntry> = {
    kind: 'exchange',
    id: exchange.id,
    time: exchange.now,
    method: exchange.method,
    path: exchange.pathname,
    operationId: operation?.operationId,
    layer,
    status: answer.status,
  };
  if (answer.status >= 400) {
    const body = answerBody(answer) as { _tag?: unknown; name?: unknown } | undefined;
    const tag = body?._tag ?? body?.name;
    if (typeof tag === 'string') entry.tag = tag;
  }
  if (answer.rule !== undefined) entry.rule = answer.rule;
  if (answer.outsideSpec) entry.outsideSpec = true;
  if (violations.length) entry.violations = violations;
  if (nearMiss) entry.nearMiss = nearMiss;
  return entry;
}

function route(spec: SpecIndex, exchange: Exchange): RouteResult {
  return findOperation(spec, exchange.method === 'HEAD' ? 'GET' : exchange.method, exchange.pathname);
}

/** A request no operation matches, as rules by method and path see it: the query as sent, a JSON body parsed. */
function offSpecSubject(exchange: Exchange, partition: Partition): RuleSubject {
  const query: Record<string, unknown> = {};
  for (const [name, value] of exchange.searchParams) {
    const before = query[name];
    query[name] = before === undefined ? value : Array.isArray(before) ? [...before, value] : [before, value];
  }
  let body: unknown;
  if (exchange.rawBody.length && /json/i.test(headerText(exchange.headers['content-type']) ?? '')) {
    try {
      body = JSON.parse(exchange.rawBody.toString('utf8'));
    } catch {
      body = undefined; // not JSON after all: a rule's body condition then says what it is
    }
  }
  return { exchange, pathParams: {}, query, body, partition };
}

/**
 * A request outside the spec: a rule by method and path answers it; else a proxy passes it on, noting that no
 * operation matches, and the mock refuses it (404, or 405 where the path has other methods).
 */
async function answerOffSpec(
  deps: PipelineDeps,
  offSpec: ReturnType<typeof offSpecRules>,
  routed: Exclude<RouteResult, { kind: 'found' }>,
  subject: RuleSubject,
): Promise<{ answer: Answer; layer: LayerName; violations: Violation[] }> {
  const { exchange, partition } = subject;
  const stubbed = offSpec(subject);
  if (stubbed) return { answer: await stubbed, layer: 'rule', violations: [] };
  if (deps.passThrough) {
    const passed = await deps.passThrough(exchange, {}, partition.replayCursors);
    return { answer: withStreamFault(passed, subject), layer: passed.layer ?? 'upstream', violations: [NO_ROUTE] };
  }
  if (routed.kind === 'method-not-allowed')
    throw new SimMethodNotAllowedError(exchange.method, exchange.pathname, routed.allowed);
  throw new SimRouteNotFoundError(exchange.method, exchange.pathname, routed.closest);
}

function accept(
  operation: OperationDefinition,
  pathParams: Record<string, string>,
  exchange: Exchange,
  partition: Partition,
  passThrough: boolean,
): { request: AcceptedRequest; problems: Violation[] } {
  const contentType = exchange.headers['content-type'];
  const { query, body, violations } = validateRequest(operation, {
    pathParams,
    searchParams: exchange.searchParams,
    contentType,
    rawBody: exchange.rawBody,
  });
  if (exchange.bodyRefused === 'too-large')
    violations.unshift({ side: 'request', in: 'body', message: 'Request body is larger than the simulator accepts' });
  if (exchange.bodyRefused === 'too-deep')
    violations.unshift({
      side: 'request',
      in: 'body',
      message: `Request body nests deeper than ${MAX_BODY_DEPTH} levels`,
    });
  if (violations.length && !passThrough) throw toDeclaredError(operation, violations, pathParams);
  // Prefer controls steer the mock; to a real server they are just a header to pass on.
  const preferences = passThrough ? {} : readPreferences(headerText(exchange.headers.prefer), operation);
  return {
    request: { exchange, operation, pathParams, query, body, preferences, partition },
    problems: violations,
  };
}

async function chooseAnswer(layers: Layer[], request: AcceptedRequest): Promise<{ answer: Answer; layer: LayerName }> {
  // A Prefer control asks for the spec-driven answer explicitly: stateful layers step aside for it.
  const explicit = Object.keys(request.preferences).length > 0;
  for (const layer of layers) {
    if (explicit && !layer.honorsPreferences) continue;
    try {
      const pending = layer.respond(request);
      const answer = pending instanceof Promise ? await pending : pending;
      if (answer) return { answer, layer: answer.layer ?? layer.name };
    } catch (error) {
      // A declared error a layer decided on is that layer's answer.
      if (error instanceof TaggedError && !error.fromSimulator) return { answer: error.toAnswer(), layer: layer.name };
      throw error;
    }
  }
  throw new Error(`No layer answered ${request.operation.operationId}`);
}

/** The only writer of error bodies. Unexpected failures are logged with their stack, never sent with it. */
function errorAnswer(
  error: unknown,
  operation: OperationDefinition | undefined,
  exchange: Exchange,
  deps: PipelineDeps,
): { answer: Answer; layer: LayerName } {
  let tagged: TaggedError;
  if (error instanceof TaggedError) {
    tagged = error;
  } else {
    const ref = `err_${createHash('sha256').update(`${deps.config.seed}:${exchange.id}`).digest('hex').slice(0, 8)}`;
    deps.config.log(
      `[${ref}] ${exchange.method} ${exchange.pathname}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    tagged = operation?.declaredTags.has('UnknownError')
      ? new UnknownError(ref)
      : new SimInternalError(ref, 'The simulator failed to answer; its log has the details under this ref');
  }
  return { answer: tagged.toAnswer(), layer: tagged.fromSimulator ? 'simulator' : 'validation' };
}

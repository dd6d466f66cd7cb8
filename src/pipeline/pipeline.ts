/**
 * One request, top to bottom, whoever hosts it (Node's HTTP server in `app.ts`, a Fetch API handler for msw and
 * the browser in `http/fetch-io.ts`):
 *   1 ingest (the host reads the request; the partition is picked here) → 2 control plane → (auth, when on)
 *   → 3 route → 4 validate request → 5 choose who answers → 6 check the answer → 7 journal (into the
 *   partition's log) → 8 send (the host writes what was decided); every failure on the way meets one error
 *   writer. What only Node has (Prism, the filesystem, the proxy) comes in as layers, so the browser build
 *   takes this file as it is.
 */
import { createHash } from 'node:crypto';
import type { PassThrough } from '../layers/pass-through.js';
import type { AcceptedRequest, Layer, RuleSubject } from '../layers/layer.js';
import type { AnsweredBy, NearMiss } from '../exchange/answered-by.js';
import { offSpecRules } from '../layers/rules.js';
import { withStreamFault } from '../layers/stream-faults.js';
import type { SimConfig } from '../config/config.js';
import { keepExchange } from '../control/exchange-details.js';
import type { ExchangePrinter } from '../control/exchange-printer.js';
import type { Partition, Partitions } from '../control/partitions.js';
import { CONTROL_PREFIX, createControl, isControlPath } from '../control/routes.js';
import {
  SimInternalError,
  SimMethodNotAllowedError,
  SimRouteNotFoundError,
  TaggedError,
  UnknownError,
} from '../errors/errors.js';
import { guardControl } from '../http/control-guard.js';
import type { Decide, Reply } from '../http/decide.js';
import { isAuthorized, offersTicket, refuse } from '../http/auth.js';
import { corsHeaders, preflightHeaders } from '../http/request.js';
import { MAX_BODY_DEPTH, answerBody, headerText, jsonText, type Answer, type Exchange } from '../exchange/exchange.js';
import { PARTITION_PREFIX, selectPartition, unaddressed } from '../http/partition-address.js';
import { mergeRedaction } from '../recordings/redact.js';
import type { SecretValues } from '../recordings/secret-values.js';
import type { ScenarioLibrary } from '../scenarios/scenario-library.js';
import { checkAnswer, checkedAnswer } from '../openapi/answer-check.js';
import { toDeclaredError, type KindInputErrors } from '../openapi/input-errors.js';
import type { ExchangeEntry, Unnumbered } from '../state/log.js';
import type { OperationDefinition, SpecIndex } from '../openapi/openapi.js';
import type { SpecVersion } from '../openapi/spec-version.js';
import { validateRequest, type QueryCheck } from '../openapi/request-validation.js';
import { findOperation, type RouteResult } from '../openapi/router.js';
import type { Violation } from '../openapi/violation.js';
import { readPreferences } from '../layers/preferences.js';
import { closest } from '../text/closest.js';

export interface PipelineDeps {
  config: SimConfig;
  /** Set in the proxy, record and replay modes: what answers requests, including those outside the spec. */
  passThrough?: PassThrough;
  spec: SpecIndex;
  /** Operations whose WebSocket handshake a connect ticket opens in place of credentials (the kinds'). */
  ticketed?: ReadonlySet<string>;
  partitions: Partitions;
  layers: Layer[];
  /** Where scenarios come from (mock mode only). */
  library?: ScenarioLibrary;
  /** Answers being streamed now (event streams, forwarded or not): a shutdown ends them rather than cutting them. */
  openStreams?: Set<{ end(): void }>;
  /** The secret values clients sent, masked wherever they turn up again in what people are shown. */
  secrets?: SecretValues;
  /** Set when the served document is not the simulator's own spec: how it differs, and what the world still answers. */
  specVersion?: SpecVersion;
  /** Prints each exchange (`logExchanges`): flushed when the simulator closes. */
  printer?: ExchangePrinter;
  /** The kinds' errors for bad input that names them; without them, bad input gets only the generic errors. */
  inputErrors?: KindInputErrors;
  /** The kinds' query rules beyond the schema, by operationId; without them, only the schema is checked. */
  queryChecks?: Readonly<Record<string, QueryCheck>>;
}

const NO_KIND_INPUT_ERRORS: KindInputErrors = { notFound: {}, badInput: {} };

// Declared with the hosts that call it, below this file.
export type { Decide, Reply };

export function createDecide(deps: PipelineDeps): Decide {
  const control = createControl(deps);
  const redaction = mergeRedaction(deps.config.redact);
  const offSpec = offSpecRules();

  return async function decide(incoming) {
    let exchange: Exchange | undefined;
    let partition: Partition | undefined;
    let operation: OperationDefinition | undefined;
    let answer: Answer;
    let layer: AnsweredBy;
    let violations: Violation[] = [];
    // Kept past the answer: the rule layers leave on it the near miss the journal shows, even when a layer after
    // them failed (a replay miss is the exchange a near miss best explains).
    let accepted: RuleSubject | undefined;
    try {
      // 1. Ingest (the host read the request): the partition it is addressed to stamps an id and its virtual time.
      ({ partition, exchange } = selectPartition(incoming, deps.partitions));
      // A partition whose clock advances in slices is between two instants: what is addressed to it waits for
      // the advance (and those queued behind it), then reads the world at the new now.
      if (partition.engine.advancing !== undefined) {
        for (let busy = partition.engine.advancing; busy !== undefined; busy = partition.engine.advancing) await busy;
        partition.engine.clock.settle();
        exchange.now = partition.engine.clock.now();
      }
      deps.secrets?.note(exchange);
      if (exchange.method === 'OPTIONS') {
        answer = { kind: 'empty', status: 204, headers: preflightHeaders(incoming.headers) };
        layer = 'cors';
      } else if (isControlPath(exchange.pathname)) {
        // 2. Control plane: for this machine's programs, or whoever holds the admin token.
        const granted = guardControl(exchange, deps.config.adminToken);
        answer = await control(exchange, partition);
        if (answer.kind === 'json' && deps.secrets) answer = { ...answer, body: deps.secrets.scrubValue(answer.body) };
        if (answer.kind !== 'drop') answer.headers = { ...answer.headers, ...granted };
        layer = 'control';
      } else if (
        deps.config.auth &&
        !isAuthorized(exchange, deps.config.auth) &&
        !offersTicket(exchange, deps.spec, deps.ticketed ?? NONE)
      ) {
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
            deps.inputErrors ?? NO_KIND_INPUT_ERRORS,
            deps.queryChecks ?? {},
          );
          accepted = request;
          violations = problems;
          // 5. Choose who answers; a rule's stream faults shape the stream whoever answered sends.
          ({ answer, layer } = await chooseAnswer(deps.layers, request));
          if (request.streamFault) answer = withStreamFault(answer, request);
          // 6. Check the answer against the spec (a stream is still being written, a dropped connection and a
          // WebSocket have no body to check, and a rule that leaves the spec on purpose is not held to it).
          if (answer.kind !== 'stream' && answer.kind !== 'drop' && answer.kind !== 'upgrade' && !answer.outsideSpec) {
            // The check's list may be shared with other answers of the same bytes: joined, never changed.
            const wrong = checkedAnswer(operation, answer);
            if (wrong.length) violations = [...violations, ...wrong];
          }
        }
      }
    } catch (error) {
      exchange ??= unaddressed(incoming);
      ({ answer, layer } = errorAnswer(error, operation, exchange, partition, deps));
      if (operation && error instanceof TaggedError && !error.fromSimulator)
        violations = checkAnswer(operation, answer.status, answerBody(answer));
    }
    // 7. Keep account: the exchange joins the partition's log (after the events it caused), whole as the client
    // gets it (its secrets masked whenever it is shown); the journal, coverage, the exchange details and the
    // inspector read it there.
    // Bookkeeping that fails is logged: it never costs the client its answer.
    const headers = corsHeaders(incoming.headers);
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
        partition.engine.log.append(entry);
      } catch (error) {
        deps.config.log(
          `[bookkeeping] ${exchange.method} ${exchange.pathname}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
        );
      }
    }
    // 8. Send: the host writes the answer (io.ts on a socket, fetch-io.ts as a Fetch Response).
    return { answer, headers };
  };
}

/**
 * A request the proxy modes pass on though no operation of the spec matches it: noted, never refused. One
 * object for every such entry, frozen so that no reader changes it for the others.
 */
const NONE: ReadonlySet<string> = new Set();

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
  layer: AnsweredBy,
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
): Promise<{ answer: Answer; layer: AnsweredBy; violations: Violation[] }> {
  const { exchange, partition } = subject;
  const stubbed = offSpec(subject);
  if (stubbed) return { answer: await stubbed, layer: 'rule', violations: [] };
  if (deps.passThrough) {
    const passed = await deps.passThrough(exchange, {}, partition.replayCursors);
    return { answer: withStreamFault(passed, subject), layer: passed.answeredBy ?? 'upstream', violations: [NO_ROUTE] };
  }
  if (routed.kind === 'method-not-allowed')
    throw new SimMethodNotAllowedError(exchange.method, exchange.pathname, routed.allowed);
  throw new SimRouteNotFoundError(
    exchange.method,
    exchange.pathname,
    routed.closest,
    misspeltAddress(exchange.pathname),
  );
}

/** The first segments of the simulator's own paths: `/__partition/NAME/…` and `/__sim/…`. */
const OWN_SEGMENTS = [PARTITION_PREFIX.slice(1, -1), CONTROL_PREFIX.slice(1)];

/**
 * The path meant when its first segment is a slip of the simulator's own (`/__partiton/alice/api/session`,
 * `/__simm/clock`): no operation of the interface was asked for, so the operations that happen to look
 * nearest would only mislead.
 */
function misspeltAddress(pathname: string): string | undefined {
  const [, first = '', ...rest] = pathname.split('/');
  if (OWN_SEGMENTS.includes(first)) return undefined;
  const near = closest(first, OWN_SEGMENTS);
  return near === undefined ? undefined : ['', near, ...rest].join('/');
}

function accept(
  operation: OperationDefinition,
  pathParams: Record<string, string>,
  exchange: Exchange,
  partition: Partition,
  passThrough: boolean,
  inputErrors: KindInputErrors,
  queryChecks: Readonly<Record<string, QueryCheck>>,
): { request: AcceptedRequest; problems: Violation[] } {
  const contentType = exchange.headers['content-type'];
  const { query, body, violations } = validateRequest(
    operation,
    {
      pathParams,
      searchParams: exchange.searchParams,
      contentType,
      rawBody: exchange.rawBody,
    },
    queryChecks,
  );
  if (exchange.bodyRefused === 'too-large')
    violations.unshift({ side: 'request', in: 'body', message: 'Request body is larger than the simulator accepts' });
  if (exchange.bodyRefused === 'too-deep')
    violations.unshift({
      side: 'request',
      in: 'body',
      message: `Request body nests deeper than ${MAX_BODY_DEPTH} levels`,
    });
  if (violations.length && !passThrough) throw toDeclaredError(operation, violations, pathParams, inputErrors);
  // Prefer controls steer the mock; to a real server they are just a header to pass on.
  const preferences = passThrough ? {} : readPreferences(headerText(exchange.headers.prefer), operation);
  return {
    request: { exchange, operation, pathParams, query, body, preferences, partition },
    problems: violations,
  };
}

async function chooseAnswer(layers: Layer[], request: AcceptedRequest): Promise<{ answer: Answer; layer: AnsweredBy }> {
  // A Prefer control asks for the spec-driven answer explicitly: stateful layers step aside for it.
  const explicit = Object.keys(request.preferences).length > 0;
  for (const layer of layers) {
    if (explicit && !layer.honorsPreferences) continue;
    try {
      const pending = layer.respond(request);
      const answer = pending instanceof Promise ? await pending : pending;
      if (answer) return { answer, layer: answer.answeredBy ?? layer.answersAs };
    } catch (error) {
      // A declared error a layer decided on is that layer's answer.
      if (error instanceof TaggedError && !error.fromSimulator)
        return { answer: error.toAnswer(), layer: layer.answersAs };
      throw error;
    }
  }
  throw new Error(`No layer answered ${request.operation.operationId}`);
}

/** Unexpected failures so far in this process: one ref each, however their partitions number requests. */
let failures = 0;

/**
 * The ref an unexpected failure is answered and logged with, to find its log line (and stack) from the answer:
 * it must name that one failure. Request ids repeat (each partition counts its own, and starts again when
 * reset), so the process's count of failures is folded in; the same run of requests still gets the same refs.
 */
function failureRef(seed: string, partition: string | undefined, id: string): string {
  const source = `${seed}:${partition ?? ''}:${id}:${++failures}`;
  return `err_${createHash('sha256').update(source).digest('hex').slice(0, 8)}`;
}

/** The only writer of error bodies. Unexpected failures are logged with their stack, never sent with it. */
function errorAnswer(
  error: unknown,
  operation: OperationDefinition | undefined,
  exchange: Exchange,
  partition: Partition | undefined,
  deps: PipelineDeps,
): { answer: Answer; layer: AnsweredBy } {
  let tagged: TaggedError;
  if (error instanceof TaggedError) {
    tagged = error;
  } else {
    const ref = failureRef(deps.config.seed, partition?.name, exchange.id);
    deps.config.log(
      `[${ref}] ${exchange.method} ${exchange.pathname}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    tagged = operation?.declaredTags.has('UnknownError')
      ? new UnknownError(ref)
      : new SimInternalError(ref, 'The simulator failed to answer; its log has the details under this ref');
  }
  return { answer: tagged.toAnswer(), layer: tagged.fromSimulator ? 'simulator' : 'validation' };
}

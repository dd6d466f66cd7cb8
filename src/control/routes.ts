/**
 * The simulator's own routes under `/__sim`, outside the API's namespace: JSON in, JSON out. Each acts on the
 * partition the request was addressed to (`X-Sim-Partition` or the `/__partition/NAME/` prefix), so a test
 * worker drives its own clock, rules and world; `/__sim/partitions` looks across them.
 */
import { describeMs, MAX_TIME, MAX_TIME_ISO, parseDuration } from '../text/duration.js';
import { closest, didYouMean } from '../text/closest.js';
import {
  SimControlRequestError,
  SimMethodNotAllowedError,
  SimRequestRefusedError,
  SimRouteNotFoundError,
  SimScenarioError,
} from '../errors/errors.js';
import { MAX_BODY_DEPTH } from '../exchange/exchange.js';
import { describeProblem, ScenarioError } from '../scenarios/definition.js';
import { emptyAnswer, jsonAnswer, type Answer, type Exchange } from '../exchange/exchange.js';
import type { SecretValues } from '../recordings/secret-values.js';
import type { ScenarioDefinition } from '../scenarios/definition.js';
import type { ScenarioLibrary } from '../scenarios/scenario-library.js';
import type { SpecIndex } from '../openapi/openapi.js';
import type { SpecVersion } from '../openapi/spec-version.js';
import { hintOf, safeDecode } from '../openapi/router.js';
import { coverageReport, mergeCounts } from './coverage.js';
import { inspectorRoutes } from './inspector-routes.js';
import type { Partition, Partitions } from './partitions.js';
import { addRuntimeRule, listRules } from './runtime-rules.js';
import { stateBody, type ClockState } from './state-body.js';

export const CONTROL_PREFIX = '/__sim';

export interface ControlDeps {
  spec: SpecIndex;
  partitions: Partitions;
  /** Absent in the proxy, record and replay modes: no scenario serves there. */
  library?: ScenarioLibrary;
  /** Masks the secret values clients sent, in what the live stream shows. */
  secrets?: SecretValues;
  /** How the served document differs from the simulator's own spec, when it does. */
  specVersion?: SpecVersion;
  /** The body limit a refusal of a larger body names (the pipeline's config). */
  config?: { bodyLimit: number };
}

interface ControlRequest {
  exchange: Exchange;
  partition: Partition;
  params: Record<string, string>;
}

/** A route answers at once, or later when it waits for work done in slices (a clock advance). */
type ControlRoute = (request: ControlRequest) => Answer | Promise<Answer>;

export function createControl(
  deps: ControlDeps,
): (exchange: Exchange, partition: Partition) => Answer | Promise<Answer> {
  const { spec, partitions, library } = deps;
  const clockBody = (p: Partition): ClockState => ({
    partition: p.name,
    now: p.engine.clock.now(),
    iso: new Date(p.engine.clock.now()).toISOString(),
    realTime: p.engine.clock.realTime,
  });
  const scenarioBody = (p: Partition) => ({ scenario: p.engine.scenario?.name ?? null, ...clockBody(p) });
  const routes: Record<string, Record<string, ControlRoute>> = {
    // The web inspector: its page, assets, live stream and exchange details.
    ...inspectorRoutes(partitions.streams.live, deps.secrets?.scrub),
    '/__sim/operations': {
      GET: () => jsonAnswer(200, { specHash: spec.hash, operations: spec.operations.map(hintOf) }),
    },
    // Which version of the interface is served, and what of it the world still simulates (docs/spec-versions.md).
    '/__sim/spec': {
      GET: () =>
        jsonAnswer(
          200,
          deps.specVersion ?? {
            source: 'built-in',
            hash: spec.hash,
            summary: `the simulator's own spec: ${spec.operations.length} operations`,
          },
        ),
    },
    '/__sim/journal': {
      GET: ({ partition }) => jsonAnswer(200, { partition: partition.name, entries: partition.journal.entries() }),
      DELETE: ({ partition }) => {
        partition.journal.clear();
        return emptyAnswer(204);
      },
    },
    '/__sim/events': {
      GET: ({ partition, exchange }) => {
        const after = Number(exchange.searchParams.get('after') ?? 0);
        const entries = partition.engine.log
          .entries(Number.isFinite(after) ? after : 0)
          .filter((e) => e.kind !== 'exchange');
        return jsonAnswer(200, { partition: partition.name, entries });
      },
    },
    '/__sim/clock': { GET: ({ partition }) => jsonAnswer(200, clockBody(partition)) },
    '/__sim/clock/advance': {
      POST: ({ exchange, partition }) => {
        // In slices: a long advance (thousands of queued turns) must not hold up the other partitions.
        const ms = advanceBy(jsonBody(exchange), partition.engine.clock.now());
        return partition.engine.advanceInSlices(ms).then(() => jsonAnswer(200, clockBody(partition)));
      },
    },
    '/__sim/scenarios': {
      GET: ({ partition }) =>
        jsonAnswer(200, { current: partition.engine.scenario?.name ?? null, available: library?.available() ?? [] }),
    },
    '/__sim/scenario': {
      PUT: ({ exchange, partition }) => {
        const body = jsonBody(exchange);
        const load = scenarioLoader(body);
        if (!load) {
          throw new SimControlRequestError(
            'Name the scenario to switch to',
            'Send {"name": "forms-settling"} (GET /__sim/scenarios lists them), {"yaml": "…a scenario file\'s text…", "file": "its name, for problems"} or {"scenario": {…a scenario as an object…}}',
          );
        }
        if (!library)
          throw new SimControlRequestError(
            'This simulator serves no scenarios in this mode',
            'Scenarios serve in mock mode: start it with `mock --scenario NAME`',
          );
        let definition;
        try {
          definition = load(library);
        } catch (error) {
          if (error instanceof ScenarioError) throw new SimScenarioError(error.problems.map(describeProblem));
          throw error;
        }
        partition.useScenario(definition);
        return jsonAnswer(200, scenarioBody(partition));
      },
    },
    '/__sim/reset': {
      POST: ({ partition }) => {
        partition.reset();
        return jsonAnswer(200, scenarioBody(partition));
      },
    },
    '/__sim/state': {
      GET: ({ partition }) =>
        jsonAnswer(
          200,
          stateBody(
            clockBody(partition),
            partition.engine.snapshot(),
            listRules(partition),
            partition.engine.clock.timers(),
          ),
        ),
    },
    '/__sim/rules': {
      GET: ({ partition }) => jsonAnswer(200, { partition: partition.name, rules: listRules(partition) }),
      POST: ({ exchange, partition }) => jsonAnswer(201, addRuntimeRule(partition, spec, jsonBody(exchange))),
      DELETE: ({ partition }) => {
        partition.rules.clear();
        partition.engine.note('rule.removed', 'all');
        return emptyAnswer(204);
      },
    },
    '/__sim/rules/:id': {
      DELETE: ({ partition, params }) => {
        const rule = partition.rules.remove(params.id ?? '');
        partition.engine.note('rule.removed', rule.definition.where);
        return emptyAnswer(204);
      },
    },
    '/__sim/coverage': {
      GET: ({ partition, exchange }) => {
        // ?all merges every partition: parallel workers each cover part of the API, the suite covers the sum.
        const all = exchange.searchParams.has('all');
        const counts = all
          ? mergeCounts(partitions.list().map((p) => p.coverage.counts()))
          : partition.coverage.counts();
        return jsonAnswer(200, { partition: all ? null : partition.name, ...coverageReport(counts, spec) });
      },
    },
    '/__sim/partitions': {
      GET: () =>
        jsonAnswer(200, {
          partitions: partitions.list().map((p) => ({
            name: p.name,
            scenario: p.engine.scenario?.name ?? null,
            now: p.engine.clock.now(),
            events: p.engine.log.lastSeq,
          })),
        }),
    },
    '/__sim/partitions/:name': {
      DELETE: ({ params }) => {
        partitions.delete(params.name ?? '');
        return emptyAnswer(204);
      },
    },
  };

  const patterns = Object.keys(routes).map((pattern) => ({ pattern, parts: pattern.split('/') }));
  const match = (pathname: string): { pattern: string; params: Record<string, string> } | undefined => {
    const parts = pathname.split('/');
    for (const { pattern, parts: expected } of patterns) {
      if (expected.length !== parts.length) continue;
      const params: Record<string, string> = {};
      if (
        expected.every((p, i) =>
          p.startsWith(':') ? ((params[p.slice(1)] = safeDecode(parts[i] ?? '')), true) : p === parts[i],
        )
      )
        return { pattern, params };
    }
    return undefined;
  };

  return (exchange, partition) => {
    const found = match(exchange.pathname);
    if (!found) {
      const known = Object.entries(routes).flatMap(([path, methods]) =>
        Object.keys(methods).map((method) => ({ operationId: 'sim.control', method, path })),
      );
      // A slip in a control path (/__sim/journl) points at the route meant; anything else lists them all.
      const near = closest(exchange.pathname, Object.keys(routes));
      throw new SimRouteNotFoundError(
        exchange.method,
        exchange.pathname,
        near ? known.filter((route) => route.path === near) : known,
      );
    }
    const byMethod = routes[found.pattern] ?? {};
    const route = byMethod[exchange.method];
    if (!route) {
      throw new SimMethodNotAllowedError(
        exchange.method,
        exchange.pathname,
        Object.keys(byMethod).map((method) => ({ operationId: 'sim.control', method, path: found.pattern })),
      );
    }
    // A body the host did not keep reads as none: a route would answer as if nothing had been sent.
    if (exchange.bodyRefused) refuseBody(exchange.bodyRefused, deps.config?.bodyLimit);
    return route({ exchange, partition, params: found.params });
  };
}

const ADVANCE_FIELDS = ['by', 'ms'];
const ADVANCE_HINT = 'Send {"by": "30s"} (250ms, 30s, 5m, 1h, 1m30s) or {"ms": 5000}, not negative';

/** How far `POST /__sim/clock/advance` asks to move a clock that reads `now`, or why it cannot. */
function advanceBy(body: Record<string, unknown>, now: number): number {
  for (const field of Object.keys(body)) {
    if (!ADVANCE_FIELDS.includes(field))
      throw new SimControlRequestError(
        `Unknown field ${JSON.stringify(field)} in a clock advance.${didYouMean(field, ADVANCE_FIELDS)}`,
        ADVANCE_HINT,
      );
  }
  if (body.by !== undefined && body.ms !== undefined)
    throw new SimControlRequestError('Say how far to advance the clock once: by or ms, not both', ADVANCE_HINT);
  const given = body.by ?? body.ms;
  if (given === undefined) throw new SimControlRequestError('Say how far to advance the clock', ADVANCE_HINT);
  // ms is a number; by is a duration's text, or a number of ms as parseDuration reads one.
  const ms =
    typeof given === 'number' || (typeof given === 'string' && body.by !== undefined)
      ? parseDuration(given)
      : undefined;
  if (ms === undefined)
    throw new SimControlRequestError(`${JSON.stringify(given)} is not an amount of time to advance by`, ADVANCE_HINT);
  // Refused before anything moves, so the partition keeps a clock every answer can stamp a date with.
  if (ms > MAX_TIME - now)
    throw new SimControlRequestError(
      `Advancing by ${ms} ms would take the clock past ${MAX_TIME_ISO}, the last instant a date can hold`,
      `The largest advance from now (${new Date(now).toISOString()}) is ${describeMs(Math.max(0, MAX_TIME - now))}`,
    );
  return ms;
}

/** Answers a request whose body the host refused to keep: too large to read, or nested too deep to parse. */
function refuseBody(refusal: NonNullable<Exchange['bodyRefused']>, limit: number | undefined): never {
  if (refusal === 'too-deep')
    throw new SimControlRequestError(
      `The body nests deeper than ${MAX_BODY_DEPTH} levels`,
      'Send the control API a JSON object as the routes take it (GET /__sim/operations, docs/how-it-answers.md)',
    );
  throw new SimRequestRefusedError(
    413,
    `Request body is larger than the simulator accepts${limit === undefined ? '' : ` (${limit} bytes)`}`,
    'Send a smaller body, or start the simulator with a larger bodyLimit (--body-limit BYTES on the command line)',
  );
}

/** The three ways a scenario arrives over HTTP; none of them is a path the simulator would read. */
function scenarioLoader(body: Record<string, unknown>): ((library: ScenarioLibrary) => ScenarioDefinition) | undefined {
  const { name, yaml, file, scenario } = body;
  if (typeof name === 'string' && name !== '') return (library) => library.loadNamed(name);
  if (typeof yaml === 'string')
    return (library) => library.loadText(yaml, typeof file === 'string' && file !== '' ? file : '<yaml>');
  if (isObject(scenario)) return (library) => library.load(scenario);
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function jsonBody(exchange: Exchange): Record<string, unknown> {
  if (exchange.rawBody.length === 0) return {};
  try {
    const parsed = JSON.parse(exchange.rawBody.toString('utf8')) as unknown;
    if (isObject(parsed)) return parsed;
  } catch {
    // reported below
  }
  throw new SimControlRequestError(
    'The control API takes a JSON object body',
    'Send Content-Type: application/json with an object, e.g. {"ms": 1000}',
  );
}

export function isControlPath(pathname: string): boolean {
  return pathname === CONTROL_PREFIX || pathname.startsWith(`${CONTROL_PREFIX}/`);
}

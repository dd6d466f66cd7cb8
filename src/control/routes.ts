/**
 * The simulator's own routes under `/__sim`, outside the API's namespace: JSON in, JSON out.
 */
import type { Clock } from '../state/clock.js';
import { parseDuration } from '../duration.js';
import { SimControlRequestError, SimMethodNotAllowedError, SimRouteNotFoundError } from '../errors.js';
import type { Answer, Exchange } from '../http/io.js';
import type { Journal } from './journal.js';
import type { SpecIndex } from '../spec/openapi.js';
import { hintOf } from '../spec/router.js';
import type { ScenarioHost } from '../scenarios/scenario-host.js';
import { snapshotWorld } from '../state/world.js';

export const CONTROL_PREFIX = '/__sim';

export interface ControlDeps {
  spec: SpecIndex;
  journal: Journal;
  clock: Clock;
  scenarios?: ScenarioHost;
}

type ControlRoute = (exchange: Exchange) => Answer;

export function createControl(deps: ControlDeps): (exchange: Exchange) => Answer {
  const clockBody = () => ({ now: deps.clock.now(), iso: new Date(deps.clock.now()).toISOString(), realTime: deps.clock.realTime });
  const scenarioBody = () => ({ scenario: deps.scenarios?.world.scenario.name ?? null, ...clockBody() });
  const routes: Record<string, Record<string, ControlRoute>> = {
    '/__sim/operations': {
      GET: () => ({ status: 200, body: { specHash: deps.spec.hash, operations: deps.spec.operations.map(hintOf) } }),
    },
    '/__sim/journal': {
      GET: () => ({ status: 200, body: { entries: deps.journal.entries() } }),
      DELETE: () => {
        deps.journal.clear();
        return { status: 204 };
      },
    },
    '/__sim/clock': { GET: () => ({ status: 200, body: clockBody() }) },
    '/__sim/clock/advance': {
      POST: (exchange) => {
        const body = jsonBody(exchange);
        const ms = typeof body.ms === 'number' ? body.ms : typeof body.by === 'string' ? parseDuration(body.by) : undefined;
        if (ms === undefined || !Number.isFinite(ms) || ms < 0) {
          throw new SimControlRequestError('Say how far to advance the clock', 'Send {"ms": 5000} or {"by": "30s"} (a non-negative amount)');
        }
        deps.clock.advance(ms);
        return { status: 200, body: clockBody() };
      },
    },
    '/__sim/scenarios': {
      GET: () => ({ status: 200, body: { current: deps.scenarios?.world.scenario.name ?? null, available: deps.scenarios?.available() ?? [] } }),
    },
    '/__sim/scenario': {
      PUT: (exchange) => {
        const name = jsonBody(exchange).name;
        if (typeof name !== 'string' || name === '') throw new SimControlRequestError('Name the scenario to switch to', 'Send {"name": "forms-settling"}; GET /__sim/scenarios lists them');
        if (!deps.scenarios) throw new SimControlRequestError('This simulator was started without scenarios', 'Start it with --scenario NAME');
        deps.scenarios.use(name);
        deps.journal.clear();
        return { status: 200, body: scenarioBody() };
      },
    },
    '/__sim/reset': {
      POST: () => {
        deps.scenarios?.reset();
        deps.journal.clear();
        return { status: 200, body: scenarioBody() };
      },
    },
    '/__sim/state': {
      GET: () => ({ status: 200, body: deps.scenarios ? snapshotWorld(deps.scenarios.world, deps.clock) : { scenario: null, now: deps.clock.now() } }),
    },
  };

  return (exchange) => {
    const byMethod = routes[exchange.pathname];
    if (!byMethod) {
      const known = Object.entries(routes).flatMap(([path, methods]) => Object.keys(methods).map((method) => ({ operationId: 'sim.control', method, path })));
      throw new SimRouteNotFoundError(exchange.method, exchange.pathname, known);
    }
    const route = byMethod[exchange.method];
    if (!route) {
      throw new SimMethodNotAllowedError(exchange.method, exchange.pathname, Object.keys(byMethod).map((method) => ({ operationId: 'sim.control', method, path: exchange.pathname })));
    }
    return route(exchange);
  };
}

function jsonBody(exchange: Exchange): Record<string, unknown> {
  if (exchange.rawBody.length === 0) return {};
  try {
    const parsed = JSON.parse(exchange.rawBody.toString('utf8')) as unknown;
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new SimControlRequestError('The control API takes a JSON object body', 'Send Content-Type: application/json with an object, e.g. {"ms": 1000}');
}

export function isControlPath(pathname: string): boolean {
  return pathname === CONTROL_PREFIX || pathname.startsWith(`${CONTROL_PREFIX}/`);
}

/**
 * The simulator's own routes under `/__sim`, outside the API's namespace: JSON in, JSON out.
 */
import { SimMethodNotAllowedError, SimRouteNotFoundError } from './errors.js';
import type { Answer, Exchange } from './http-io.js';
import type { Journal } from './journal.js';
import type { SpecIndex } from './openapi.js';
import { hintOf } from './router.js';

export const CONTROL_PREFIX = '/__sim';

export interface ControlDeps {
  spec: SpecIndex;
  journal: Journal;
}

type ControlRoute = (exchange: Exchange) => Answer;

export function createControl(deps: ControlDeps): (exchange: Exchange) => Answer {
  const routes: Record<string, Record<string, ControlRoute>> = {
    '/__sim/operations': {
      GET: () => ({
        status: 200,
        body: { specHash: deps.spec.hash, operations: deps.spec.operations.map(hintOf) },
      }),
    },
    '/__sim/journal': {
      GET: () => ({ status: 200, body: { entries: deps.journal.entries() } }),
      DELETE: () => {
        deps.journal.clear();
        return { status: 204 };
      },
    },
  };

  return (exchange) => {
    const byMethod = routes[exchange.pathname];
    if (!byMethod) {
      throw new SimRouteNotFoundError(exchange.method, exchange.pathname, Object.keys(routes).map((path) => ({ operationId: 'sim.control', method: Object.keys(routes[path] ?? {}).join('|'), path })));
    }
    const route = byMethod[exchange.method];
    if (!route) {
      throw new SimMethodNotAllowedError(exchange.method, exchange.pathname, Object.keys(byMethod).map((method) => ({ operationId: 'sim.control', method, path: exchange.pathname })));
    }
    return route(exchange);
  };
}

export function isControlPath(pathname: string): boolean {
  return pathname === CONTROL_PREFIX || pathname.startsWith(`${CONTROL_PREFIX}/`);
}

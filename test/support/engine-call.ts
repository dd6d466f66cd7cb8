/**
 * An operation's handler run against an engine as a partition runs it, without the pipeline: for tests of the
 * state core and the kinds that need a request's effects but not its HTTP.
 */
import type { AcceptedRequest } from '../../src/layers/layer.js';
import { KINDS } from '../../src/kinds/registry.js';
import { projectContext } from '../../src/openapi/location.js';
import type { Engine } from '../../src/state/engine.js';

let requests = 0;

/** Runs the handler, commits the events it decides, and returns its JSON body (if it answered one). */
export function callHandler(
  engine: Engine,
  operationId: string,
  pathParams: Record<string, string>,
  body: unknown,
): unknown {
  const world = engine.world;
  if (!world) throw new Error('no world');
  const request = { pathParams, query: {}, body } as unknown as AcceptedRequest;
  const decision = KINDS.handlers[operationId]?.(request, {
    world,
    now: engine.clock.now(),
    project: projectContext('/home/dev/acme-web'),
  });
  if (decision?.events) engine.commit(decision.events, { request: `req_${++requests}` });
  return decision?.answer.kind === 'json' ? decision.answer.body : undefined;
}

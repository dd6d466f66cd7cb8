/**
 * What a resource module gives the scenario responder: handlers keyed by operationId. A handler answers, or
 * returns undefined to let the next layer (the schema-driven fallback) answer.
 */
import type { Answer } from '../http/io.js';
import { resolveLocation, type ProjectContext } from '../spec/location.js';
import type { AcceptedRequest } from '../answerers/responder.js';
import type { World } from '../state/world.js';

export interface HandlerContext {
  world: World;
  now: number;
  project: ProjectContext;
}

export type Handler = (request: AcceptedRequest, context: HandlerContext) => Answer | undefined;

export type Handlers = Record<string, Handler>;

/** A location-scoped success: `{location, data}` with the location the client asked for. */
export function locationAnswer(request: AcceptedRequest, context: HandlerContext, data: unknown): Answer {
  return { status: 200, body: { location: resolveLocation(context.project, request.query.location), data } };
}

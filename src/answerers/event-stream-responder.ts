/**
 * The mock's answer to `GET /api/event`: a subscription to the partition's event stream. Rules are asked
 * first (a test can script the stream's 401 or a dropped connection); a `Prefer` control skips this layer
 * so the spec-driven fallback can answer a declared error.
 */
import type { Responder } from './responder.js';

export const EVENT_STREAM_OPERATION = 'v2.event.subscribe';

export const eventStreamResponder: Responder = {
  name: 'scenario',
  respond(request) {
    return Promise.resolve(request.operation.operationId === EVENT_STREAM_OPERATION ? request.partition.events.subscribe() : undefined);
  },
};

/**
 * The mock's answer to `GET /api/event`: a subscription to the partition's event stream. Rules are asked
 * first (a test can script the stream's 401 or a dropped connection). A `Prefer` control for another status
 * leaves the answer to the spec-driven fallback; asking for 200 (or a generated body) still subscribes, since
 * the stream is the only 200 this operation has.
 */
import type { Layer } from './layer.js';

export const EVENT_STREAM_OPERATION = 'v2.event.subscribe';

export const eventStreamLayer: Layer = {
  name: 'event-stream',
  answersAs: 'scenario',
  honorsPreferences: true,
  respond(request) {
    const { operation, preferences, partition } = request;
    if (operation.operationId !== EVENT_STREAM_OPERATION) return undefined;
    if (preferences.code !== undefined && preferences.code !== 200) return undefined;
    return partition.events.subscribe();
  },
};

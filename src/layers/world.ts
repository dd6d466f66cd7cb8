/**
 * The scenario's resource lifecycles as a layer in front of the fallback: the handler for the operation
 * decides against the partition's world, and the events it decides on are committed to the partition (the
 * world changes, the log records why) before the answer goes out. A handler with nothing to say lets the
 * request fall through to the next layer.
 */
import type { KindCatalog } from '../kinds/catalog.js';
import type { Layer } from './layer.js';

export function worldLayer(kinds: KindCatalog): Layer {
  return {
    name: 'world',
    answersAs: 'scenario',
    respond(request) {
      const { partition, exchange, operation } = request;
      const world = partition.engine.world;
      const handler = kinds.handlers[operation.operationId];
      if (!world || !handler) return undefined;
      const decision = handler(request, { world, now: partition.engine.clock.now(), project: partition.project() });
      if (!decision) return undefined;
      if (decision.events) partition.engine.commit(decision.events, { request: exchange.id });
      return decision.answer;
    },
  };
}

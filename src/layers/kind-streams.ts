/**
 * The mock's answers that wait or stream from the partition's published log rather than decide on its world:
 * each is a kind's (`Kind.streams`, such as a session's history, its own event stream and `wait`), and this
 * layer asks the one that claims the operation.
 */
import type { KindCatalog } from '../kinds/catalog.js';
import type { Layer } from './layer.js';

export function kindStreamsLayer(kinds: KindCatalog): Layer {
  return {
    name: 'kind-streams',
    answersAs: 'scenario',
    respond: (request) => kinds.streams[request.operation.operationId]?.(request),
  };
}

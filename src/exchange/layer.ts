/**
 * What the layers that answer share with the pipeline: the request as accepted (routed and validated), and
 * the shape of a layer. The pipeline asks each layer in turn; one with nothing to say returns undefined and
 * the next is asked.
 */
import type { Partition } from '../control/partitions.js';
import type { OperationDefinition } from '../openapi/openapi.js';
import type { Preferences } from '../layers/preferences.js';
import type { Answer, Exchange } from './exchange.js';

/**
 * Who answered, as the `x-sim-layer` header, the journal and coverage name it: a layer of the answer stage,
 * or a stage of the pipeline that answered before it.
 */
export type LayerName =
  | 'rule'
  | 'scenario'
  | 'fallback'
  | 'upstream'
  | 'record'
  | 'replay'
  | 'validation'
  | 'auth'
  | 'simulator'
  | 'control'
  | 'cors';

export interface AcceptedRequest {
  exchange: Exchange;
  operation: OperationDefinition;
  pathParams: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  preferences: Preferences;
  /** The partition the request was addressed to: its world, clock, rules and replay cursors. */
  partition: Partition;
}

export interface Layer {
  /** Names the layer in the journal and the `x-sim-layer` header. */
  readonly name: LayerName;
  /** Serves `Prefer: code/example/dynamic`; layers without it are skipped for requests that carry one. */
  readonly honorsPreferences?: boolean;
  /** An answer at once where the layer has one at hand (most do): awaiting only what must wait costs less. */
  respond(request: AcceptedRequest): Answer | undefined | Promise<Answer | undefined>;
}

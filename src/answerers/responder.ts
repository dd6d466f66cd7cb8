/**
 * Who may answer an accepted request. The pipeline asks each responder in turn; a responder that has
 * nothing to say returns undefined and the next one is asked. Later layers (scenarios, recordings, the
 * upstream) plug in here ahead of the schema-driven fallback, which always answers.
 */
import { echoRequest } from './echo-request.js';
import { BASIC_CHALLENGE } from '../errors.js';
import type { Fallback } from './fallback.js';
import type { Answer, Exchange } from '../http/io.js';
import type { OperationDefinition } from '../spec/openapi.js';
import type { Partition } from '../control/partitions.js';
import type { Preferences } from './preferences.js';

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

export interface Responder {
  /** Names the layer in the journal and the `x-sim-layer` header. */
  readonly name: string;
  /** Serves `Prefer: code/example/dynamic`; layers without it are skipped for requests that carry one. */
  readonly honorsPreferences?: boolean;
  /** An answer at once where the layer has one at hand (most do): awaiting only what must wait costs less. */
  respond(request: AcceptedRequest): Answer | undefined | Promise<Answer | undefined>;
}

export function fallbackResponder(fallback: Fallback): Responder {
  return {
    name: 'fallback',
    honorsPreferences: true,
    async respond(request) {
      const { status, body } = await fallback.answer({
        operation: request.operation,
        method: request.operation.method,
        path: request.exchange.pathname,
        query: request.query,
        body: request.body,
        preferences: request.preferences,
      });
      return {
        kind: 'json',
        status,
        headers: status === 401 ? { 'www-authenticate': BASIC_CHALLENGE } : undefined,
        body: echoRequest(body, {
          project: request.partition.project(),
          locationEnvelope: request.operation.locationEnvelope,
          pathParams: request.pathParams,
          query: request.query,
          body: request.body,
        }),
      };
    },
  };
}

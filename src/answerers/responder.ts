/**
 * Who may answer an accepted request. The pipeline asks each responder in turn; a responder that has
 * nothing to say returns undefined and the next one is asked. Later layers (scenarios, recordings, the
 * upstream) plug in here ahead of the schema-driven fallback, which always answers.
 */
import { remember } from '../bounded-map.js';
import { echoKey, echoRequest, type EchoContext } from './echo-request.js';
import type { MockResult } from './prism-mocker.js';
import { BASIC_CHALLENGE } from '../errors.js';
import type { Fallback } from './fallback.js';
import type { Answer, Exchange } from '../http/io.js';
import type { OperationDefinition } from '../openapi/openapi.js';
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

/**
 * Echoed answers by the canned answer they come from (the fallback hands out one object per example or
 * generated body) and what of the request they echo: a request asked again gets the same body and text,
 * made and serialised once, instead of a copy to serialise per request.
 */
const echoes = new WeakMap<MockResult, Map<string, { body: unknown; text: string }>>();
const ECHOES_PER_ANSWER = 256;

function echoed(result: MockResult, context: EchoContext): { body: unknown; text: string } {
  let made = echoes.get(result);
  if (!made) echoes.set(result, (made = new Map()));
  return remember(made, ECHOES_PER_ANSWER, echoKey(context), () => {
    const body = echoRequest(result.body, context);
    return { body, text: JSON.stringify(body) };
  });
}

export function fallbackResponder(fallback: Fallback): Responder {
  return {
    name: 'fallback',
    honorsPreferences: true,
    async respond(request) {
      const result = await fallback.answer({
        operation: request.operation,
        method: request.operation.method,
        path: request.exchange.pathname,
        query: request.query,
        body: request.body,
        preferences: request.preferences,
      });
      const headers = result.status === 401 ? { 'www-authenticate': BASIC_CHALLENGE } : undefined;
      const context: EchoContext = {
        project: request.partition.project(),
        locationEnvelope: request.operation.locationEnvelope,
        pathParams: request.pathParams,
        query: request.query,
        body: request.body,
      };
      if (result.body === undefined) return { kind: 'json', status: result.status, headers, body: undefined };
      const { body, text } = echoed(result, context);
      return { kind: 'json', status: result.status, headers, body, text, served: true };
    },
  };
}

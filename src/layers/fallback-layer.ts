/**
 * The mock's source: the schema-driven fallback (Prism), which always answers, its canned bodies echoing
 * what the request names.
 */
import { remember } from '../caches/bounded-map.js';
import { echoKey, echoRequest, type EchoContext } from './echo-request.js';
import type { MockResult } from './prism-mocker.js';
import { BASIC_CHALLENGE, SimNoWebSocketError } from '../errors/errors.js';
import type { Fallback } from './fallback.js';
import type { Layer } from './layer.js';

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

/** `sockets` names the WebSockets a world serves (`GET /api/pty/{ptyID}/connect`), for the hint of a refused handshake. */
export function fallbackLayer(fallback: Fallback, sockets: readonly string[] = []): Layer {
  const served = [...sockets, 'with a scenario'].join(', ');
  return {
    name: 'fallback',
    answersAs: 'fallback',
    honorsPreferences: true,
    async respond(request) {
      // A canned body is no WebSocket: a handshake no world took (a partition without a scenario, a route no
      // kind serves as one) is refused, unless a Prefer control asks for a declared answer all the same.
      if (request.exchange.upgrade && Object.keys(request.preferences).length === 0)
        throw new SimNoWebSocketError(
          `No WebSocket at ${request.exchange.method} ${request.exchange.pathname}: the mock serves only those of its world (${served})`,
          'Connect to a PTY of the scenario served (--scenario default has one), or run proxy or record with --upstream URL',
        );
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
      // A status declared with no JSON body (a file's bytes, a stream) gets none: Prism's JSON stand-in for
      // it would be a body the spec does not declare. The kinds that own such operations answer them whole.
      if (result.body === undefined || !request.operation.responses.get(result.status)?.hasBody)
        return { kind: 'json', status: result.status, headers, body: undefined };
      const { body, text } = echoed(result, context);
      return { kind: 'json', status: result.status, headers, body, text, served: true };
    },
  };
}

/**
 * The fallback's examples as a table: every operation's example answer, for each status it declares and each
 * named example. Node works it out once per spec with Prism (`fallback.ts`, kept on disk); the browser build
 * carries it in the bundle and answers from it alone, so the two give the same bytes.
 */
import type { Fallback } from './fallback.js';
import type { MockRequest, MockResult } from './prism-mocker.js';

export type ExampleTable = Record<string, MockResult>;

/** Where an example answer is kept: the operation, the status asked for (or none), the example's name (or none). */
export function exampleKey(request: Pick<MockRequest, 'operationId' | 'code' | 'exampleKey'>): string {
  return `${request.operationId} ${request.code ?? ''} ${request.exampleKey ?? ''}`;
}

/**
 * The fallback the browser build answers with. Generating a body (`Prefer: dynamic=true`, `dynamic: true`)
 * needs Prism's json-schema-faker, which stays in Node: such a request gets the example, as Node's fallback
 * also gives when no generated draw fits the schema.
 */
export function tableFallback(table: ExampleTable): Fallback {
  return {
    answer(request) {
      const { operationId } = request.operation;
      const { code, example } = request.preferences;
      const found =
        table[exampleKey({ operationId, code, exampleKey: example })] ??
        table[exampleKey({ operationId, code })] ??
        table[exampleKey({ operationId })];
      if (!found) return Promise.reject(new Error(`the browser build has no example for ${operationId}`));
      return Promise.resolve(found);
    },
  };
}

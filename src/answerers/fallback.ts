/**
 * Schema-driven answers: spec examples, or json-schema-faker bodies when dynamic, both from Prism
 * (`prism-mocker.ts`), seeded per request so an answer depends on the seed and the request alone.
 */
import { createHash } from 'node:crypto';
import type { OperationDefinition, SpecIndex } from '../spec/openapi.js';
import type { Preferences } from './preferences.js';
import { mock, registerSpec, type MockRequest, type MockResult } from './prism-mocker.js';

export interface FallbackRequest {
  operation: OperationDefinition;
  method: string;
  path: string;
  query: Record<string, unknown>;
  body: unknown;
  preferences: Preferences;
}

export interface Fallback {
  answer(request: FallbackRequest): Promise<MockResult>;
}

export async function createFallback(spec: SpecIndex, options: { dynamic: boolean; seed: string }): Promise<Fallback> {
  // Prism dereferences and bundles the document in place; structuredClone keeps our copy untouched.
  await registerSpec(spec.hash, () => structuredClone(spec.document));
  const examples = new Map<string, Promise<MockResult>>();
  return {
    async answer(request) {
      const base: MockRequest = {
        specHash: spec.hash,
        operationId: request.operation.operationId,
        method: request.method,
        path: request.path,
        body: request.body,
        dynamic: request.preferences.dynamic ?? options.dynamic,
        code: request.preferences.code,
        exampleKey: request.preferences.example,
      };
      if (!base.dynamic) {
        // An example answer depends only on operation, status and example name: ask Prism once, then reuse it.
        const key = `${base.operationId} ${base.code ?? ''} ${base.exampleKey ?? ''}`;
        let answer = examples.get(key);
        if (!answer) {
          answer = mock(base);
          examples.set(key, answer);
          answer.catch(() => examples.delete(key));
        }
        return answer;
      }
      const seed = requestSeed(options.seed, request);
      for (let draw = 0; draw < GENERATION_DRAWS; draw++) {
        try {
          return await mock({ ...base, seed: draw === 0 ? seed : `${seed}:${draw}` });
        } catch {
          // json-schema-faker trips over some random draws of nested oneOf/arrays; another draw usually works.
        }
      }
      return mock({ ...base, dynamic: false }); // the example: a believable answer beats an error
    },
  };
}

/** How many seeded draws a generated body gets before the example stands in. */
const GENERATION_DRAWS = 3;

/** Same seed and same request give the same generated body, whatever came before. */
function requestSeed(seed: string, request: FallbackRequest): string {
  return createHash('sha256')
    .update(JSON.stringify([seed, request.operation.operationId, request.path, sortedEntries(request.query), request.body ?? null]))
    .digest('hex');
}

function sortedEntries(value: Record<string, unknown>): unknown[] {
  return Object.entries(value).sort(([a], [b]) => a.localeCompare(b));
}

/**
 * Schema-driven answers: spec examples, or json-schema-faker bodies when dynamic, both from Prism
 * (`prism-mocker.ts`), seeded per request so an answer depends on the seed and the request alone.
 */
import { createHash } from 'node:crypto';
import type { OperationDefinition, SpecIndex } from './openapi.js';
import type { Preferences } from './preferences.js';
import { mock, registerSpec, type MockResult } from './prism-mocker.js';

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
  return {
    answer: (request) =>
      mock({
        specHash: spec.hash,
        operationId: request.operation.operationId,
        method: request.method,
        path: request.path,
        body: request.body,
        dynamic: request.preferences.dynamic ?? options.dynamic,
        seed: requestSeed(options.seed, request),
        code: request.preferences.code,
        exampleKey: request.preferences.example,
      }),
  };
}

/** Same seed and same request give the same generated body, whatever came before. */
function requestSeed(seed: string, request: FallbackRequest): string {
  return createHash('sha256')
    .update(JSON.stringify([seed, request.operation.operationId, request.path, sortedEntries(request.query), request.body ?? null]))
    .digest('hex');
}

function sortedEntries(value: Record<string, unknown>): unknown[] {
  return Object.entries(value).sort(([a], [b]) => a.localeCompare(b));
}

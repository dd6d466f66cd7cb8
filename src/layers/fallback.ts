/**
 * Schema-driven answers: spec examples, or json-schema-faker bodies when dynamic, both from Prism
 * (`prism-mocker.ts`), seeded per request so an answer depends on the seed and the request alone. A dynamic
 * body is generated from a copy of the spec without its examples (json-schema-faker would otherwise hand back
 * an example it finds on the schema), and drawn again until the operation's response schema accepts it.
 */
import { createHash } from 'node:crypto';
import type { OperationDefinition, SpecIndex } from '../openapi/openapi.js';
import type { Preferences } from './preferences.js';
import { remember } from '../caches/bounded-map.js';
import { codeVersion, hashOf, readCached, writeCached } from '../caches/load-cache.js';
import { mock, registerSpec, type MockRequest, type MockResult } from './prism-mocker.js';
import { exampleKey, type ExampleTable } from './example-table.js';

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

/** Generated bodies kept for reuse: a request asked again gets the body it got before, without Prism. */
const GENERATED_CAPACITY = 2000;
/** Example answers kept: every operation's and status's, and room for the names `Prefer: example=` asks for. */
const EXAMPLES_CAPACITY = 4096;

export async function createFallback(spec: SpecIndex, options: { dynamic: boolean; seed: string }): Promise<Fallback> {
  // Prism costs most of a cold start; it is loaded when an answer first needs it. Prism dereferences and
  // bundles the document in place; structuredClone keeps our copy untouched.
  let registered: Promise<void> | undefined;
  const prism = () => (registered ??= registerSpec(spec.hash, () => forGeneration(structuredClone(spec.document))));
  const mockWithPrism = async (request: MockRequest) => {
    await prism();
    return mock(request);
  };
  // The same operations with no example anywhere: what a dynamic answer is generated from.
  const freshHash = `${spec.hash}:fresh`;
  let freshRegistered: Promise<void> | undefined;
  const fresh = () =>
    (freshRegistered ??= registerSpec(freshHash, () => withoutExamples(forGeneration(structuredClone(spec.document)))));
  const generate = async (request: MockRequest) => {
    await fresh();
    return mock({ ...request, specHash: freshHash });
  };
  const stored = await storedExamples(spec, mockWithPrism);
  const examples = new Map<string, Promise<MockResult>>(
    Object.entries(stored).map(([key, result]) => [key, Promise.resolve(result)]),
  );
  const generated = new Map<string, Promise<MockResult>>();
  if (options.dynamic) void fresh().catch(() => {}); // warmed in the background; the first answer waits if it must
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
      if (!base.dynamic) return remembered(examples, EXAMPLES_CAPACITY, exampleKey(base), () => mockWithPrism(base));
      const seed = requestSeed(options.seed, request);
      return remembered(
        generated,
        GENERATED_CAPACITY,
        `${seed} ${base.code ?? ''} ${base.exampleKey ?? ''}`,
        async () => {
          for (let draw = 0; draw < GENERATION_DRAWS; draw++) {
            try {
              const generated = await generate({ ...base, seed: draw === 0 ? seed : `${seed}:${draw}` });
              const check = request.operation.responses.get(generated.status)?.check;
              if (generated.body === undefined || !check || check(generated.body).length === 0) return generated;
            } catch {
              // json-schema-faker trips over some random draws of nested oneOf/arrays; another draw usually works.
            }
            // A draw the schema refuses (a format or pattern json-schema-faker misses) is drawn again.
          }
          return mockWithPrism({ ...base, dynamic: false }); // the example: a believable answer beats an error
        },
      );
    },
  };
}

/** The answer kept under `key`, or made and kept (a failure is forgotten, so it is tried again). */
function remembered(
  kept: Map<string, Promise<MockResult>>,
  capacity: number,
  key: string,
  make: () => Promise<MockResult>,
): Promise<MockResult> {
  return remember(kept, capacity, key, () => {
    const answer = make();
    answer.catch(() => kept.delete(key));
    return answer;
  });
}

/**
 * An example answer depends only on the spec, the operation, the status and the example's name: every
 * operation's are worked out once per spec and kept on disk, so serving examples needs no Prism at all.
 * `named` adds each named example of each status (what `Prefer: example=` asks; Node's fallback makes those
 * when asked, the browser build cannot).
 */
export async function storedExamples(
  spec: SpecIndex,
  mockWithPrism?: (request: MockRequest) => Promise<MockResult>,
  { named = false } = {},
): Promise<ExampleTable> {
  const cacheKey = hashOf(spec.hash, codeVersion(), named ? 'named' : '');
  const stored = readCached<ExampleTable>('examples', cacheKey);
  if (stored) return stored;
  if (!mockWithPrism) {
    await registerSpec(spec.hash, () => forGeneration(structuredClone(spec.document)));
    mockWithPrism = mock;
  }
  const table = await allExamples(spec, mockWithPrism, named);
  writeCached('examples', cacheKey, table);
  return table;
}

/** Every operation's example answer, and the one for each status it declares (what `Prefer: code=` asks). */
async function allExamples(
  spec: SpecIndex,
  mockWithPrism: (request: MockRequest) => Promise<MockResult>,
  named: boolean,
): Promise<ExampleTable> {
  const out: ExampleTable = {};
  for (const operation of spec.operations) {
    for (const code of [undefined, ...operation.responses.keys()]) {
      const names = named && code !== undefined ? (operation.responses.get(code)?.exampleNames ?? []) : [];
      for (const name of [undefined, ...names]) {
        const request: MockRequest = {
          specHash: spec.hash,
          operationId: operation.operationId,
          method: operation.method,
          path: operation.path,
          body: undefined,
          dynamic: false,
          code,
          exampleKey: name,
        };
        try {
          out[exampleKey(request)] = await believable(operation, request, await mockWithPrism(request), mockWithPrism);
        } catch {
          // Left to be asked when a request needs it, which then answers what Prism says.
        }
      }
    }
  }
  return out;
}

/**
 * An example answer the spec accepts. Where a schema has no examples, Prism fills in its static answer with
 * placeholders ("string") that break the schema's patterns and formats; a body generated from a seed fixed by
 * the operation and status is valid, and the same on every run.
 */
async function believable(
  operation: OperationDefinition,
  request: MockRequest,
  result: MockResult,
  mockWithPrism: (request: MockRequest) => Promise<MockResult>,
): Promise<MockResult> {
  const check = operation.responses.get(result.status)?.check;
  if (!check || result.body === undefined || check(result.body).length === 0) return result;
  // Worked out once per spec and kept on disk: more draws cost start-up only when the spec changes.
  for (let draw = 0; draw < EXAMPLE_DRAWS; draw++) {
    try {
      const seed = `example:${operation.operationId}:${request.code ?? ''}:${draw}`;
      const generated = await mockWithPrism({ ...request, dynamic: true, seed });
      if (generated.status === result.status && check(generated.body).length === 0) return generated;
    } catch {
      // another draw
    }
  }
  return result;
}

/**
 * The document as json-schema-faker is given it, mended where it would make what the schema refuses:
 * - it never returns from an object whose only properties are `patternProperties` (the real server's map of
 *   active sessions by id); without them it makes an object the same schema accepts, as other keys are free;
 * - it reads `exclusiveMinimum` as draft 4's boolean, and so draws 0 for `exclusiveMinimum: 0`: a bound it
 *   reads the same way stands in.
 */
function forGeneration(document: Record<string, unknown>): Record<string, unknown> {
  const strip = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(strip);
    else if (node && typeof node === 'object') {
      const schema = node as Record<string, unknown>;
      delete schema.patternProperties;
      const step = schema.type === 'integer' ? 1 : 1e-6;
      if (typeof schema.exclusiveMinimum === 'number') {
        schema.minimum = schema.exclusiveMinimum + step;
        delete schema.exclusiveMinimum;
      }
      if (typeof schema.exclusiveMaximum === 'number') {
        schema.maximum = schema.exclusiveMaximum - step;
        delete schema.exclusiveMaximum;
      }
      Object.values(schema).forEach(strip);
    }
  };
  strip(document);
  return document;
}

/**
 * The document with every `example` and `examples` removed, schema keywords and media types alike (a
 * property of that name stays), so json-schema-faker generates from the schema alone.
 */
function withoutExamples(document: Record<string, unknown>): Record<string, unknown> {
  const strip = (node: unknown, names: boolean): void => {
    if (Array.isArray(node)) node.forEach((item) => strip(item, false));
    else if (node && typeof node === 'object') {
      const object = node as Record<string, unknown>;
      if (!names) {
        delete object.example;
        delete object.examples;
      }
      // The keys of `properties` are names, not keywords: each value is a schema again.
      for (const [key, value] of Object.entries(object)) strip(value, !names && key === 'properties');
    }
  };
  strip(document, false);
  return document;
}

/** How many seeded draws an example answer the spec refuses gets before it stays as it is. */
const EXAMPLE_DRAWS = 12;

/** How many seeded draws a generated body gets before the example stands in. */
const GENERATION_DRAWS = 6;

/** Same seed and same request give the same generated body, whatever came before. */
function requestSeed(seed: string, request: FallbackRequest): string {
  return createHash('sha256')
    .update(
      JSON.stringify([
        seed,
        request.operation.operationId,
        request.path,
        sortedEntries(request.query),
        request.body ?? null,
      ]),
    )
    .digest('hex');
}

function sortedEntries(value: Record<string, unknown>): unknown[] {
  return Object.entries(value).sort(([a], [b]) => a.localeCompare(b));
}

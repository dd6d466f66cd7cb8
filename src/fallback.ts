/**
 * Schema-driven answers from @stoplight/prism-http: spec examples by default, json-schema-faker bodies when
 * dynamic. The only module that touches Prism; its fp-ts results and problem+json errors stop here.
 */
import { createHash } from 'node:crypto';
import Module, { createRequire } from 'node:module';
import type * as PrismCore from '@stoplight/prism-core';
import type * as PrismHttpModule from '@stoplight/prism-http';
import type { IHttpConfig, IHttpRequest } from '@stoplight/prism-http';
import { cachedJson } from './load-cache.js';
import type { OperationDefinition, SpecIndex } from './openapi.js';
import type { Preferences } from './preferences.js';

export interface FallbackRequest {
  operation: OperationDefinition;
  method: string;
  path: string;
  query: Record<string, unknown>;
  body: unknown;
  preferences: Preferences;
}

export interface FallbackAnswer {
  status: number;
  body: unknown;
}

export interface Fallback {
  answer(request: FallbackRequest): Promise<FallbackAnswer>;
}

export class FallbackFailure extends Error {}

const silent = { fatal: noop, error: noop, warn: noop, info: noop, debug: noop, trace: noop, success: noop, child: () => silent };
function noop(): void {}

type PrismParts = {
  createInstance: PrismHttp['createInstance'];
  getHttpOperationsFromSpec: () => PrismHttp['getHttpOperationsFromSpec'];
};
type PrismHttp = typeof PrismHttpModule;

let prismParts: PrismParts | undefined;

/**
 * Prism's index loads everything it has (forwarder, Postman import, all of faker's ~60 locales): about
 * 1.6 s of start-up here. The simulator needs its mocker, router and validator at once, the spec importer
 * only when the operation cache is cold, and faker never (it only serves the `x-faker` keyword, which this
 * spec does not use), so faker is handed over as a getter that loads the English locale if ever touched.
 */
function loadPrism(): PrismParts {
  if (prismParts) return prismParts;
  // Resolve Prism's parts from Prism's own package, so its dependencies are found wherever npm put them.
  const require = createRequire(createRequire(import.meta.url).resolve('@stoplight/prism-http'));
  const loader = Module as unknown as { _load: (request: string, parent: unknown, isMain: boolean) => unknown };
  const original = loader._load;
  loader._load = function (request, parent, isMain) {
    if (request !== '@faker-js/faker') return original.call(this, request, parent, isMain);
    const english = () => original.call(this, '@faker-js/faker/locale/en', parent, isMain);
    return {
      get default() {
        return english();
      },
      get faker() {
        return english();
      },
    };
  };
  try {
    const { factory } = require('@stoplight/prism-core') as typeof PrismCore;
    const mock = (require('./mocker') as { default: unknown }).default;
    const route = (require('./router') as { default: unknown }).default;
    const validator = require('./validator') as Record<string, unknown>;
    const createInstance = ((config: IHttpConfig, components: object) =>
      factory(config, {
        route,
        mock,
        validateInput: validator.validateInput,
        validateOutput: validator.validateOutput,
        validateSecurity: validator.validateSecurity,
        forward: () => {
          throw new Error('the fallback never forwards');
        },
        ...components,
      } as never)) as PrismHttp['createInstance'];
    const getHttpOperationsFromSpec = () =>
      (require('./utils/operations') as Pick<PrismHttp, 'getHttpOperationsFromSpec'>).getHttpOperationsFromSpec;
    prismParts = { createInstance, getHttpOperationsFromSpec };
  } finally {
    loader._load = original;
  }
  return prismParts;
}

export async function createFallback(spec: SpecIndex, options: { dynamic: boolean; seed: string }): Promise<Fallback> {
  const prismHttp = loadPrism();
  // Prism dereferences and bundles the document itself; structuredClone keeps our copy untouched.
  const operations = await cachedJson('prism-operations', spec.hash, () => prismHttp.getHttpOperationsFromSpec()(structuredClone(spec.document)));
  const byId = new Map(operations.map((op) => [op.iid ?? op.id, op] as const));
  const prism = prismHttp.createInstance(baseConfig(options.dynamic, options.seed), { logger: silent as never });

  return {
    async answer(request) {
      const resource = byId.get(request.operation.operationId);
      if (!resource) throw new FallbackFailure(`Prism has no operation ${request.operation.operationId}`);
      const dynamic = request.preferences.dynamic ?? options.dynamic;
      const config = baseConfig(dynamic, requestSeed(options.seed, request));
      config.mock = { ...config.mock, code: request.preferences.code, exampleKey: request.preferences.example };
      const input: IHttpRequest = {
        method: request.method.toLowerCase() as IHttpRequest['method'],
        url: { path: request.path },
        headers: {},
        body: request.body,
      };
      const result = await prism.request(input, [resource], config)();
      if (result._tag === 'Left') throw new FallbackFailure(result.left.message);
      const { statusCode, body } = result.right.output;
      return { status: statusCode, body: body === '' ? undefined : body };
    },
  };
}

function baseConfig(dynamic: boolean, seed: string): IHttpConfig {
  return {
    checkSecurity: false,
    validateRequest: false,
    validateResponse: false,
    errors: false,
    upstreamProxy: undefined,
    isProxy: false,
    mock: { dynamic, seed },
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

/**
 * The only module that touches @stoplight/prism-http: it loads Prism's mocker, indexes a spec's operations
 * and turns one request into Prism's answer. Prism's types, fp-ts results and problem+json errors stop here.
 */
import Module, { createRequire } from 'node:module';
import type * as PrismCore from '@stoplight/prism-core';
import type * as PrismHttpModule from '@stoplight/prism-http';
import type { IHttpConfig, IHttpRequest } from '@stoplight/prism-http';
import { cachedJson, codeVersion, hashOf } from '../caches/load-cache.js';

type PrismHttp = typeof PrismHttpModule;
type PrismInstance = ReturnType<PrismHttp['createInstance']>;
type HttpOperation = Awaited<ReturnType<PrismHttp['getHttpOperationsFromSpec']>>[number];

export interface MockRequest {
  specHash: string;
  operationId: string;
  method: string;
  path: string;
  body: unknown;
  dynamic: boolean;
  /** Seeds json-schema-faker for this one answer (dynamic only). */
  seed?: string;
  code?: number;
  exampleKey?: string;
}

export interface MockResult {
  status: number;
  body: unknown;
}

interface PrismParts {
  instance: PrismInstance;
  getHttpOperationsFromSpec: () => PrismHttp['getHttpOperationsFromSpec'];
}

const silent = {
  fatal: noop,
  error: noop,
  warn: noop,
  info: noop,
  debug: noop,
  trace: noop,
  success: noop,
  child: () => silent,
};
function noop(): void {}

let prism: PrismParts | undefined;
const operationsBySpec = new Map<string, Map<string, HttpOperation>>();

/**
 * Prism's index loads everything it has (forwarder, Postman import, all of faker's ~60 locales): about
 * 1.6 s of start-up here. The mocker, router and validator are needed at once, the spec importer only when
 * the operation cache is cold, and faker never (it only serves the `x-faker` keyword, which this spec does
 * not use), so faker is handed over as a stand-in that loads the English locale if ever touched.
 */
export function loadPrism(): PrismParts {
  if (prism) return prism;
  // Resolve Prism's parts from Prism's own package, so its dependencies are found wherever npm put them.
  const require = createRequire(createRequire(import.meta.url).resolve('@stoplight/prism-http'));
  const loader = Module as unknown as { _load: (request: string, parent: unknown, isMain: boolean) => unknown };
  const original = loader._load;
  loader._load = function (request, parent, isMain) {
    if (request !== '@faker-js/faker') return original.call(this, request, parent, isMain);
    let english: object | undefined;
    const load = () => (english ??= original.call(this, '@faker-js/faker/locale/en', parent, isMain) as object);
    const lazy = new Proxy(
      {},
      { get: (_, key) => Reflect.get(load(), key), has: (_, key) => Reflect.has(load(), key) },
    );
    return { default: lazy, faker: lazy };
  };
  try {
    const { factory } = require('@stoplight/prism-core') as typeof PrismCore;
    const validator = require('./validator') as Record<string, unknown>;
    const components = {
      route: (require('./router') as { default: unknown }).default,
      mock: (require('./mocker') as { default: unknown }).default,
      validateInput: validator.validateInput,
      validateOutput: validator.validateOutput,
      validateSecurity: validator.validateSecurity,
      forward: () => {
        throw new Error('the fallback never forwards');
      },
      logger: silent,
    };
    // Draw values from a schema's `examples` when it has them: generated bodies then read like real data
    // (ids, paths, model names) instead of lorem ipsum, and stay valid since examples are.
    (require('json-schema-faker') as { JSONSchemaFaker: { option(options: object): void } }).JSONSchemaFaker.option({
      useExamplesValue: true,
    });
    prism = {
      instance: factory(config(false, undefined), components as never) as PrismInstance,
      getHttpOperationsFromSpec: () =>
        (require('./utils/operations') as Pick<PrismHttp, 'getHttpOperationsFromSpec'>).getHttpOperationsFromSpec,
    };
  } finally {
    loader._load = original;
  }
  return prism;
}

/** Indexes a spec's operations for Prism; its own parsing is cached on disk by the spec's hash and our code's. */
export async function registerSpec(hash: string, document: () => object): Promise<void> {
  if (operationsBySpec.has(hash)) return;
  const { getHttpOperationsFromSpec } = loadPrism();
  // The document Prism is given is made by our code from the spec (fallback.ts): both are in the key.
  const key = hashOf(hash, codeVersion());
  const operations = await cachedJson('prism-operations', key, () => getHttpOperationsFromSpec()(document()));
  operationsBySpec.set(hash, new Map(operations.map((op) => [op.iid ?? op.id, op])));
}

export async function mock(request: MockRequest): Promise<MockResult> {
  const resource = operationsBySpec.get(request.specHash)?.get(request.operationId);
  if (!resource)
    throw new Error(`Prism has no operation ${request.operationId} for spec ${request.specHash.slice(0, 12)}`);
  const input: IHttpRequest = {
    method: request.method.toLowerCase() as IHttpRequest['method'],
    url: { path: request.path },
    headers: {},
    body: request.body,
  };
  const settings = config(request.dynamic, request.seed);
  settings.mock = { ...settings.mock, code: request.code, exampleKey: request.exampleKey };
  const result = await loadPrism().instance.request(input, [resource], settings)();
  if (result._tag === 'Left') throw new Error(result.left.message);
  const { statusCode, body } = result.right.output;
  return { status: statusCode, body: body === '' ? undefined : body };
}

function config(dynamic: boolean, seed: string | undefined): IHttpConfig {
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

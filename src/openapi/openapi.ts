/**
 * Loads the OpenAPI document once and indexes what every request needs: operations by method and path,
 * compiled validators for parameters, bodies and responses, and which errors each operation declares.
 * Nothing here runs per request except the compiled validators.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { createAjv } from './ajv.js';
import { cachedCompiler, type CompileSchema } from './validator-cache.js';
import { cachedJson } from '../caches/load-cache.js';
import { remember } from '../caches/bounded-map.js';
import { packagePath } from '../files/package-path.js';
import { readYaml } from '../text/read-yaml.js';

export const DEFAULT_SPEC_PATH = packagePath(import.meta.url, '../../spec/session-agent.openapi.yaml');

const SPEC_ID = 'spec';
const JSON_MEDIA = 'application/json';
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

type JsonObject = Record<string, unknown>;

export interface ParameterDefinition {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  deepObject: boolean;
  schema: JsonObject;
  /** The schema's own `type` where it names one (`number`): how a query value's text is read. */
  type?: string;
}

/** Checks a value against one schema; [] means valid. Compiled on first use, then reused. */
export type Check = (value: unknown) => Diagnostic[];

export interface ResponseDefinition {
  status: number;
  /** `_tag` (or ProjectCopyError's `name`) of each error body this status may carry. */
  tags: string[];
  hasBody: boolean;
  exampleNames: string[];
  check?: Check;
}

export interface OperationDefinition {
  operationId: string;
  method: string;
  path: string;
  segments: string[];
  pathParams: ParameterDefinition[];
  queryParams: ParameterDefinition[];
  checkParams: Check;
  checkQuery: Check;
  body?: { required: boolean; check: Check };
  responses: Map<number, ResponseDefinition>;
  successStatus: number;
  /** The `_tag` this operation answers for input it cannot accept (rule 1: only a declared one). */
  inputErrorTag: string;
  declaredTags: Set<string>;
  /** Answers carry `{location, data}`. */
  locationEnvelope: boolean;
}

export interface SpecIndex {
  document: JsonObject;
  /** Checks a value against a component schema (`SessionMessage`, `FormRequest`, …). */
  checkComponent(name: string, value: unknown): Diagnostic[];
  /** sha256 of the document text: recordings and journals name the spec they were made against. */
  hash: string;
  operations: OperationDefinition[];
  byId: Map<string, OperationDefinition>;
}

export interface Diagnostic {
  /** Where in the instance, as a dotted path (`model.id`); empty for the root. */
  path: string;
  message: string;
}

export async function loadSpec(path = DEFAULT_SPEC_PATH): Promise<SpecIndex> {
  const { document, hash } = await parseSpecText(readFileSync(path, 'utf8'));
  return indexSpec(document as JsonObject, hash);
}

/**
 * A spec's text parsed, and the hash it is cached under. The YAML parser is only needed when the cache is
 * cold, and loaded then (JSON is YAML, so a server's `/doc` loads the same way). A spec is a user's file like
 * any other: its aliases are bounded. Not checked to be a spec: the caller does that.
 */
export async function parseSpecText(text: string): Promise<{ document: unknown; hash: string }> {
  const hash = createHash('sha256').update(text).digest('hex');
  return { document: await cachedJson('spec', hash, () => readYaml(text).value), hash };
}

/** The index of a document already parsed (`startSimulator({ spec: object })`); the document is copied. */
export function specFromDocument(document: JsonObject): SpecIndex {
  const text = JSON.stringify(document);
  const hash = createHash('sha256').update(text).digest('hex');
  let spec = documents.get(hash);
  if (!spec) {
    spec = indexSpec(JSON.parse(text) as JsonObject, hash);
    remember(documents, DOCUMENTS_KEPT, hash, () => spec as SpecIndex);
  }
  return spec;
}

/** The index of a document parsed elsewhere, named by the hash of its text (the browser build's spec). */
export function indexedSpec(document: JsonObject, hash: string): SpecIndex {
  let spec = documents.get(hash);
  if (!spec) {
    spec = indexSpec(document, hash);
    remember(documents, DOCUMENTS_KEPT, hash, () => spec as SpecIndex);
  }
  return spec;
}

/** Parsed documents handed in as objects, by hash: a test that starts a simulator per test indexes one once. */
const documents = new Map<string, SpecIndex>();
const DOCUMENTS_KEPT = 8;

function indexSpec(document: JsonObject, hash: string): SpecIndex {
  if (typeof document !== 'object' || document === null || typeof document.paths !== 'object' || !document.paths)
    throw new Error('The spec is not an OpenAPI document: it has no paths');
  // verbose: errors carry their schema, so a schema's own `x-error-message` can speak for it. validateSchema
  // off: checking the document against the meta-schema compiled that meta-schema at every start (a fifth of
  // start-up); the spec is linted (`npm run lint:spec`), and a schema ajv cannot compile still fails on first
  // use. The instance is made only when a validator is not on disk yet (`validator-cache.ts`).
  const options = { strict: false, allErrors: true, validateFormats: true, verbose: true, validateSchema: false };
  let ajv: Ajv2020 | undefined;
  const compile = cachedCompiler(hash, JSON.stringify(options), () => {
    if (!ajv) {
      ajv = createAjv({ ...options, code: { source: true } });
      ajv.addSchema(document, SPEC_ID);
    }
    return ajv;
  });

  const operations: OperationDefinition[] = [];
  for (const [path, item] of Object.entries(document.paths as Record<string, JsonObject>)) {
    for (const method of METHODS) {
      const raw = item[method] as JsonObject | undefined;
      if (raw) operations.push(indexOperation(compile, document, path, method, raw, item));
    }
  }
  const componentChecks = new Map<string, Check>();
  const schemas = ((document.components as JsonObject | undefined)?.schemas ?? {}) as Record<string, JsonObject>;
  const checkComponent = (name: string, value: unknown): Diagnostic[] => {
    // For a discriminated union, check the variant the value names: its errors are the ones that help.
    const discriminator = schemas[name]?.discriminator as
      { propertyName: string; mapping?: Record<string, string> } | undefined;
    const tag =
      discriminator && typeof value === 'object' && value !== null
        ? (value as JsonObject)[discriminator.propertyName]
        : undefined;
    const variant = typeof tag === 'string' ? discriminator?.mapping?.[tag]?.split('/').pop() : undefined;
    if (variant && variant !== name) return checkComponent(variant, value);
    if (discriminator?.mapping && typeof tag === 'string') {
      // An unknown variant: one sentence beats every branch's complaints.
      const known = Object.keys(discriminator.mapping)
        .map((k) => JSON.stringify(k))
        .join(', ');
      return [{ path: discriminator.propertyName, message: `must be one of ${known}` }];
    }
    let check = componentChecks.get(name);
    if (!check) {
      if (!schemas[name]) throw new Error(`The spec has no component schema ${name}`);
      check = lazyCheck(compile, { $ref: `${SPEC_ID}#/components/schemas/${name}` });
      componentChecks.set(name, check);
    }
    return check(value);
  };
  return {
    document,
    checkComponent,
    hash,
    operations,
    byId: new Map(operations.map((op) => [op.operationId, op])),
  };
}

function indexOperation(
  compile: CompileSchema,
  doc: JsonObject,
  path: string,
  method: string,
  raw: JsonObject,
  item: JsonObject,
): OperationDefinition {
  const pointer = `#/paths/${escapePointer(path)}/${method}`;
  const rawParams = [...((item.parameters as JsonObject[]) ?? []), ...((raw.parameters as JsonObject[]) ?? [])];
  const params = rawParams.map((p, i) => {
    const own =
      i < ((item.parameters as JsonObject[]) ?? []).length
        ? `#/paths/${escapePointer(path)}/parameters/${i}`
        : `${pointer}/parameters/${i - ((item.parameters as JsonObject[]) ?? []).length}`;
    const { value, at } = follow(doc, p, own);
    return {
      name: value.name as string,
      in: value.in as 'path' | 'query',
      required: value.required === true,
      deepObject: value.style === 'deepObject',
      schema: { $ref: `${SPEC_ID}${at}/schema` },
      ...(typeof (value.schema as JsonObject | undefined)?.type === 'string'
        ? { type: (value.schema as JsonObject).type as string }
        : {}),
    } satisfies ParameterDefinition;
  });
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');

  const responses = new Map<number, ResponseDefinition>();
  for (const [code, rawResponse] of Object.entries((raw.responses as JsonObject) ?? {})) {
    const { value, at } = follow(doc, rawResponse as JsonObject, `${pointer}/responses/${code}`);
    const media = (value.content as JsonObject | undefined)?.[JSON_MEDIA] as JsonObject | undefined;
    const schemaPointer = `${at}/content/${escapePointer(JSON_MEDIA)}/schema`;
    responses.set(Number(code), {
      status: Number(code),
      tags: media ? errorTags(doc, media.schema as JsonObject) : [],
      hasBody: media !== undefined,
      exampleNames: Object.keys((media?.examples as JsonObject) ?? {}),
      check: media ? lazyCheck(compile, { $ref: `${SPEC_ID}${schemaPointer}` }) : undefined,
    });
  }

  const successStatus = [...responses.keys()].filter((s) => s < 300).sort()[0];
  if (successStatus === undefined) throw new Error(`${raw.operationId as string}: no success response`);
  // The real server's validation answers InvalidRequestError wherever an operation declares it among others.
  const badInput = responses.get(400)?.tags ?? [];
  // An operation that declares none (the real server's experimental.console.switchOrg) still has to refuse bad
  // input: it gets the real server's own validation error, which the answer check reports as undeclared.
  const inputError = badInput.includes('InvalidRequestError')
    ? 'InvalidRequestError'
    : (badInput[0] ?? 'InvalidRequestError');
  const success = responses.get(successStatus);
  const successSchema = success?.hasBody ? resolveSchema(doc, `${pointer}/responses/${successStatus}`) : undefined;

  let body: OperationDefinition['body'];
  if (raw.requestBody) {
    const { value, at } = follow(doc, raw.requestBody as JsonObject, `${pointer}/requestBody`);
    body = {
      required: value.required === true,
      check: lazyCheck(compile, { $ref: `${SPEC_ID}${at}/content/${escapePointer(JSON_MEDIA)}/schema` }),
    };
  }

  return {
    operationId: raw.operationId as string,
    method: method.toUpperCase(),
    path,
    segments: path.split('/').slice(1),
    pathParams,
    queryParams,
    checkParams: lazyCheck(compile, objectSchema(pathParams)),
    checkQuery: lazyCheck(compile, objectSchema(queryParams)),
    body,
    responses,
    successStatus,
    inputErrorTag: inputError,
    declaredTags: new Set([...responses.values()].flatMap((r) => r.tags)),
    locationEnvelope: Boolean((successSchema?.properties as JsonObject | undefined)?.location),
  };
}

/**
 * Compiling every validator up front costs a few hundred milliseconds of start-up; compiling each on its
 * first use spreads that over the first request of each operation and keeps start-up short.
 */
function lazyCheck(compile: CompileSchema, schema: JsonObject): Check {
  let validate: ValidateFunction | undefined;
  return (value) => {
    validate ??= compile(JSON.stringify(schema), schema);
    return validate(value) ? [] : describeErrors(validate.errors);
  };
}

function objectSchema(params: ParameterDefinition[]): JsonObject {
  return {
    type: 'object',
    properties: Object.fromEntries(params.map((p) => [p.name, p.schema])),
    required: params.filter((p) => p.required).map((p) => p.name),
  };
}

/** Follows `$ref`s; returns the object and the JSON pointer where it lives. */
function follow(doc: JsonObject, node: JsonObject, at: string): { value: JsonObject; at: string } {
  let value = node;
  let where = at;
  while (typeof value.$ref === 'string') {
    where = value.$ref;
    value = resolvePointer(doc, where);
  }
  return { value, at: where };
}

function resolveSchema(doc: JsonObject, responsePointer: string): JsonObject | undefined {
  const response = follow(doc, resolvePointer(doc, responsePointer), responsePointer).value;
  const schema = ((response.content as JsonObject)?.[JSON_MEDIA] as JsonObject | undefined)?.schema as
    JsonObject | undefined;
  return schema ? follow(doc, schema, '').value : undefined;
}

function errorTags(doc: JsonObject, schema: JsonObject): string[] {
  const resolved = follow(doc, schema, '').value;
  const variants = (resolved.oneOf ?? resolved.anyOf) as JsonObject[] | undefined;
  if (variants) return variants.flatMap((v) => errorTags(doc, v));
  const props = (resolved.properties ?? {}) as Record<string, JsonObject>;
  // `{_tag}` objects, and the legacy `{name, data}` ones, whose name may be one of several.
  const names = (p: JsonObject | undefined) => (p?.const !== undefined ? [p.const] : ((p?.enum as unknown[]) ?? []));
  const tags = props._tag ? names(props._tag) : names(props.name);
  return tags.filter((t): t is string => typeof t === 'string');
}

export function resolvePointer(doc: JsonObject, pointer: string): JsonObject {
  let node: unknown = doc;
  for (const part of pointer.replace(/^#\/?/, '').split('/')) {
    if (part === '') continue;
    node = (node as JsonObject)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    if (node === undefined) throw new Error(`Unresolvable reference ${pointer}`);
  }
  return node as JsonObject;
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Turns ajv's errors into one sentence each, naming the offending field. */
export function describeErrors(errors: ErrorObject[] | null | undefined): Diagnostic[] {
  const seen = new Set<string>();
  const out: Diagnostic[] = [];
  for (const e of errors ?? []) {
    // oneOf/anyOf failures repeat each branch's complaints; the summary line alone helps nobody.
    if (e.keyword === 'oneOf' || e.keyword === 'anyOf' || e.keyword === 'if') continue;
    const base = e.instancePath
      .split('/')
      .slice(1)
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    let path = base.join('.');
    let message: string;
    switch (e.keyword) {
      case 'required':
        path = [...base, e.params.missingProperty as string].join('.');
        message = 'is required';
        break;
      case 'additionalProperties':
        path = [...base, e.params.additionalProperty as string].join('.');
        message = 'is not an allowed field';
        break;
      case 'type':
        message = `must be ${String(e.params.type).replaceAll(',', ' or ')}`;
        break;
      case 'enum':
        message = `must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
        break;
      case 'const':
        message = `must be ${JSON.stringify(e.params.allowedValue)}`;
        break;
      case 'pattern':
        message = `must match the pattern ${e.params.pattern as string}`;
        break;
      default:
        message = e.message ?? 'is invalid';
    }
    const custom = (e.parentSchema as JsonObject | undefined)?.['x-error-message'];
    if (typeof custom === 'string' && e.keyword !== 'required' && e.keyword !== 'additionalProperties')
      message = custom;
    const key = `${path} ${message}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push({ path, message });
    }
  }
  return out;
}

/**
 * The spec index for a file, loaded once per process (and again only if the file changes): a test that
 * starts a simulator per test pays for parsing and compiling once.
 */
const specs = new Map<string, Promise<SpecIndex>>();
export function loadSpecOnce(path: string): Promise<SpecIndex> {
  const { mtimeMs, size } = statSync(path);
  const key = `${path}\0${mtimeMs}\0${size}`;
  let spec = specs.get(key);
  if (!spec) {
    spec = loadSpec(path);
    specs.set(key, spec);
    void spec.catch(() => specs.delete(key));
  }
  return spec;
}

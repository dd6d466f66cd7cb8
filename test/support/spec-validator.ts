/**
 * An answer checker for tests, built straight from the spec file with ajv (JSON Schema 2020-12) and
 * sharing no code with the simulator's own checker, so the contract test does not grade its own homework.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import { parse } from 'yaml';

type JsonObject = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const plugin = formatsModule as unknown as ((ajv: Ajv2020) => Ajv2020) & { default?: (ajv: Ajv2020) => Ajv2020 };
const addFormats = plugin.default ?? plugin;

export const SPEC_FILE = new URL('../../spec/session-agent.openapi.yaml', import.meta.url);
export const spec: JsonObject = parse(readFileSync(SPEC_FILE, 'utf8'));

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(spec, 'doc');

export interface SpecOperation {
  operationId: string;
  method: string;
  path: string;
  raw: JsonObject;
}

export const operations: SpecOperation[] = Object.entries(spec.paths as JsonObject).flatMap(([path, item]) =>
  Object.entries(item as JsonObject)
    .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
    .map(([method, raw]) => ({
      operationId: (raw as JsonObject).operationId as string,
      method: method.toUpperCase(),
      path,
      raw: raw as JsonObject,
    })),
);

export function operation(operationId: string): SpecOperation {
  const op = operations.find((o) => o.operationId === operationId);
  if (!op) throw new Error(`no operation ${operationId}`);
  return op;
}

/** A node with its `$ref`s followed, and the pointer of the last one followed. */
export function deref(node: JsonObject): { node: JsonObject; pointer?: string } {
  let pointer: string | undefined;
  while (node && typeof node.$ref === 'string') {
    pointer = node.$ref as string;
    node = pointer
      .slice(2)
      .split('/')
      .reduce((n: JsonObject, part) => n[part.replace(/~1/g, '/').replace(/~0/g, '~')], spec);
  }
  return { node, pointer };
}

/**
 * The parameters an operation takes, `$ref`s resolved and path-item parameters merged in (the operation's own
 * win by name and place, as OpenAPI says): probes that read `raw.parameters` as written see only the few
 * parameters the spec happens to inline, and silently skip every operation that shares a component parameter.
 */
export function parameters(operationId: string): JsonObject[] {
  const op = operation(operationId);
  const resolve = (list: JsonObject[] | undefined): JsonObject[] => (list ?? []).map((p) => deref(p).node);
  const own = resolve(op.raw.parameters);
  const inherited = resolve((spec.paths as JsonObject)[op.path].parameters).filter(
    (p) => !own.some((o) => o.name === p.name && o.in === p.in),
  );
  return [...inherited, ...own];
}

/** The request body and its JSON schema, `$ref`s resolved, for the same reason as `parameters`. */
export function requestBody(operationId: string): { required: boolean; schema?: JsonObject } | undefined {
  const raw = operation(operationId).raw.requestBody;
  if (!raw) return undefined;
  const body = deref(raw).node;
  const schema = body.content?.['application/json']?.schema;
  return { required: body.required === true, schema: schema ? deref(schema).node : undefined };
}

export function declaredStatuses(operationId: string): number[] {
  return Object.keys(operation(operationId).raw.responses).map(Number);
}

/** The `_tag`s (or `name`s, in the older `{name, data}` dialect) an error status of this operation may carry. */
export function declaredTags(operationId: string, status: number): string[] {
  const raw = operation(operationId).raw.responses[String(status)];
  if (!raw) return [];
  const response = deref(raw).node;
  const tagsOf = (node: JsonObject): string[] => {
    const schema = deref(node).node;
    const choices = schema.anyOf ?? schema.oneOf;
    if (choices) return (choices as JsonObject[]).flatMap(tagsOf);
    const named = schema.properties?._tag ?? schema.properties?.name;
    return named?.const !== undefined ? [named.const] : (named?.enum ?? []);
  };
  return tagsOf(response.content?.['application/json']?.schema ?? {});
}

export function exampleNames(operationId: string, status: number): string[] {
  const response = deref(operation(operationId).raw.responses[String(status)]).node;
  return Object.keys(response.content?.['application/json']?.examples ?? {});
}

/** Every problem with an answer, or [] when status and body are what the spec declares. */
export function specProblems(operationId: string, status: number, body: unknown, contentType?: string): string[] {
  const op = operation(operationId);
  const rawResponse = op.raw.responses[String(status)];
  if (!rawResponse) return [`undeclared status ${status} (declared: ${Object.keys(op.raw.responses).join(', ')})`];
  const { node: response, pointer } = deref(rawResponse);
  const media = response.content?.['application/json'];
  if (!media)
    return body === undefined ||
      body === '' ||
      (typeof body === 'object' && body !== null && Object.keys(body).length === 0)
      ? []
      : ['body where none is declared'];
  if (!contentType?.startsWith('application/json')) return [`content-type ${contentType ?? '(none)'} is not JSON`];
  const base =
    pointer ??
    `#/paths/${op.path.replace(/~/g, '~0').replace(/\//g, '~1')}/${op.method.toLowerCase()}/responses/${status}`;
  const validate =
    ajv.getSchema(`doc${base}/content/application~1json/schema`) ??
    ajv.compile({ $ref: `doc${base}/content/application~1json/schema` });
  return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
}

/** Problems of one event-stream frame against the spec's `V2Event` (empty when valid). */
export function eventProblems(event: unknown): string[] {
  const validate = ajv.getSchema('doc#/components/schemas/V2Event');
  if (!validate) throw new Error('the spec has no V2Event schema');
  if (validate(event)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
}

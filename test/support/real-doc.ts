/**
 * Answers held to the real server's own document (the v2 part of `GET /doc` of opencode 1.18.33, kept in
 * spec/real-server/): what a frontend built against the real server expects. The simulator's spec departs
 * from it where the interface document shows an operation otherwise, so only operations the real server
 * serves are checked, and only where the spec has not recorded a departure.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';

type JsonObject = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const plugin = formatsModule as unknown as ((ajv: Ajv2020) => Ajv2020) & { default?: (ajv: Ajv2020) => Ajv2020 };
const addFormats = plugin.default ?? plugin;

const DIR = new URL('../../spec/real-server/', import.meta.url);
const FILE = readdirSync(DIR).find((f) => f.endsWith('.openapi.json'))!;
export const realDoc: JsonObject = JSON.parse(readFileSync(new URL(FILE, DIR), 'utf8'));

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(realDoc, 'real');

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];
const where = new Map<string, { path: string; method: string }>();
for (const [path, item] of Object.entries(realDoc.paths as JsonObject))
  for (const method of METHODS) {
    const id = (item as JsonObject)[method]?.operationId as string | undefined;
    if (id) where.set(id, { path, method });
  }

/** Whether the real server's document has this operation. */
export function realServes(operationId: string): boolean {
  return where.has(operationId);
}

/** Every problem of an answer against the real server's document; [] when it is what that document declares. */
export function realDocProblems(operationId: string, status: number, body: unknown): string[] {
  const at = where.get(operationId);
  if (!at) return [`the real server's document has no ${operationId}`];
  return realDocProblemsAt(at.path, at.method, status, body);
}

/** The same, for the operation at a path and method of the real server's document. */
export function realDocProblemsAt(path: string, method: string, status: number, body: unknown): string[] {
  const response = realDoc.paths[path]?.[method]?.responses?.[String(status)];
  if (!response) return [`the real server's document declares no ${status} for ${method.toUpperCase()} ${path}`];
  const pointer = `#/paths/${path.replace(/~/g, '~0').replace(/\//g, '~1')}/${method}/responses/${status}`;
  if (!response.content?.['application/json']) return body === undefined ? [] : ['a body where none is declared'];
  const ref = `real${pointer}/content/application~1json/schema`;
  const validate = ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });
  return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
}

/** The real server's document's schema for each event type it declares (`type` a one-valued enum, a `data`). */
const eventSchemas = new Map<string, string>();
for (const [name, schema] of Object.entries(realDoc.components.schemas as JsonObject)) {
  const type = (schema as JsonObject).properties?.type as JsonObject | undefined;
  const one = type?.const ?? (type?.enum?.length === 1 ? type.enum[0] : undefined);
  if (typeof one === 'string' && (schema as JsonObject).properties?.data) eventSchemas.set(one, name);
}

/**
 * Every problem of one event-stream frame against the real server's document's schema for its type; undefined
 * when that document declares no such type (the newer server's forms and shells, the simulator's own).
 */
export function realEventProblems(frame: { type: string }): string[] | undefined {
  const name = eventSchemas.get(frame.type);
  if (!name) return undefined;
  const ref = `real#/components/schemas/${name}`;
  const validate = ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });
  return validate(frame) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
}

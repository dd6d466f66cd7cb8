/**
 * Makes a canned answer talk about the request that was sent: the `location` envelope names the asked-for
 * directory, an error names the session, form, shell or message from the path or body instead of the
 * example's, and a record fetched by id carries that id. A frontend showing "Session not found: ses_x"
 * should show the id it asked for.
 */
import { resolveLocation, type ProjectContext } from '../openapi/location.js';

type IdentitySource = [field: string, from: (params: Record<string, string>, body: Record<string, unknown>) => unknown];

/** Error body field ← where the request carries that identity. */
const ERROR_IDENTITY: IdentitySource[] = [
  ['sessionID', (p) => p.sessionID],
  ['requestID', (p) => p.requestID],
  ['messageID', (_, b) => b.messageID],
  ['id', (p) => p.formID ?? p.id],
];

/** Field of a success body's `data` record ← where the request carries that identity. */
const DATA_IDENTITY: IdentitySource[] = [
  ['sessionID', (p) => p.sessionID],
  ['messageID', (_, b) => b.messageID],
  ['id', (p) => p.id],
];

export interface EchoContext {
  project: ProjectContext;
  locationEnvelope: boolean;
  pathParams: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
}

export function echoRequest(answerBody: unknown, context: EchoContext): unknown {
  if (!isObject(answerBody)) return answerBody;
  const out: Record<string, unknown> = { ...answerBody };
  if (context.locationEnvelope && 'location' in out)
    out.location = resolveLocation(context.project, context.query.location);
  const requestBody = isObject(context.body) ? context.body : {};
  if (typeof out._tag === 'string') return replaceIdentity(out, ERROR_IDENTITY, context.pathParams, requestBody);
  if (isObject(out.data)) out.data = replaceIdentity({ ...out.data }, DATA_IDENTITY, context.pathParams, requestBody);
  return out;
}

/** What of the request and the project an echo depends on: the same key, the same echoed answer. */
export function echoKey(context: EchoContext): string {
  const messageID = isObject(context.body) ? context.body.messageID : undefined;
  return JSON.stringify([
    context.project.id,
    context.project.directory,
    context.locationEnvelope,
    context.query.location ?? null,
    context.pathParams,
    messageID ?? null,
  ]);
}

function replaceIdentity(
  record: Record<string, unknown>,
  sources: IdentitySource[],
  params: Record<string, string>,
  body: Record<string, unknown>,
): Record<string, unknown> {
  for (const [field, from] of sources) {
    const value = from(params, body);
    const old = record[field];
    if (typeof value === 'string' && typeof old === 'string' && value !== old) {
      // The id also appears inside other fields (a message, a shell's output file): say it the same everywhere.
      for (const [key, text] of Object.entries(record)) {
        if (typeof text === 'string') record[key] = text.split(old).join(value);
      }
    }
  }
  return record;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Makes a canned answer talk about the request that was sent: the `location` envelope names the asked-for
 * directory, and an error names the session, form, shell or message from the path or body instead of the
 * example's. A frontend showing "Session not found: ses_x" should show the id it asked for.
 */
import { resolveLocation, type ProjectContext } from './location.js';

/** Error body field ← where the request carries that identity. */
const IDENTITY_SOURCES: Array<[field: string, from: (params: Record<string, string>, body: Record<string, unknown>) => unknown]> = [
  ['sessionID', (p) => p.sessionID],
  ['requestID', (p) => p.requestID],
  ['messageID', (_, b) => b.messageID],
  ['id', (p) => p.formID ?? p.id],
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
  if (context.locationEnvelope && 'location' in out) out.location = resolveLocation(context.project, context.query.location);
  if (typeof out._tag === 'string') {
    const requestBody = isObject(context.body) ? context.body : {};
    for (const [field, from] of IDENTITY_SOURCES) {
      const value = from(context.pathParams, requestBody);
      const old = out[field];
      if (typeof value === 'string' && typeof old === 'string' && value !== old) {
        out[field] = value;
        if (typeof out.message === 'string') out.message = out.message.split(old).join(value);
      }
    }
  }
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

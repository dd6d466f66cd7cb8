/**
 * HAR 1.2 interop: a recording exported for browser devtools and HAR viewers, and a HAR (as saved by
 * devtools) imported as a recording. Importing routes each entry through the spec and redacts it like a
 * live recording, so a HAR full of cookies never lands on disk as one.
 */
import type { SpecIndex } from '../openapi/openapi.js';
import { findOperation } from '../openapi/router.js';
import { RECORDING_FORMAT, type Interaction, type ParsedRecording, type RecordingHeader } from './format.js';
import { redactBody, redactHeaders, redactQuery, type RedactionRules } from './redact.js';

interface HarNameValue {
  name: string;
  value: string;
}

interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    headers: HarNameValue[];
    queryString?: HarNameValue[];
    postData?: { mimeType?: string; text?: string };
  };
  response: {
    status: number;
    statusText?: string;
    headers: HarNameValue[];
    content?: { mimeType?: string; text?: string; encoding?: string };
  };
}

export interface Har {
  log: { version: string; creator: { name: string; version: string }; entries: HarEntry[] };
}

const DEFAULT_BASE = 'http://127.0.0.1:4010';

function bodyText(body: unknown): string | undefined {
  if (body === undefined) return undefined;
  return typeof body === 'string' ? body : JSON.stringify(body);
}

function parseText(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export function toHar(recording: ParsedRecording, creatorVersion: string): Har {
  const base = recording.header?.upstream ?? DEFAULT_BASE;
  return {
    log: {
      version: '1.2',
      creator: { name: 'session-agent-sim', version: creatorVersion },
      entries: recording.interactions.map((i): HarEntry => {
        const url = new URL(i.request.path, base);
        const queryString = Object.entries(i.request.query).flatMap(([name, value]) =>
          (Array.isArray(value) ? value : [value]).map((v) => ({ name, value: v })),
        );
        for (const { name, value } of queryString) url.searchParams.append(name, value);
        const requestText = bodyText(i.request.body);
        const responseText = i.response.chunks
          ? i.response.chunks.map((c) => c.data).join('')
          : bodyText(i.response.body);
        return {
          startedDateTime: i.timing.started,
          time: i.timing.durationMs,
          request: {
            method: i.request.method,
            url: url.href,
            headers: Object.entries(i.request.headers).map(([name, value]) => ({ name, value })),
            queryString,
            ...(requestText === undefined
              ? {}
              : { postData: { mimeType: i.request.headers['content-type'] ?? 'application/json', text: requestText } }),
          },
          response: {
            status: i.response.status,
            statusText: '',
            headers: Object.entries(i.response.headers).map(([name, value]) => ({ name, value })),
            content: {
              mimeType: i.response.headers['content-type'] ?? '',
              ...(responseText === undefined ? {} : { text: responseText }),
            },
          },
        };
      }),
    },
  };
}

export function fromHar(
  har: Har,
  spec: SpecIndex,
  rules: RedactionRules,
): { header: RecordingHeader; interactions: Interaction[] } {
  const entries = har.log?.entries ?? [];
  const first = entries[0] ? new URL(entries[0].request.url) : undefined;
  const interactions = entries.map((entry, index): Interaction => {
    const url = new URL(entry.request.url);
    const route = findOperation(spec, entry.request.method.toUpperCase(), url.pathname);
    const query: Record<string, string | string[]> = {};
    for (const name of new Set(url.searchParams.keys())) {
      const values = url.searchParams.getAll(name);
      query[name] = values.length === 1 ? (values[0] as string) : values;
    }
    const lower = (list: HarNameValue[]) =>
      Object.fromEntries(list.filter((h) => !h.name.startsWith(':')).map((h) => [h.name.toLowerCase(), h.value]));
    const content = entry.response.content;
    const responseText =
      content?.encoding === 'base64' && content.text
        ? Buffer.from(content.text, 'base64').toString('utf8')
        : content?.text;
    return {
      seq: index + 1,
      ...(route.kind === 'found' ? { operationId: route.operation.operationId, pathParams: route.params } : {}),
      request: {
        method: entry.request.method.toUpperCase(),
        path: url.pathname,
        query: redactQuery(query, rules),
        headers: redactHeaders(lower(entry.request.headers), rules),
        body: redactBody(parseText(entry.request.postData?.text), rules),
      },
      response: {
        status: entry.response.status,
        headers: redactHeaders(lower(entry.response.headers), rules),
        body: redactBody(parseText(responseText), rules),
      },
      timing: { started: entry.startedDateTime, durationMs: Math.round(entry.time) },
    };
  });
  return {
    header: { format: RECORDING_FORMAT, specHash: spec.hash, ...(first ? { upstream: first.origin } : {}) },
    interactions,
  };
}

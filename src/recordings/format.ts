/**
 * The recording file: human-readable YAML, one document per interaction after a header document. Appending
 * whole documents keeps the file valid after a crash at any moment; a reader skips nothing but a torn tail.
 */
import { parseAllDocuments, stringify } from 'yaml';

export const RECORDING_FORMAT = 'session-agent-sim/recording@1';

export interface RecordingHeader {
  format: typeof RECORDING_FORMAT;
  specHash: string;
  upstream?: string;
  /** What the upstream said it is, when it said (its `server` header or health answer). */
  upstreamVersion?: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  /** Query values as sent; repeated names keep every value. */
  query: Record<string, string | string[]>;
  headers: Record<string, string>;
  /** The JSON body, or its text when it is not JSON. */
  body?: unknown;
}

export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  body?: unknown;
  /** Server-sent events: each chunk with its offset from the start of the answer, in ms. */
  chunks?: Array<{ at: number; data: string }>;
}

export interface Interaction {
  /** 1, 2, 3… in the order the answers completed. */
  seq: number;
  operationId?: string;
  pathParams?: Record<string, string>;
  request: RecordedRequest;
  response: RecordedResponse;
  timing: { started: string; durationMs: number };
}

export function headerDocument(header: RecordingHeader): string {
  return `# session-agent-sim recording: a header, then one document per interaction\n${stringify(header)}`;
}

export function interactionDocument(interaction: Interaction): string {
  return `---\n${stringify(interaction, { lineWidth: 0 })}`;
}

export interface ParsedRecording {
  header?: RecordingHeader;
  interactions: Interaction[];
  /** A last document that did not parse (a crash mid-write): left out. */
  tornTail: boolean;
}

export function parseRecording(text: string): ParsedRecording {
  const documents = parseAllDocuments(text);
  const list = Array.isArray(documents) ? documents : [documents];
  const interactions: Interaction[] = [];
  let header: RecordingHeader | undefined;
  let tornTail = false;
  list.forEach((doc, index) => {
    if (doc.errors.length) {
      if (index === list.length - 1) tornTail = true;
      else throw new Error(`recording document ${index + 1}: ${doc.errors[0]?.message ?? 'invalid YAML'}`);
      return;
    }
    const value = doc.toJS() as Record<string, unknown> | null;
    if (!value) return;
    if (value.format === RECORDING_FORMAT) header = value as unknown as RecordingHeader;
    else interactions.push(value as unknown as Interaction);
  });
  return { header, interactions, tornTail };
}

/**
 * The recording file: YAML, a header document and then one document per interaction. Appending whole
 * documents keeps the file valid after a crash at any moment; a reader skips nothing but a torn tail.
 * Interactions are written in YAML's JSON-compatible flow style, indented: still plain to read and edit,
 * and a 100,000-interaction file loads in about a second (JSON.parse per document) where a full YAML
 * parser needs tens of seconds. Hand-edited documents in block style are read by the YAML parser.
 */
import { yaml } from '../text/yaml.js';

export const RECORDING_FORMAT = 'session-agent-sim/recording@1';

export interface RecordingHeader {
  format: typeof RECORDING_FORMAT;
  specHash: string;
  upstream?: string;
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
  /** Server-sent events: each chunk with its offset from the start of the interaction (`timing.started`), in ms. */
  chunks?: Array<{ at: number; data: string }>;
  /**
   * The stream was still open when the client went away (an event stream never ends by itself): replay
   * keeps it open after the last chunk, as the server did, instead of ending it.
   */
  open?: boolean;
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
  return `# session-agent-sim recording: a header, then one document per interaction\n${yaml().stringify(header)}`;
}

export function interactionDocument(interaction: Interaction): string {
  return `---\n${JSON.stringify(interaction, null, 2)}\n`;
}

export interface ParsedRecording {
  header?: RecordingHeader;
  interactions: Interaction[];
  /** A last document that did not parse (a crash mid-write): left out. */
  tornTail: boolean;
}

export function parseRecording(text: string): ParsedRecording {
  const parts = text.split(/^---[ \t]*$/m);
  const interactions: Interaction[] = [];
  let header: RecordingHeader | undefined;
  let tornTail = false;
  parts.forEach((part, index) => {
    if (part.trim() === '' || /^(\s*#.*\n?)*\s*$/.test(part)) return;
    let value: Record<string, unknown> | null;
    try {
      value = fastParse(part);
    } catch (error) {
      if (index === parts.length - 1) {
        tornTail = true;
        return;
      }
      throw new Error(`recording document ${index + 1}: ${(error as Error).message.split('\n')[0]}`, { cause: error });
    }
    if (!value) return;
    if (value.format === RECORDING_FORMAT) header = value as unknown as RecordingHeader;
    else interactions.push(value as unknown as Interaction);
  });
  return { header, interactions, tornTail };
}

function fastParse(document: string): Record<string, unknown> | null {
  const trimmed = document.trim();
  if (trimmed.startsWith('{')) {
    try {
      return JSON.parse(trimmed) as Record<string, unknown>;
    } catch {
      // not JSON after all: a hand-edited flow mapping, or a torn one
    }
  }
  const docs = yaml().parseAllDocuments(document);
  const doc = Array.isArray(docs) ? docs[0] : docs;
  if (doc?.errors.length) throw new Error(doc.errors[0]?.message ?? 'invalid YAML');
  return (yaml().parse(document) ?? null) as Record<string, unknown> | null;
}
